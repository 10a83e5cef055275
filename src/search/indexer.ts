/**
 * The write path shared by import, the demo loader and ingest: the store takes the document first
 * (it is the truth), then the engine indexes the current version. Host index documents embed
 * the certificates their TLS services present (`services.tls.certificate.*` is searchable on
 * hosts), so hosts are re-indexed when a certificate they present arrives later.
 */
import type { IndexName } from '../model/field-def.ts';
import type { Doc, EnginePersistence, SortPosition } from '../engine/search-engine.ts';
import type { DocumentRepository, PutManyItem, PutResult, Store, StoredDocument } from '../store/store.ts';
import type { SearchContext } from './search-context.ts';
import { isJsonData } from './is-json-data.ts';

/** How the engine came up: from its segments (plus the journaled tail), or from the whole store. */
export interface RebuildReport {
  readonly mode: 'segments' | 'store';
  /** Why the segments were not used. */
  readonly reason?: string;
  readonly documents: number;
  /** Journaled ids re-read from the store after opening the segments. */
  readonly replayed: number;
  readonly ms: number;
}

export interface PutItem {
  readonly id: string;
  readonly doc: Record<string, unknown>;
  readonly observedAt: string;
  /** JSON text that JSON.parse turns into `doc` (the line it was read from): putAll hands it to the store's writer thread instead of serialising `doc`. */
  readonly json?: string;
  /** `canonicalJson(doc)`, when the caller has it (ingest): `put` hands it to the store, which stores it as it is. */
  readonly canonical?: string;
  /** `canonical` as UTF-8 (ingest), handed to the store with it. */
  readonly canonicalUtf8?: Uint8Array;
}

/** What the store gets of an item: its text when it has one, and whether it is JSON data when that is known. */
function toStore(it: PutItem, jsonData: boolean | undefined): PutManyItem {
  const item: PutManyItem = jsonData ? { id: it.id, doc: it.doc, observedAt: it.observedAt, jsonData } : { id: it.id, doc: it.doc, observedAt: it.observedAt };
  return it.json === undefined ? item : { ...item, json: it.json };
}

/** A current document to index. */
type Current = Pick<StoredDocument, 'id' | 'doc'>;

/** Certificate fields that are not worth indexing inside every host presenting the certificate. */
const HEAVY_CERT_KEYS = new Set(['raw', 'zlint']);

function certificateForHost(cert: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(cert)) if (!HEAVY_CERT_KEYS.has(k)) out[k] = v;
  return out;
}

function fingerprintsOf(host: Record<string, unknown>): string[] {
  const services = Array.isArray(host.services) ? host.services : [];
  const out: string[] = [];
  for (const s of services) {
    const fp = (s as Record<string, unknown>)?.certificate;
    if (typeof fp === 'string') out.push(fp.toLowerCase());
  }
  return out;
}

/**
 * The store with every document write journaled by the engine first (EnginePersistence.journal),
 * whoever writes — the server, `import`, `ingest`, `ct-sync` — so an engine opened later
 * re-reads exactly the documents written since its segments, even when the writer was killed
 * between the store and the engine. Everything else passes through unchanged.
 */
