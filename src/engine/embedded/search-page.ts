/**
 * One page of hits in the total order (sort values, then order key), continuing strictly after
 * or before a cursor position. Without a sort the order index's ranks decide; with a sort, each
 * candidate's sort values become integer ranks, so no strings are compared while sorting.
 */
import type { FieldCatalogue } from '../../model/field-def.ts';
import type { SearchHit, SearchRequest, SearchResult } from '../search-engine.ts';
import { cursorValue } from '../reference/sort-position.ts';
import type { Bitmap } from './bitmap.ts';
import type { IndexData } from './index-data.ts';
import { SortColumn } from './sort-column.ts';

/** How far to walk the order index looking for matches before ranking all matches instead. */
const WALK_BUDGET = 64;

function hitOf(data: IndexData, doc: number, values: (string | number | null)[]): SearchHit {
  return { id: data.ids[doc], position: { values, orderKey: data.orderKeys[doc] } };
}

/** How unsorted pages find their hits: walking the order index, ranking every match, or by density. */
export type PageStrategy = 'auto' | 'walk' | 'rank';

function walkBudget(strategy: PageStrategy, total: number, size: number, limit: number): number {
  if (strategy === 'walk') return Infinity;
  if (strategy === 'rank') return 0;
  return total * WALK_BUDGET >= size ? WALK_BUDGET * (limit + 1) + 1024 : 0;
}

function unsortedPage(data: IndexData, match: Bitmap, request: SearchRequest, strategy: PageStrategy): SearchResult {
  const { ordered, rank } = data.order;
  const total = match.size;
  const limit = Math.max(0, request.limit);
  const after = request.after;
  const picked: number[] = [];
  let more = false;
  if (!request.backwards) {
    const from = after ? data.order.bound(after.orderKey, true) : 0;
    // Dense matches: walk the order and test membership; sparse ones: rank every match.
    let budget = walkBudget(strategy, total, ordered.length, limit);
    let p = from;
    for (; p < ordered.length && budget > 0 && picked.length <= limit; p++, budget--) {
      if (match.has(ordered[p])) picked.push(ordered[p]);
    }
    if (picked.length <= limit && p < ordered.length) {
      const ranks = Int32Array.from(match.toUint32Array(), (d) => rank[d]).filter((r) => r >= from).sort();
      picked.length = 0;
      for (let i = 0; i < ranks.length && i <= limit; i++) picked.push(ordered[ranks[i]]);
    }
    more = picked.length > limit;
    if (more) picked.length = limit;
  } else {
    const to = after ? data.order.bound(after.orderKey, false) : ordered.length;
    let budget = walkBudget(strategy, total, ordered.length, limit);
    let p = to - 1;
    for (; p >= 0 && budget > 0 && picked.length <= limit; p--, budget--) {
      if (match.has(ordered[p])) picked.push(ordered[p]);
    }
    if (picked.length <= limit && p >= 0) {
      const ranks = Int32Array.from(match.toUint32Array(), (d) => rank[d]).filter((r) => r < to).sort();
      picked.length = 0;
      for (let i = ranks.length - 1; i >= 0 && picked.length <= limit; i--) picked.push(ordered[ranks[i]]);
    }
    more = picked.length > limit;
    if (more) picked.length = limit;
    picked.reverse();
  }
  return { total, hits: picked.map((d) => hitOf(data, d, [])), more };
}

function sortedPage(data: IndexData, catalogue: FieldCatalogue, match: Bitmap, request: SearchRequest): SearchResult {
  const sort = request.sort!;
  const columns = sort.map((s) => new SortColumn(data, catalogue, catalogue.get(s.field)));
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
    const size = data.order.ordered.length;
    const packed = new Float64Array(chosen.length);
    const at = new Int32Array(size);
    for (let j = 0; j < chosen.length; j++) {
      const i = chosen[j];
      const r = rank[docs[i]];
      at[r] = i;
      packed[j] = keys[i] * size + r;
    }
    packed.sort();
    const from = request.backwards ? Math.max(0, packed.length - limit) : 0;
    const to = request.backwards ? packed.length : Math.min(packed.length, limit);
    sorted = [];
    for (let j = from; j < to; j++) sorted.push(at[packed[j] % size]);
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
  const page = sorted;
  const hits = page.map((i) => {
    const values = columns.map((col, c) => col.positionOf(groups[i * n + c]));
    return hitOf(data, docs[i], values);
  });
  return { total: docs.length, hits, more: chosen.length > limit };
}

export function searchPage(
  data: IndexData,
  catalogue: FieldCatalogue,
  match: Bitmap,
  request: SearchRequest,
  strategy: PageStrategy = 'auto',
): SearchResult {
  data.order.ensure(data.docs);
  return request.sort && request.sort.length > 0
    ? sortedPage(data, catalogue, match, request)
    : unsortedPage(data, match, request, strategy);
}
