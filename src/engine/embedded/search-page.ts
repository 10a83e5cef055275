/**
 * One page of hits in the total order (sort values, then order key), continuing strictly after
 * or before a cursor position. Without a sort the order index decides: its blocks are
 * intersected with the match in order, or every match is ranked when matches are few. With a
 * sort, each candidate's sort values become integer ranks, so no strings are compared while sorting.
 */
import type { FieldCatalogue } from '../../model/field-def.ts';
import type { SearchHit, SearchRequest, SearchResult } from '../search-engine.ts';
import { cursorValue } from '../reference/sort-position.ts';
import { release, RoaringBitmap32, type Bitmap } from './bitmap.ts';
import type { IndexData } from './index-data.ts';
import { ORDER_BLOCK, ORDER_SHIFT } from './order-index.ts';
import { SortColumn } from './sort-column.ts';

/**
 * How many matches one pass over them costs as much as testing one order block that holds none
 * (measured at 1M hosts on Node 20): a block is a native intersection (7-8 µs when empty),
 * a pass a random read of each match's position (about 4 ns).
 */
const COUNTS_PER_BLOCK = 1750;

/**
 * Scratch arrays reused by every page: a typed array of fresh memory costs 2-20 µs to allocate
 * here (and about 390 µs for 256 KB), more than the work most pages do with it. Pages are made
 * synchronously, one at a time per thread, so one set serves all of them.
 */
const scratch = { marks: new Uint8Array(ORDER_BLOCK), counts: new Uint32Array(0), docs: new Uint32Array(0) };