export function journaledStore<S extends Store>(store: S, persistence: EnginePersistence | undefined): S {
  if (!persistence) return store;
  const docs = store.documents;
  const intercept: Partial<DocumentRepository> = {
    put: (index, id, doc, observedAt) => {
      persistence.journal(index, [id]);
      return docs.put(index, id, doc, observedAt);
    },
    putMany: (index, items) => {
      const ids = [...new Set(items.map((it) => it.id))];
      // The journal is on disk before the store is written; syncing it off this thread lets a
      // long ingest go on merging meanwhile (journalDurably keeps the writes in call order).
      if (!persistence.journalDurably) persistence.journal(index, ids);
      else {
        const durable = persistence.journalDurably(index, ids);
        if (durable) return durable.then(() => docs.putMany(index, items));
      }
      return docs.putMany(index, items);
    },
    remove: (index, id) => {
      persistence.journal(index, [id]);
      return docs.remove(index, id);
    },
  };
  const documents = new Proxy(docs, {
    get(target, prop) {
      if (typeof prop === 'string' && prop in intercept) return intercept[prop as keyof DocumentRepository];
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      // A write method this wrapper does not know names no ids: the next open reloads everything.
      if (typeof prop === 'string' && UNKNOWN_WRITE.test(prop)) {
        return (...args: unknown[]) => {
          persistence.journalUnknown();
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return v.bind(target);
    },
  });
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'documents') return documents;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** Reload the whole store instead of replaying a journaled tail longer than this, or this share of the segments' documents. */
const REPLAY_LIMIT = 50_000;
const REPLAY_SHARE = 0.5;

const UNKNOWN_WRITE = /^(put|remove|delete|write|insert|upsert|replace|clear|import)/i;

/**
 * Checkpoint once this many ids were journaled. A checkpoint writes a delta segment (what changed
 * since the last one), so its cost follows the writes, not the index; a short tail also keeps the
 * replay after a crash short (a tail past REPLAY_LIMIT reloads the whole store).
 */
const CHECKPOINT_IDS = 20_000;

export interface IndexerOptions {
  /** Checkpoint a persistent engine once this many ids were journaled (default 20,000). */
  readonly checkpointIds?: number;
}

/** Told which documents got a new current version (after store and engine took them). */
export type DocumentsChangedListener = (index: IndexName, ids: readonly string[]) => void | Promise<void>;

export class Indexer {
  private readonly listeners: DocumentsChangedListener[] = [];
  /** Store writes issued so far (puts and putAll batches): putAll indexes a created document as given only when no other came between its store write and its indexing. */
  private storeWrites = 0;

  constructor(
    private readonly ctx: SearchContext,
    private readonly options: IndexerOptions = {},
  ) {}

  /**
   * Subscribe to changes (ASM discovery updates the assets a change touches). Listener failures
   * are reported through `onListenerError` and never fail the write that triggered them.
   */
  onChanged(listener: DocumentsChangedListener): void {
    this.listeners.push(listener);
  }

  onListenerError: (err: unknown) => void = () => {};

  private async emitChanged(index: IndexName, ids: readonly string[]): Promise<void> {
    for (const l of this.listeners) {
      try {
        await l(index, ids);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  /** The document the engine indexes for a stored host. */
  hostIndexDoc(host: Record<string, unknown>, certs: ReadonlyMap<string, Record<string, unknown>>): Doc {
    const services = Array.isArray(host.services) ? host.services : undefined;
    if (!services || !services.some((s) => typeof (s as Record<string, unknown>)?.certificate === 'string')) return host;
    return {
      ...host,
      services: services.map((s) => {
        const svc = s as Record<string, unknown>;
        const cert = typeof svc.certificate === 'string' ? certs.get(svc.certificate.toLowerCase()) : undefined;
        if (!cert) return svc;
        const tls = svc.tls && typeof svc.tls === 'object' ? (svc.tls as Record<string, unknown>) : {};
        return { ...svc, tls: { ...tls, certificate: certificateForHost(cert) } };
      }),
    };
  }

  private async indexHosts(stored: readonly Current[]): Promise<void> {
    const fps = [...new Set(stored.flatMap((s) => fingerprintsOf(s.doc)))];
    const certs = new Map<string, Record<string, unknown>>();
    for (let i = 0; i < fps.length; i += 500) {
      for (const c of await this.ctx.store.documents.getMany('certificates', fps.slice(i, i + 500))) certs.set(c.id, c.doc);
    }
    for (const s of stored) this.ctx.engine.upsert('hosts', s.id, this.hostIndexDoc(s.doc, certs));
  }

  async put(index: IndexName, items: readonly PutItem[]): Promise<PutResult[]> {
    if (items.length === 0) return [];
    this.storeWrites++;
    const results = await this.ctx.store.documents.putMany(index, items);
    await this.afterPut(index, items, results, undefined, true);
    return results;
  }

  /**
   * `put` for a long run of batches (import, the benchmark's load), with the same results per
   * batch (handed to `onBatch`) and the same engine contents at the end. Faster in three ways:
   * - the store's writes run on its writer thread (SQLite, from the second batch) while this thread indexes: the next
   *   batch is handed to the store before the previous one is indexed (one batch ahead);
   * - JSON data goes to that thread as its text (`json`, or JSON.stringify's), canonicalised there;
   * - a persistent engine is checkpointed once at the end (if `put` would have), not every 5% of
   *   the index, each a rewrite of every segment: a long load would be quadratic. The journal
   *   keeps it durable meanwhile (an engine opened later re-reads the journaled ids, or the
   *   whole store past 50,000 of them).
   * Indexing a batch written one batch ahead reads back what the store holds at that moment: a
   * document the next batch updates again may already be that version, which the next batch
   * indexes anyway. On failure the batches already written are indexed before the error is thrown.
   *
   * `storeOnly`: the engine is left alone, for a command whose persistent engine is neither opened
   * nor kept (`periscope import`): it would index into an engine dropped at exit, while the ids stay
   * journaled and the engine that opens the segments next reads them from the store.
   */
  async putAll(
    index: IndexName,
    batches: AsyncIterable<readonly PutItem[]> | Iterable<readonly PutItem[]>,
    onBatch?: (items: readonly PutItem[], results: readonly PutResult[]) => void | Promise<void>,
    options: { storeOnly?: boolean } = {},
  ): Promise<void> {
    const docs = this.ctx.store.documents;
    let stop: (() => Promise<void>) | undefined;
    let count = 0;
    /** `plain[i]`: whether items[i] is JSON data; undefined for a document given with its text, until the store says. */
    type Ahead = { items: readonly PutItem[]; plain: (boolean | undefined)[]; results: Promise<PutResult[]>; writes: number; mine: number };
    let mine = 0;
    let ahead: Ahead | undefined;
    let failure: { error: unknown } | undefined;
    const finish = async (b: Ahead) => {
      const results = await b.results;
      // A created document is indexed as given only if no other writer (a put: an API request;
      // another putAll) wrote the store since this batch: it may have replaced the document, and
      // indexing the batch's version after the other write indexed its own would leave the engine
      // behind the store. Then the created documents are read back like updates.
      const alone = this.storeWrites - b.writes === mine - b.mine;
      if (!options.storeOnly) {
        // Only a created document may be indexed as given (currentAfterPut).
        const plain = b.plain.map((p, i) => alone && results[i]!.outcome === 'created' && (p ?? results[i]!.jsonData ?? isJsonData(b.items[i]!.doc)));
        await this.afterPut(index, b.items, results, plain, false);
      }
      // The same results as put's: what the store said of the texts is this method's business.
      await onBatch?.(b.items, results.map((r) => (r.jsonData === undefined ? r : { outcome: r.outcome, version: r.version })));
    };
    try {
      for await (const items of batches) {
        if (items.length === 0) continue;
        // From the second batch on: a thread costs its start-up, which one batch does not repay.
        if (++count === 2 && docs.startWriterThread) stop = await docs.startWriterThread().catch(() => undefined);
        // A document with its JSON text goes as that text, and the store's writer thread, which
        // parses it anyway, says whether it is JSON data: walking every document here cost this
        // thread about 14 µs per 6 KB document (docs/BENCHMARK.md).
        const plain = items.map((it) => (it.json !== undefined ? undefined : isJsonData(it.doc)));
        const next: Ahead = { items, plain, results: docs.putMany(index, items.map((it, i) => toStore(it, plain[i]))), writes: ++this.storeWrites, mine: ++mine };
        // Awaited in its turn; until then a rejection must not count as unhandled.
        next.results.catch(() => undefined);
        const previous = ahead;
        ahead = next;
        if (previous) await finish(previous);
      }
    } catch (error) {
      failure = { error };
    }
    try {
      if (ahead) await finish(ahead);
    } catch (error) {
      failure ??= { error };
    }
    try {
      await stop?.();
    } catch (error) {
      failure ??= { error };
    }
    const p = this.ctx.engine.persistence;
    if (p && !options.storeOnly) this.maybeCheckpoint(p);
    if (failure) throw failure.error;
  }

  /**
   * The engine's side of a put whose store results are in: index what changed, mark the ids
   * applied, tell the listeners. `plain[i]`: whether items[i] is JSON data, when known.
   */
  private async afterPut(index: IndexName, items: readonly PutItem[], results: readonly PutResult[], plain: readonly boolean[] | undefined, checkpoint: boolean): Promise<void> {
    const changed = [...new Set(items.filter((_, i) => results[i].outcome !== 'unchanged').map((it) => it.id))];
    if (changed.length > 0) {
      const current = await this.currentAfterPut(index, items, results, plain);
      if (index === 'hosts') await this.indexHosts(current);
      else {
        for (const c of current) this.ctx.engine.upsert('certificates', c.id, c.doc);
        await this.reindexHostsPresenting(current.map((c) => c.id));
      }
    }
    const p = this.ctx.engine.persistence;
    if (p) {
      p.applied(index, [...new Set(items.map((it) => it.id))]);
      if (checkpoint) this.maybeCheckpoint(p);
    }
    if (changed.length > 0 && this.listeners.length > 0) await this.emitChanged(index, changed);
  }

  /**
   * The current versions of the documents `items` changed. An update is read back from the store:
   * it may be an observation older than the current version, which changes history only. A
   * creation is current as given when its id is alone in the batch (nothing before it, nothing
   * after it) and the document is JSON data, which the store reads back unchanged: then reading
   * it back (a query, a parse and a second copy of the batch alive at once) is skipped.
   */
  private async currentAfterPut(index: IndexName, items: readonly PutItem[], results: readonly PutResult[], plain?: readonly boolean[]): Promise<Current[]> {
    const times = new Map<string, number>();
    for (const it of items) times.set(it.id, (times.get(it.id) ?? 0) + 1);
    const given: Current[] = [];
    const reread = new Set<string>();
    for (let i = 0; i < items.length; i++) {
      const { id, doc } = items[i];
      const outcome = results[i].outcome;
      if (outcome === 'created' && times.get(id) === 1 && (plain ? plain[i] : isJsonData(doc))) given.push({ id, doc });
      else if (outcome !== 'unchanged') reread.add(id);
    }
    if (reread.size === 0) return given;
    return given.concat(await this.ctx.store.documents.getMany(index, [...reread]));
  }

  private maybeCheckpoint(p: EnginePersistence): void {
    if (!p.opened) return;
    if (p.pending >= (this.options.checkpointIds ?? CHECKPOINT_IDS)) p.checkpoint();
  }

  /**
   * Makes the engine agree with the store for `ids`: current versions are indexed (hosts with
   * the certificates they present, certificates with the hosts presenting them re-indexed),
   * ids no longer stored are removed.
   */
  async refresh(index: IndexName, ids: readonly string[], onProgress?: (done: number) => void): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const current = await this.ctx.store.documents.getMany(index, chunk);
      const found = new Set(current.map((c) => c.id));
      for (const id of chunk) if (!found.has(id)) this.ctx.engine.remove(index, id);
      if (index === 'hosts') await this.indexHosts(current);
      else {
        for (const c of current) this.ctx.engine.upsert('certificates', c.id, c.doc);
        await this.reindexHostsPresenting(current.map((c) => c.id));
      }
      onProgress?.(Math.min(ids.length, i + 500));
    }
  }

  private async reindexHostsPresenting(fingerprints: readonly string[]): Promise<void> {
    const field = this.ctx.catalogues.hosts.get('services.certificate');
    if (!field || this.ctx.engine.size('hosts') === 0) return;
    const ids = new Set<string>();
    for (const fp of fingerprints) {
      const query = { kind: 'field', field, predicate: { op: 'eq', value: fp, caseSensitive: false } } as const;
      // Every host presenting it, page by page (a popular certificate is on many hosts).
      let after: SortPosition | undefined;
      for (;;) {
        const r = this.ctx.engine.search('hosts', { query, limit: 1000, ...(after ? { after } : {}) });
        for (const h of r.hits) ids.add(h.id);
        if (!r.more || r.hits.length === 0) break;
        after = r.hits[r.hits.length - 1].position;
      }
    }
    if (ids.size > 0) await this.indexHosts(await this.ctx.store.documents.getMany('hosts', [...ids]));
  }

  /**
   * Brings the engine up at start. A persistent engine opens its segments and re-reads from the
   * store only the documents journaled since; without usable segments (first start, damage,
   * another catalogue) it loads every stored document, as an in-memory engine always does, and
   * checkpoints the result. The engine never owns the truth.
   */
  async rebuild(onProgress?: (index: IndexName, done: number, total: number) => void): Promise<RebuildReport> {
    const started = performance.now();
    const p = this.ctx.engine.persistence;
    if (p) {
      p.onCorrupt((err) => void this.recover(p, err));
      const opened = p.open();
      const tail = opened.loaded ? [...opened.tail.values()].reduce((n, ids) => n + ids.length, 0) : 0;
      // Replaying a tail replaces documents (tombstones); past a point a fresh load is cheaper.
      if (opened.loaded && tail > Math.max(REPLAY_LIMIT, opened.documents * REPLAY_SHARE)) {
        p.reset();
        await this.loadAndCheckpoint(p, onProgress);
        return { mode: 'store', reason: `${tail} documents written since the segments: reloading the store is cheaper`, documents: this.size(), replayed: 0, ms: performance.now() - started };
      }
      if (opened.loaded) {
        let replayed = 0;
        // Certificates first: hosts are indexed with the certificates they present.
        for (const index of ['certificates', 'hosts'] as const) {
          const ids = opened.tail.get(index) ?? [];
          await this.refresh(index, ids, (done) => onProgress?.(index, done, ids.length));
          replayed += ids.length;
        }
        return { mode: 'segments', documents: opened.documents, replayed, ms: performance.now() - started };
      }
      await this.loadAndCheckpoint(p, onProgress);
      return { mode: 'store', reason: opened.reason, documents: this.size(), replayed: 0, ms: performance.now() - started };
    }
    await this.loadAll(onProgress);
    return { mode: 'store', documents: this.size(), replayed: 0, ms: performance.now() - started };
  }

  /**
   * Loads the whole store into the (empty) engine, checkpoints, and serves from the segments just
   * written: what the load built in memory is several times what serving from them needs.
   */
  private async loadAndCheckpoint(p: EnginePersistence, onProgress?: (index: IndexName, done: number, total: number) => void): Promise<void> {
    await this.loadAll(onProgress);
    p.checkpoint();
    p.reopen();
  }

  /**
   * After a damaged segment block emptied the engine: load the whole store again, refresh what
   * was written meanwhile, and checkpoint. Queries fail until the load is done (the engine says
   * why) instead of answering from a partial index.
   */
  private async recover(p: EnginePersistence, cause: Error): Promise<void> {
    try {
      await this.loadAll();
      // Written during the load: the scan may have read these before their write.
      const written = p.journaledSinceBroken();
      p.rebuilt();
      for (const index of ['certificates', 'hosts'] as const) {
        const ids = written.get(index) ?? [];
        await this.refresh(index, ids);
        // Until refreshed they were carried by any checkpoint (journaledSinceBroken).
        p.applied(index, ids);
      }
      p.checkpoint();
      // Served from the segments just written, as after a first load (loadAndCheckpoint): a
      // restart's memory, and an index of parts hands some to its query thread again.
      p.reopen();
    } catch (err) {
      this.onListenerError(new Error(`rebuilding the search index after ${cause.message} failed: ${(err as Error).message}`));
    }
  }

  private size(): number {
    return this.ctx.engine.size('hosts') + this.ctx.engine.size('certificates');
  }

  private async loadAll(onProgress?: (index: IndexName, done: number, total: number) => void): Promise<void> {
    for (const index of ['certificates', 'hosts'] as const) {
      const total = await this.ctx.store.documents.count(index);
      let done = 0;
      for await (const batch of this.ctx.store.documents.scan(index, 2000)) {
        if (index === 'hosts') await this.indexHosts(batch);
        else for (const c of batch) this.ctx.engine.upsert('certificates', c.id, c.doc);
        done += batch.length;
        onProgress?.(index, done, total);
      }
    }
  }
}
