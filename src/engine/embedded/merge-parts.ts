/**
 * Answers of a PartedEngine's parts combined into one: a page of hits in the total order, and
 * aggregation buckets from every part's counts. Parts hold disjoint documents, so totals and
 * counts add up exactly.
 */
import type { AggregateResult, SearchHit, SearchRequest, SearchResult } from '../search-engine.ts';
import type { PartGroups } from './aggregate.ts';
import { keepBest, type Bucket } from '../reference/buckets.ts';
import { compareSortValue } from '../reference/sort-position.ts';
import { hitAt, type DocPage } from './search-page.ts';

/**
 * Each part gave the page a single index would give for its own documents (up to `limit` hits
 * after, or before, the cursor, in the total order); the combined page is the first (or last)
 * `limit` of their union, taken from the parts' pages as a merge: `limit` steps of one
 * comparison per part, where sorting the union (up to `limit` times the parts) cost ten times
 * the comparisons with ten parts. The parts' pages are documents (DocPage), and only the combined
 * page's hits are made.
 */
export function mergePages(pages: readonly DocPage[], request: SearchRequest): SearchResult {
  const sort = request.sort ?? [];
  // Sort values, then order keys; these can tie (certificates differing only in case): then ids decide, as in one index.
  const compare = (p: DocPage, a: number, q: DocPage, b: number): number => {
    for (let c = 0; c < sort.length; c++) {
      const r = compareSortValue(p.values![a][c] ?? null, q.values![b][c] ?? null, sort[c].descending);
      if (r !== 0) return r;
    }
    const x = p.data.orderKeys[p.docs[a]];
    const y = q.data.orderKeys[q.docs[b]];
    if (x !== y) return x < y ? -1 : 1;
    const i = p.data.ids[p.docs[a]];
    const j = q.data.ids[q.docs[b]];
    return i < j ? -1 : i > j ? 1 : 0;
  };
  const backwards = request.backwards === true;
  let total = 0;
  let more = false;
  let offered = 0;
  const heads: number[] = [];
  for (const p of pages) {
    total += p.total;
    more ||= p.more;
    offered += p.docs.length;
    heads.push(backwards ? p.docs.length - 1 : 0);
  }
  const limit = Math.max(0, request.limit);
  const hits: SearchHit[] = [];
  while (hits.length < limit) {
    let best = -1;
    for (let i = 0; i < pages.length; i++) {
      const h = heads[i];
      if (h < 0 || h >= pages[i].docs.length) continue;
      if (best < 0) {
        best = i;
        continue;
      }
      const c = compare(pages[i], h, pages[best], heads[best]);
      if (backwards ? c > 0 : c < 0) best = i;
    }
    if (best < 0) break;
    hits.push(hitAt(pages[best], heads[best]));
    heads[best] += backwards ? -1 : 1;
  }
  if (offered > hits.length) more = true;
  if (backwards) hits.reverse();
  return { total, hits, more };
}

/**
 * The keys of groups counting at least `threshold` in some part that `known` lacks, added to it
 * and returned in the order found (step 2 of mergePartGroups; the query thread's too). Only a
 * part's `above` groups can count that much (aggregate.ts, partGroups).
 */
export function candidatesAt(parts: readonly PartGroups[], threshold: number, known: Set<string>): string[] {
  const found: string[] = [];
  for (const p of parts) {
    const counts = p.counts;
    for (const g of p.above) {
      if (counts[g] < threshold) continue;
      const key = p.keyOf(g);
      if (known.has(key)) continue;
      known.add(key);
      found.push(key);
    }
  }
  return found;
}

/** The count of `key` summed over `parts` (step 3 of mergePartGroups; the query thread's too). */
export function countOver(parts: readonly PartGroups[], key: string): number {
  let sum = 0;
  for (const p of parts) {
    const g = p.groupOf(key);
    if (g !== undefined) sum += p.counts[g];
  }
  return sum;
}

/**
 * Parts searched by the query thread (query-thread.ts), taken as a whole: their totals, the keys
 * of their parts' best groups with their counts there summed, as key, count pairs (lower bounds
 * as each part's best are), and how many parts they are; `ask` then sends the
 * thread, once, the threshold and this thread's candidates, and `answer` waits for its own
 * candidates and its counts of every candidate (the given keys, then its own), summed over its
 * parts: this thread sums its parts' counts in between.
 */
export interface RemoteGroups {
  readonly total: number;
  readonly counted: number;
  readonly parts: number;
  readonly best: readonly (string | number)[];
  ask(threshold: number, keys: readonly string[]): void;
  answer(): Map<string, number>;
}

/**
 * The best `numBuckets` keys over every part, exactly as one index would choose them, without
 * looking at every key of every part:
 * 1. each part's best `numBuckets` groups by count give lower bounds of their keys' totals, and
 *    the `numBuckets`-th best of those bounds, L, is at most the count a key needs to be chosen;
 * 2. a key whose total reaches L has at least L / parts in some part: only groups with that
 *    much anywhere are candidates;
 * 3. each candidate's total is summed over every part (its group looked up by key), and the best
 *    are kept in bucket order.
 * Parts searched by the query thread take part as `remote` (see RemoteGroups): their best
 * groups count toward the bounds, the threshold divides by every part, theirs included, and
 * one exchange gives their candidates and their counts of every candidate.
 * A part's key strings and key → group map are made once per view (aggregate.ts); an aggregation
 * over `services.port` made one string per port of every part on every call before (22x one
 * part's time with two parts of 320,000 hosts).
 */
export function mergePartGroups(parts: readonly PartGroups[], numBuckets: number, remote?: RemoteGroups): AggregateResult {
  let total = remote?.total ?? 0;
  let counted = remote?.counted ?? 0;
  for (const p of parts) {
    total += p.total;
    counted += p.counted;
  }
  const k = Math.max(0, numBuckets);
  const buckets: Bucket[] = [];
  if (k > 0 && counted > 0) {
    const lower = new Map<string, number>();
    for (const p of parts) {
      for (const g of p.best) {
        const key = p.keyOf(g);
        lower.set(key, (lower.get(key) ?? 0) + p.counts[g]);
      }
    }
    const best = remote?.best ?? [];
    for (let i = 0; i < best.length; i += 2) {
      const key = best[i] as string;
      lower.set(key, (lower.get(key) ?? 0) + (best[i + 1] as number));
    }
    const bounds = [...lower.values()].sort((a, b) => b - a);
    const threshold = Math.max(1, bounds.length >= k ? bounds[k - 1] / (parts.length + (remote?.parts ?? 0)) : 0);
    const candidates = candidatesAt(parts, threshold, new Set<string>());
    // The remote parts' candidates, and their counts of every candidate, in one exchange, while
    // this thread sums its own parts' counts.
    remote?.ask(threshold, candidates);
    const sums = new Map<string, number>();
    for (const key of candidates) sums.set(key, countOver(parts, key));
    if (remote) for (const [key, there] of remote.answer()) sums.set(key, (sums.get(key) ?? countOver(parts, key)) + there);
    for (const [key, count] of sums) keepBest(buckets, { key, count }, k);
  }
  const shown = buckets.reduce((s, b) => s + b.count, 0);
  return { total, totalOmitted: counted - shown, buckets };
}