/** The match's documents, ascending, in the scratch array (valid until the next call). */
function docsOf(match: Bitmap): Uint32Array {
  const n = match.size;
  if (scratch.docs.length < n) scratch.docs = new Uint32Array(Math.max(n, 2 * scratch.docs.length));
  return n === 0 ? scratch.docs.subarray(0, 0) : match.toUint32Array(scratch.docs);
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The sort values of an unsorted page's hits: none, one array for all of them. */
const NO_VALUES: readonly (string | number | null)[] = Object.freeze([]);

/**
 * A hit, built from empty object literals on purpose: a literal with properties has an
 * allocation site, and V8 allocates straight into the old generation from a site whose objects
 * it saw survive. Over parts they do (a part's page waits while the next parts are searched), so
 * every hit went to the old generation, which filled and was collected whole: seconds over a
 * 5 GB heap (docs/ARCHITECTURE.md, "Hits are not pretenured").
 */
function hitOf(data: PageData, doc: number, values: readonly (string | number | null)[]): SearchHit {
  const position = {} as Mutable<SearchHit['position']>;
  position.values = values;
  position.orderKey = data.orderKeys[doc];
  const hit = {} as Mutable<SearchHit>;
  hit.id = data.ids[doc];
  hit.position = position;
  return hit;
}

/** How unsorted pages find their hits: walking the order index block by block, ranking every match, or by density. */
export type PageStrategy = 'auto' | 'walk' | 'rank';

function walks(strategy: PageStrategy, total: number, size: number, want: number): boolean {
  if (strategy !== 'auto') return strategy === 'walk';
  // Blocks needed for `want` hits when matches are spread evenly over the order.
  const blocks = (want * size) / (Math.max(total, 1) * ORDER_BLOCK);
  return blocks * COUNTS_PER_BLOCK < total;
}

/**
 * Marks the positions of block `k` holding matches in `marks` and returns how many there are
 * (`marks` is cleared first only when there are some). Marking and scanning the block orders its
 * hits without a sort, which costs far more per hit than a scan per position.
 */
function markBlock(data: IndexData, match: Bitmap, k: number, marks: Uint8Array): number {
  const base = k * ORDER_BLOCK;
  const rank = data.order.rank;
  const inBlock = RoaringBitmap32.and(match, data.order.block(k));
  const hits = inBlock.isEmpty ? undefined : docsOf(inBlock);
  release(inBlock);
  if (hits === undefined) return 0;
  marks.fill(0);
  for (let i = 0; i < hits.length; i++) marks[rank[hits[i]] - base] = 1;
  return hits.length;
}

/** Up to `want` matches at positions >= from, in order. */
function firstFrom(data: IndexData, match: Bitmap, from: number, want: number, walk: boolean): number[] {
  if (!walk) return byBlockCounts(data, match, from, want, true);
  const { ordered } = data.order;
  const picked: number[] = [];
  const marks = scratch.marks;
  let empty = 0;
  const jumpAfter = emptyBlocksBeforeJump(match);
  for (let k = Math.floor(from / ORDER_BLOCK); k * ORDER_BLOCK < ordered.length && picked.length < want; k++) {
    const base = k * ORDER_BLOCK;
    if (markBlock(data, match, k, marks) === 0) {
      if (++empty === jumpAfter) k = (nearestRank(data.order.rank, match, base + ORDER_BLOCK, true) >>> ORDER_SHIFT) - 1;
      continue;
    }
    const end = Math.min(ORDER_BLOCK, ordered.length - base);
    for (let p = Math.max(0, from - base); p < end && picked.length < want; p++) if (marks[p] === 1) picked.push(ordered[base + p]);
  }
  return picked;
}

/**
 * Empty blocks a page walks before it jumps (nearestRank) to the nearest match. Matches may sit
 * together far along the order (a CIDR, hosts being ordered by address): testing every block
 * before them cost a /8's page about 1 ms at a million hosts. But the jump is one pass over all
 * the matches, and an empty block costs about as much as COUNTS_PER_BLOCK of them, so the walk
 * jumps once the empty blocks have cost about what the jump will (never more than twice the
 * better of the two): matches that sit together a few blocks on are found by walking.
 */
function emptyBlocksBeforeJump(match: Bitmap): number {
  return 2 + Math.ceil(match.size / COUNTS_PER_BLOCK);
}

/** The lowest rank of `match` at or past `bound` (forward; `rank.length` when none), or the highest below it (backward; -1 when none). */
function nearestRank(rank: Int32Array, match: Bitmap, bound: number, forward: boolean): number {
  const docs = docsOf(match);
  let best = forward ? rank.length : -1;
  for (let i = 0; i < docs.length; i++) {
    const r = rank[docs[i]];
    if (forward ? r >= bound && r < best : r < bound && r > best) best = r;
  }
  return best;
}

/**
 * Up to `want` matches in order at positions >= `bound` (forward), or in reverse order at
 * positions < `bound` (backward), from one pass over the matches: their positions are counted
 * per order block, and only those in the blocks that hold the page are looked at again. Linear in
 * the matches with no sort, where ranking and sorting every match cost over 100 ns each.
 */
function byBlockCounts(data: IndexData, match: Bitmap, bound: number, want: number, forward: boolean): number[] {
  const { ordered, rank } = data.order;
  const positions = docsOf(match);
  const blocks = Math.ceil(ordered.length / ORDER_BLOCK);
  if (scratch.counts.length < blocks) scratch.counts = new Uint32Array(blocks);
  const counts = scratch.counts;
  counts.fill(0, 0, blocks);
  let n = 0;
  for (let i = 0; i < positions.length; i++) {
    const r = rank[positions[i]];
    if (r >= 0 && (forward ? r >= bound : r < bound)) {
      positions[n++] = r;
      counts[r >>> ORDER_SHIFT]++;
    }
  }
  // The page ends in block `last`: the blocks before it (in page order) hold fewer than `want`.
  let last = -1;
  let before = 0;
  for (let b = forward ? 0 : blocks - 1; forward ? b < blocks : b >= 0; b += forward ? 1 : -1) {
    const c = counts[b];
    if (c === 0) continue;
    if (before + c >= want) {
      last = b;
      break;
    }
    before += c;
  }
  const picked: number[] = [];
  // Fewer than `want` (a page): a small array.
  const earlier = new Array<number>(before);
  const marks = last < 0 ? undefined : scratch.marks.fill(0);
  const lastBase = last * ORDER_BLOCK;
  let e = 0;
  for (let i = 0; i < n; i++) {
    const r = positions[i];
    const b = r >>> ORDER_SHIFT;
    if (b === last) marks![r - lastBase] = 1;
    else if (last < 0 || (forward ? b < last : b > last)) earlier[e++] = r;
  }
  earlier.sort((a, b) => a - b);
  if (forward) for (let i = 0; i < e; i++) picked.push(ordered[earlier[i]]);
  else for (let i = e - 1; i >= 0; i--) picked.push(ordered[earlier[i]]);
  if (marks) {
    const end = Math.min(ORDER_BLOCK, ordered.length - lastBase);
    if (forward) {
      for (let p = 0; p < end && picked.length < want; p++) if (marks[p] === 1) picked.push(ordered[lastBase + p]);
    } else {
      for (let p = end - 1; p >= 0 && picked.length < want; p--) if (marks[p] === 1) picked.push(ordered[lastBase + p]);
    }
  }
  return picked;
}

/** Up to `want` matches at positions < to, in reverse order. */
function lastBefore(data: IndexData, match: Bitmap, to: number, want: number, walk: boolean): number[] {
  if (!walk) return byBlockCounts(data, match, to, want, false);
  const { ordered } = data.order;
  const picked: number[] = [];
  const marks = scratch.marks;
  let empty = 0;
  const jumpAfter = emptyBlocksBeforeJump(match);
  for (let k = Math.floor((to - 1) / ORDER_BLOCK); k >= 0 && picked.length < want; k--) {
    const base = k * ORDER_BLOCK;
    if (markBlock(data, match, k, marks) === 0) {
      // Floor of -1 / ORDER_BLOCK is -1: the loop ends when nothing is left below.
      if (++empty === jumpAfter) k = Math.floor(nearestRank(data.order.rank, match, base, false) / ORDER_BLOCK) + 1;
      continue;
    }
    for (let p = Math.min(ORDER_BLOCK, to - base) - 1; p >= 0 && picked.length < want; p--) if (marks[p] === 1) picked.push(ordered[base + p]);
  }
  return picked;
}

function unsortedPage(data: IndexData, match: Bitmap, request: SearchRequest, strategy: PageStrategy): DocPage {
  const total = match.size;
  const limit = Math.max(0, request.limit);
  const after = request.after;
  const walk = walks(strategy, total, data.order.ordered.length, limit + 1);
  // One more than the page tells whether there are more.
  const picked = request.backwards
    ? lastBefore(data, match, after ? data.order.bound(after.orderKey, false) : data.order.ordered.length, limit + 1, walk)
    : firstFrom(data, match, after ? data.order.bound(after.orderKey, true) : 0, limit + 1, walk);
  const more = picked.length > limit;
  if (more) picked.length = limit;
  if (request.backwards) picked.reverse();
  return { data, total, docs: picked, values: undefined, more };
}

/**
 * The `k` smallest of distinct `values`, ascending. A bounded max-heap rejects most values with
 * one comparison, where sorting them all costs over 100 ns per value.
 */
function smallest(values: Float64Array, k: number): Float64Array {
  if (values.length <= 4 * k) return values.sort().subarray(0, Math.min(k, values.length));
  const heap = new Float64Array(k);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (n < k) {
      let c = n++;
      while (c > 0) {
        const parent = (c - 1) >> 1;
        if (heap[parent] >= v) break;
        heap[c] = heap[parent];
        c = parent;
      }
      heap[c] = v;
    } else if (v < heap[0]) {
      let c = 0;
      for (;;) {
        let child = 2 * c + 1;
        if (child >= k) break;
        if (child + 1 < k && heap[child + 1] > heap[child]) child++;
        if (heap[child] <= v) break;
        heap[c] = heap[child];
        c = child;
      }
      heap[c] = v;
    }
  }
  return heap.sort();
}

