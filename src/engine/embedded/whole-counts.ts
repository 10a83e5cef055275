/**
 * Aggregations over the whole corpus of an index made of parts, from counts merged over the
 * parts and kept while no part changes: the parts' counterpart of the counts each part keeps
 * for its own whole corpus (live-group-counts.ts).
 *
 * One part answers an aggregation of `*` (or of `not name: *`, the hosts API's `*`) by reading
 * counts it keeps and choosing the best groups, a few microseconds for a field of a few hundred
 * groups. Ten parts each did the same, then exchanged their best groups and candidates with the
 * query thread and merged them: 0.2-0.3 ms, nearly all of it fixed cost (docs/BENCHMARK.md,
 * session 21). Here every group's count is summed by key once, and later aggregations of the
 * same query and field choose their best groups from that table, as one part does from its own.
 *
 * A table is valid while every part holds the same documents, which its stamp tells (each part's
 * index data, units given out and units alive: a write gives out a unit, a removal kills one,
 * a restore or reset replaces the data). It is made only when the same aggregation is asked
 * twice with no change in between, so a server under a steady ingest, whose parts change between
 * most queries, never pays for tables it would drop at once; and only for fields of at most
 * MAX_KEYS distinct values (`ip` or `dns.names` would make tables the size of the index).
 */
import type { AggregateResult } from '../search-engine.ts';
import { keepBest, type Bucket } from '../reference/buckets.ts';
import type { PartGroups } from './aggregate.ts';

/** Every key with a count over the parts, and the sums AggregateResult needs. */
export interface WholeTable {
  readonly keys: readonly string[];
  readonly counts: Float64Array;
  readonly total: number;
  readonly counted: number;
}

/**
 * A number standing for an object in a stamp, the same for the same object. A stamp holding the
 * objects themselves kept a part's replaced data alive: a sealed part's whole in-memory build
 * (gigabytes at a million documents) for as long as the entry stayed in the cache.
 */
const objectNumbers = new WeakMap<object, number>();
let nextNumber = 1;
export function stampNumber(o: object): number {
  let n = objectNumbers.get(o);
  if (n === undefined) objectNumbers.set(o, (n = nextNumber++));
  return n;
}

/** Distinct keys a table may hold; a field with more is merged per query (merge-parts.ts). */
export const MAX_KEYS = 65_536;
/** Tables (and stamps of first asks) kept, least recently used dropped first. */
const KEPT = 32;

interface Entry {
  readonly stamp: readonly number[];
  /** Undefined after a first ask; TOO_MANY when the field has more than MAX_KEYS keys. */
  readonly table: WholeTable | typeof TOO_MANY | undefined;
}

function sameStamp(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The best `numBuckets` keys of a table, in bucket order, as one index chooses them (aggregateField). */
export function bestOf(table: WholeTable, numBuckets: number): AggregateResult {
  const k = Math.max(0, numBuckets);
  const buckets: Bucket[] = [];
  const { keys, counts } = table;
  if (k > 0) {
    for (let i = 0; i < keys.length; i++) {
      const count = counts[i];
      if (buckets.length === k && count < buckets[k - 1].count) continue;
      keepBest(buckets, { key: keys[i], count }, k);
    }
  }
  const shown = buckets.reduce((s, b) => s + b.count, 0);
  return { total: table.total, totalOmitted: table.counted - shown, buckets };
}

/** What a table cannot be made of: more than MAX_KEYS distinct keys. */
export const TOO_MANY = 'too many';

/** Key, count pairs given to sumTable (`add` says false once there are too many keys). */
type Source = (add: (key: string, count: number) => boolean) => void | typeof TOO_MANY;

/** Calls each source with a sink of key, count pairs and sums them by key; undefined past MAX_KEYS keys. */
function sumTable(sources: readonly Source[], total: number, counted: number): WholeTable | undefined {
  const at = new Map<string, number>();
  const keys: string[] = [];
  let sums = new Float64Array(256);
  let tooMany = false;
  const add = (key: string, count: number): boolean => {
    let i = at.get(key);
    if (i === undefined) {
      if (keys.length >= MAX_KEYS) {
        tooMany = true;
        return false;
      }
      i = keys.length;
      at.set(key, i);
      keys.push(key);
      if (i >= sums.length) {
        const grown = new Float64Array(sums.length * 2);
        grown.set(sums);
        sums = grown;
      }
    }
    sums[i] += count;
    return true;
  };
  for (const source of sources) {
    if (source(add) === TOO_MANY || tooMany) return undefined;
  }
  return { keys, counts: sums.subarray(0, keys.length), total, counted };
}

/** A part's groups as a source: partGroups asked for no buckets lists every group with a count as `above`. */
function partSource(g: PartGroups): Source {
  return (add) => {
    // More groups with a count than a table may hold: as many distinct keys, without a string made for each.
    if (g.above.length > MAX_KEYS) return TOO_MANY;
    for (const i of g.above) if (!add(g.keyOf(i), g.counts[i])) return;
  };
}

/** What the query thread sends of the table of its parts (its reply to 'whole'). */
export interface RemoteTable {
  readonly total: number;
  readonly counted: number;
  /** Key, count pairs. */
  readonly pairs: readonly (string | number)[];
}

/** A table as the query thread sends it. */
export function remoteTable(table: WholeTable): RemoteTable {
  const pairs: (string | number)[] = [];
  for (let i = 0; i < table.keys.length; i++) pairs.push(table.keys[i], table.counts[i]);
  return { total: table.total, counted: table.counted, pairs };
}

/**
 * The table of parts' counts (each part's partGroups asked for no buckets) and, when given, of
 * the query thread's parts; undefined when they hold more than MAX_KEYS distinct keys.
 */
export function tableOf(groups: readonly PartGroups[], remote?: RemoteTable): WholeTable | undefined {
  let total = remote?.total ?? 0;
  let counted = remote?.counted ?? 0;
  const sources: Source[] = groups.map((g) => {
    total += g.total;
    counted += g.counted;
    return partSource(g);
  });
  if (remote) {
    const pairs = remote.pairs;
    sources.push((add) => {
      for (let i = 0; i < pairs.length; i += 2) if (!add(pairs[i] as string, pairs[i + 1] as number)) return;
    });
  }
  return sumTable(sources, total, counted);
}

export class WholeCounts {
  private readonly entries = new Map<string, Entry>();

  /**
   * The answer from the table of `key` when `stamp` is the one it was made at. Otherwise
   * undefined, for the caller to merge as usual; and when this is the second ask at the same
   * stamp, the table is made first (`make`: undefined when the field has too many keys or the
   * table could not be made) and answers.
   */
  answer(key: string, stamp: readonly number[], numBuckets: number, make: () => WholeTable | typeof TOO_MANY | undefined): AggregateResult | undefined {
    const entry = this.entries.get(key);
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    let table: WholeTable | typeof TOO_MANY | undefined;
    if (entry && sameStamp(entry.stamp, stamp)) table = entry.table ?? make();
    this.entries.set(key, { stamp, table });
    if (this.entries.size > KEPT) this.entries.delete(this.entries.keys().next().value!);
    return table === undefined || table === TOO_MANY ? undefined : bestOf(table, numBuckets);
  }

  clear(): void {
    this.entries.clear();
  }
}
