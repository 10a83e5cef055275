/**
 * Search hits as JSON text. Hits with the default fields — what nearly every search asks for —
 * come from renderings saved beside the documents (`store.pages`): one statement per page and
 * no parsing of whole documents. A missing or stale rendering (new content, new field list) is
 * made from the document on the spot and saved in the background for the next page that needs
 * it; `renderAhead` fills them in bulk. Other `fields` are projected from the documents.
 */
import { createHash } from 'node:crypto';
import type { IndexName } from '../model/field-def.ts';
import { projectFields } from '../model/project-fields.ts';
import type { Json, SavedHit, Store } from '../store/store.ts';
import { DEFAULT_HIT_FIELDS } from './default-fields.ts';

/** Bump when the rendering of a hit changes in any way other than its field list. */
const FORMAT = 1;

const SPECS: Readonly<Record<IndexName, string>> = {
  hosts: specOf(DEFAULT_HIT_FIELDS.hosts),
  certificates: specOf(DEFAULT_HIT_FIELDS.certificates),
};

function specOf(paths: readonly string[]): string {
  return `v${FORMAT}:${createHash('sha256').update(paths.join('\n')).digest('hex').slice(0, 16)}`;
}

/** The spec under which default-fields hits of `index` are saved. */
export function defaultHitSpec(index: IndexName): string {
  return SPECS[index];
}

/** The default-fields hit of a document, exactly as the search endpoints send it. */
export function renderDefaultHit(index: IndexName, doc: Json): string {
  return JSON.stringify(projectFields(doc, DEFAULT_HIT_FIELDS[index]));
}

/** Saves renderings in batches, off the request path; a lost batch only costs a later re-render. */
class SaveQueue {
  private readonly pending: Record<IndexName, Map<string, SavedHit>> = { hosts: new Map(), certificates: new Map() };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly store: Store) {}

  add(index: IndexName, hit: SavedHit): void {
    this.pending[index].set(hit.id, hit);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), 100);
      this.timer.unref();
    }
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.running.then(async () => {
      for (const index of ['hosts', 'certificates'] as const) {
        const batch = [...this.pending[index].values()];
        this.pending[index].clear();
        if (batch.length === 0) continue;
        try {
          await this.store.pages.saveHits(index, SPECS[index], batch);
        } catch {
          // A closed or busy store: the hits are rendered again when next needed.
        }
      }
    });
    return this.running;
  }
}

const queues = new WeakMap<Store, SaveQueue>();

function queueFor(store: Store): SaveQueue {
  let q = queues.get(store);
  if (!q) {
    q = new SaveQueue(store);
    queues.set(store, q);
  }
  return q;
}

/** Default-fields hits of `ids` that exist, by id. */
export async function defaultHits(store: Store, index: IndexName, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const rows = await store.pages.hits(index, ids, SPECS[index]);
  let queue: SaveQueue | undefined;
  for (const r of rows) {
    if (r.hit !== undefined) {
      out.set(r.id, r.hit);
      continue;
    }
    const hit = renderDefaultHit(index, r.doc);
    out.set(r.id, hit);
    queue ??= queueFor(store);
    queue.add(index, { id: r.id, contentHash: r.contentHash, hit });
  }
  return out;
}

/** Hits with the requested document paths, by id. */
export async function projectedHits(store: Store, index: IndexName, ids: readonly string[], paths: readonly string[]): Promise<Map<string, string>> {
  const stored = await store.documents.getMany(index, ids);
  return new Map(stored.map((s) => [s.id, JSON.stringify(projectFields(s.doc, paths))]));
}

/** Waits for renderings queued so far to be saved (tests, shutdown). */
export function flushSavedHits(store: Store): Promise<void> {
  return queues.get(store)?.flush() ?? Promise.resolve();
}

/**
 * Renders and saves every missing or stale default-fields hit of `index`, looking at `batch`
 * documents at a time and yielding to the event loop (or pausing `pauseMs`) between batches.
 * Returns how many were rendered.
 */
export async function renderAhead(
  store: Store,
  index: IndexName,
  options: { batch?: number; signal?: AbortSignal; onProgress?: (done: number) => void; pauseMs?: number } = {},
): Promise<number> {
  const window = options.batch ?? 500;
  let after: string | undefined;
  let done = 0;
  for (;;) {
    if (options.signal?.aborted) return done;
    const { stale, last } = await store.pages.staleHits(index, SPECS[index], after, window);
    if (last === undefined) return done;
    if (stale.length > 0) {
      await store.pages.saveHits(
        index,
        SPECS[index],
        stale.map((s) => ({ id: s.id, contentHash: s.contentHash, hit: renderDefaultHit(index, s.doc) })),
      );
      done += stale.length;
      options.onProgress?.(done);
    }
    after = last;
    // A pause between windows bounds the share of the CPU a background pass takes from requests.
    await new Promise((resolve) => (options.pauseMs ? setTimeout(resolve, options.pauseMs) : setImmediate(resolve)));
  }
}
