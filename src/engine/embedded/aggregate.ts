/**
 * Term counts of one field over the units (documents, or elements of matching documents for a
 * nested field) of a query. Two exact strategies: with few distinct values, intersect each
 * value's postings with the units; with many, walk the units' entries in the forward column.
 * A unit counts once per distinct typed value (see engine/search-engine.ts).
 */
import type { FieldDef } from '../../model/field-def.ts';
import type { AggregateResult } from '../search-engine.ts';
import { relativePath } from '../../model/values-of.ts';
import { nestedRootOf } from '../reference/nested-root.ts';
import { keyString } from '../reference/typed-value.ts';
import { compareBuckets, type Bucket } from '../reference/buckets.ts';
import type { Bitmap } from './bitmap.ts';
import type { IndexData } from './index-data.ts';
import { maskOf } from './posting-table.ts';
import type { Slot } from './slot.ts';
import type { TypedView } from './typed-view.ts';

export type AggregateStrategy = 'auto' | 'postings' | 'columns';

interface Counts {
  readonly perGroup: Float64Array;
  readonly total: number;
}

function byPostings(slot: Slot, view: TypedView, units: Bitmap, unitCount: number): Counts {
  const perGroup = new Float64Array(view.groupKey.length);
  const mask = maskOf(units, unitCount);
  const ords: number[] = [];
  for (let g = 0; g < perGroup.length; g++) {
    const o = view.groupOrds[g];
    if (typeof o === 'number') {
      perGroup[g] = slot.postings.countIn(o, units, mask);
      ords.push(o);
    } else {
      perGroup[g] = slot.postings.union(o).andCardinality(units);
      ords.push(...o);
    }
  }
  const total = perGroup.some((c) => c > 0) ? slot.postings.union(ords).andCardinality(units) : 0;
  return { perGroup, total };
}

function byColumns(slot: Slot, view: TypedView, units: Bitmap): Counts {
  const perGroup = new Float64Array(view.groupKey.length);
  const lastUnit = new Int32Array(perGroup.length).fill(-1);
  const ids = units.toUint32Array();
  const fwdUnit = slot.fwdUnit.data;
  const fwdOrd = slot.fwdOrd.data;
  const entries = slot.fwdUnit.length;
  const ordGroup = view.ordGroup;
  let total = 0;
  // Merge-walk when the units cover much of the column, binary search per unit otherwise.
  const merge = ids.length * 16 > entries;
  let j = 0;
  for (const u of ids) {
    if (merge) {
      while (j < entries && fwdUnit[j] < u) j++;
    } else {
      j = slot.fwdUnit.lowerBound(u);
    }
    let counted = false;
    for (; j < entries && fwdUnit[j] === u; j++) {
      const g = ordGroup[fwdOrd[j]];
      if (g < 0 || lastUnit[g] === u) continue;
      lastUnit[g] = u;
      perGroup[g]++;
      counted = true;
    }
    if (counted) total++;
  }
  return { perGroup, total };
}

export function aggregateField(
  data: IndexData,
  match: Bitmap,
  field: FieldDef | undefined,
  numBuckets: number,
  strategy: AggregateStrategy,
): AggregateResult {
  const none = { total: 0, totalOmitted: 0, buckets: [] };
  if (!field) return none;
  const root = nestedRootOf(data.catalogue, field.docPath);
  let slot: Slot | undefined;
  let units: Bitmap;
  let unitCount: number;
  if (root === undefined) {
    slot = data.docs.slots.get(field.docPath);
    units = match;
    unitCount = data.docs.idCount;
  } else {
    const part = data.nested.get(root);
    if (!part) return none;
    slot = part.scope.slots.get(field.docPath === root ? '' : relativePath(field.docPath, root));
    // Every element of a matching document, whether or not it matched the query itself (all of
    // them when every document matches: the shared live set, only read below).
    units = match.size === data.docs.liveCount ? part.realLive() : part.elemsOf(match).andInPlace(part.realLive());
    unitCount = part.scope.idCount;
  }
  if (!slot || units.isEmpty) return none;
  const view = slot.view(field.type);
  const groups = view.groupKey.length;
  const usePostings = strategy === 'postings' || (strategy === 'auto' && groups * 4 < units.size);
  const { perGroup, total } = usePostings ? byPostings(slot, view, units, unitCount) : byColumns(slot, view, units);
  // Keep only the best numBuckets while scanning: key strings are made only for groups whose
  // count can still enter, and nothing is sorted beyond the kept buckets.
  const k = Math.max(0, numBuckets);
  const buckets: Bucket[] = [];
  let counted = 0;
  for (let g = 0; g < groups; g++) {
    const count = perGroup[g];
    if (count === 0) continue;
    counted += count;
    if (k === 0 || (buckets.length === k && count < buckets[k - 1].count)) continue;
    const b = { key: keyString(field.type, view.groupKey[g]), count };
    if (buckets.length === k && compareBuckets(b, buckets[k - 1]) >= 0) continue;
    let lo = 0;
    let hi = buckets.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareBuckets(buckets[mid], b) < 0) lo = mid + 1;
      else hi = mid;
    }
    buckets.splice(lo, 0, b);
    if (buckets.length > k) buckets.pop();
  }
  const shown = buckets.reduce((s, b) => s + b.count, 0);
  return { total, totalOmitted: counted - shown, buckets };
}
