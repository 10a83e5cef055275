/**
 * Saved hit renderings kept in memory, in front of `document_hits` (page-reader.ts). Reading a
 * page of 100 saved hits from SQLite costs about 1 ms of CPU (two indexed lookups per id, then
 * copying 110 KB of text), as much as the engine's search and the response together; a page
 * whose hits are all here costs 100 map lookups.
 *
 * Served without asking the store whether a hit is still current, so every write of a document
 * in this process forgets its entry (KyselyStore wires the document repository to `forget`), and
 * a read that was in flight while something was forgotten caches nothing (`generation`). Writes
 * made by another process sharing the store are not seen: an entry is trusted for `maxAgeMs` at
 * most, then read again. The engine of this process does not see those writes before its next
 * start either.
 */
import type { IndexName } from '../model/field-def.ts';

interface Entry {
  readonly spec: string;
  readonly contentHash: string;
  readonly hit: string;
  readonly at: number;
  /** `#tick` when it was added or last moved to the most recent end. */
  stamp: number;
}

/** Default budget: about 60,000 host hits of 1.1 KB (string lengths, i.e. bytes of one-byte strings). */
export const HIT_CACHE_CHARS = 64 * 1024 * 1024;
/** How long a hit is served without reading the store again (writes by other processes). */
export const HIT_CACHE_MAX_AGE_MS = 30_000;

export class HitCache {
  /** Least recently used first (a Map keeps insertion order; a hit is moved to the end). */
  readonly #entries = new Map<string, Entry>();
  #chars = 0;
  #generation = 0;
  /** Counts additions and moves: `#tick - stamp` bounds how many entries are more recent than one. */
  #tick = 0;

  constructor(
    private readonly maxChars = HIT_CACHE_CHARS,
    private readonly maxAgeMs = HIT_CACHE_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Changes whenever anything is forgotten: a read started before a change must not cache what it read. */
  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#entries.size;
  }

  get chars(): number {
    return this.#chars;
  }

  /** The current hit of `id` under `spec`, if held and young enough. */
  get(index: IndexName, id: string, spec: string, now = this.now()): { contentHash: string; hit: string } | undefined {
    const key = keyOf(index, id);
    const e = this.#entries.get(key);
    if (!e) return undefined;
    if (e.spec !== spec || now - e.at > this.maxAgeMs) {
      this.#drop(key, e);
      return undefined;
    }
    // Most recently used last, but only moved once at least half the entries are more recent
    // than it: a move is a Map delete and insert, and moving every hit of every page was most of
    // the 4.6% of a search's CPU that reading the cache took. The order stays close to least recently used: a hit in use is never in
    // the older half for long, and eviction takes from the oldest end.
    if (this.#tick - e.stamp >= this.#entries.size / 2) {
      this.#entries.delete(key);
      this.#entries.set(key, e);
      e.stamp = ++this.#tick;
    }
    return e;
  }

  /** Keeps a hit read from the store, unless something was forgotten since `generation` was read. */
  set(index: IndexName, id: string, spec: string, contentHash: string, hit: string, generation: number, now = this.now()): void {
    if (generation !== this.#generation || hit.length > this.maxChars) return;
    const key = keyOf(index, id);
    const old = this.#entries.get(key);
    if (old) this.#drop(key, old);
    this.#entries.set(key, { spec, contentHash, hit, at: now, stamp: ++this.#tick });
    this.#chars += hit.length;
    for (const [k, e] of this.#entries) {
      if (this.#chars <= this.maxChars) break;
      this.#drop(k, e);
    }
  }

  /** The documents `ids` of `index` were written or removed. */
  forget(index: IndexName, ids: Iterable<string>): void {
    this.#generation++;
    for (const id of ids) {
      const key = keyOf(index, id);
      const e = this.#entries.get(key);
      if (e) this.#drop(key, e);
    }
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
    this.#chars = 0;
  }

  #drop(key: string, e: Entry): void {
    this.#entries.delete(key);
    this.#chars -= e.hit.length;
  }
}

function keyOf(index: IndexName, id: string): string {
  return index === 'hosts' ? id : `c\u0000${id}`;
}