/** Index of `doc` in ascending `docs`, which holds it. */
function indexOf(docs: Uint32Array, doc: number): number {
  let lo = 0;
  let hi = docs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < doc) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function sortedPage(data: IndexData, catalogue: FieldCatalogue, match: Bitmap, request: SearchRequest): DocPage {
  const sort = request.sort!;
  const columns = sort.map((s) => new SortColumn(data, catalogue.get(s.field)));
  const { rank } = data.order;
  const n = columns.length;
  const docs = match.toUint32Array();
  const groups = new Int32Array(docs.length * n);
  const keys = new Float64Array(docs.length * n);
  const firstGroups = columns.map((col) => col.groupsOf(docs));
  for (let i = 0; i < docs.length; i++) {
    for (let c = 0; c < n; c++) {
      const col = columns[c];
      const g = firstGroups[c][i];
      groups[i * n + c] = g;
      const r = col.rankOf(g);
      keys[i * n + c] = g < 0 || !sort[c].descending ? r : col.groups - 1 - r;
    }
  }
  const after = request.after;
  let cursorKeys: number[] | undefined;
  if (after) {
    cursorKeys = columns.map((col, c) => {
      const r = col.cursorRank(cursorValue(col.field?.type, after.values[c]));
      return r >= col.groups || !sort[c].descending ? r : col.groups - 1 - r;
    });
  }
  const versusCursor = (i: number): number => {
    for (let c = 0; c < n; c++) {
      const d = keys[i * n + c] - cursorKeys![c];
      if (d !== 0) return d;
    }
    const a = data.orderKeys[docs[i]];
    const b = after!.orderKey;
    return a < b ? -1 : a > b ? 1 : 0;
  };
  const chosen: number[] = [];
  for (let i = 0; i < docs.length; i++) {
    if (!after || (request.backwards ? versusCursor(i) < 0 : versusCursor(i) > 0)) chosen.push(i);
  }
  const limit = Math.max(0, request.limit);
  let sorted: number[];
  if (n === 1) {
    // One sort field: (rank of value, rank of document) packed into one number sorts natively.
    const { ordered } = data.order;
    const size = ordered.length;
    // Backwards pages are the last in order: the smallest negated keys, read back reversed.
    const sign = request.backwards ? -1 : 1;
    const packed = new Float64Array(chosen.length);
    for (let j = 0; j < chosen.length; j++) {
      const i = chosen[j];
      packed[j] = sign * (keys[i] * size + rank[docs[i]]);
    }
    sorted = [];
    // Back from rank to index in `docs` (ascending) by binary search, for the page only: a
    // rank → index table would cost an array as large as the index on every query.
    for (const v of smallest(packed, limit)) sorted.push(indexOf(docs, ordered[(sign * v) % size]));
    if (request.backwards) sorted.reverse();
  } else {
    chosen.sort((x, y) => {
      for (let c = 0; c < n; c++) {
        const d = keys[x * n + c] - keys[y * n + c];
        if (d !== 0) return d;
      }
      return rank[docs[x]] - rank[docs[y]];
    });
    sorted = request.backwards ? chosen.slice(Math.max(0, chosen.length - limit)) : chosen.slice(0, limit);
  }
  return {
    data,
    total: docs.length,
    docs: sorted.map((i) => docs[i]),
    values: sorted.map((i) => columns.map((col, c) => col.positionOf(groups[i * n + c]))),
    more: chosen.length > limit,
  };
}

