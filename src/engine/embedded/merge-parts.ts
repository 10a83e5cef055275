/**
 * Answers of a PartedEngine's parts combined into one: a page of hits in the total order, and
 * aggregation buckets from every part's counts. Parts hold disjoint documents, so totals and
 * counts add up exactly.
 */
import type { AggregateResult, SearchRequest, SearchResult } from '../search-engine.ts';
import { keepBest, type Bucket } from '../reference/buckets.ts';
import { comparePositions } from '../reference/sort-position.ts';

/**
 * Each part gave the page a single index would give for its own documents (up to `limit` hits
 * after, or before, the cursor); the combined page is the first (or last) `limit` of their union
 * in the total order.
 */
export function mergePages(results: readonly SearchResult[], request: SearchRequest): SearchResult {
  const sort = request.sort ?? [];
  let total = 0;
  let more = false;
  const hits = [];
  for (const r of results) {
    total += r.total;
    more ||= r.more;
    hits.push(...r.hits);
  }
  // Order keys can tie (certificates differing only in case): then ids decide, as in one index.
  hits.sort((a, b) => comparePositions(a.position, b.position, sort) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (hits.length > request.limit) more = true;
  const page = request.backwards ? hits.slice(Math.max(0, hits.length - request.limit)) : hits.slice(0, request.limit);
  return { total, hits: page, more };
}

/** One part's counts per key (see EmbeddedEngine.groupCounts). */
export interface PartCounts {
  readonly total: number;
  readonly keys: readonly string[];
  readonly counts: readonly number[];
}

/**
 * Sums every part's counts per key, then keeps the best `numBuckets` (count descending, key
 * ascending) as a single index does: a key's place overall cannot be told from any part's own
 * top buckets.
 */
export function mergeGroupCounts(parts: readonly PartCounts[], numBuckets: number): AggregateResult {
  let total = 0;
  let counted = 0;
  const sums = new Map<string, number>();
  for (const p of parts) {
    total += p.total;
    for (let i = 0; i < p.keys.length; i++) {
      const k = p.keys[i];
      const c = p.counts[i];
      counted += c;
      sums.set(k, (sums.get(k) ?? 0) + c);
    }
  }
  const k = Math.max(0, numBuckets);
  const buckets: Bucket[] = [];
  for (const [key, count] of sums) keepBest(buckets, { key, count }, k);
  const shown = buckets.reduce((s, b) => s + b.count, 0);
  return { total, totalOmitted: counted - shown, buckets };
}