/** What a page's hits are made from: an index's ids and order keys, or a query thread's page (query-thread.ts). */
export type PageData = Pick<IndexData, 'ids' | 'orderKeys'>;

/**
 * A page of one index before its hits are made: its documents in page order and, for a sorted
 * page, their sort values. A PartedEngine merges its parts' pages as these and makes the hits of
 * the combined page only (merge-parts.ts), not every part's: a part's hits were all kept alive
 * until the merge, which is what made V8 pretenure them (see hitOf).
 */
export interface DocPage {
  readonly data: PageData;
  readonly total: number;
  readonly more: boolean;
  readonly docs: readonly number[];
  /** Per document, its sort values; undefined for an unsorted page. */
  readonly values: readonly (readonly (string | number | null)[])[] | undefined;
}

/** The hit of document `i` of `page`. */
export function hitAt(page: DocPage, i: number): SearchHit {
  return hitOf(page.data, page.docs[i], page.values ? page.values[i] : NO_VALUES);
}

export function searchPage(
  data: IndexData,
  catalogue: FieldCatalogue,
  match: Bitmap,
  request: SearchRequest,
  strategy: PageStrategy = 'auto',
): SearchResult {
  const page = docPage(data, catalogue, match, request, strategy);
  return { total: page.total, hits: page.docs.map((_, i) => hitAt(page, i)), more: page.more };
}

export function docPage(
  data: IndexData,
  catalogue: FieldCatalogue,
  match: Bitmap,
  request: SearchRequest,
  strategy: PageStrategy = 'auto',
): DocPage {
  data.order.ensure(data.docs);
  return request.sort && request.sort.length > 0
    ? sortedPage(data, catalogue, match, request)
    : unsortedPage(data, match, request, strategy);
}
