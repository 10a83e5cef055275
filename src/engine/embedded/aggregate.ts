/**
 * Term counts of one field over the units (documents, or elements of matching documents for a
 * nested field) of a query. A unit counts once per distinct typed value (see
 * engine/search-engine.ts). Exact strategies: over the whole corpus, counts kept per slot and
 * caught up as documents arrive (live-group-counts.ts); over some documents, their units' groups
 * read one by one (unit-groups.ts: a document's elements are a range of ids, so no bitmap of the
 * units is built), or, when most documents match, the kept counts less the other documents'; or,
 * forced for tests, each group's postings intersected with the units.
 */
import type { FieldDef } from '../../model/field-def.ts';
import type { AggregateResult } from '../search-engine.ts';
import { keyString } from '../reference/typed-value.ts';
import { keepBest, type Bucket } from '../reference/buckets.ts';
import { release, RoaringBitmap32, type Bitmap } from './bitmap.ts';
import type { IndexData, NestedPart } from './index-data.ts';
import { liveGroupCounts } from './live-group-counts.ts';
import { maskOf } from './posting-table.ts';
import type { Scope } from './scope.ts';
import type { Slot } from './slot.ts';
import type { TypedView } from './typed-view.ts';
import { firstEntry, NO_GROUP, unitGroups } from './unit-groups.ts';

/** 'auto' picks per query; 'columns' always reads unit groups, 'postings' always intersects postings. */
export type AggregateStrategy = 'auto' | 'postings' | 'columns';

interface Counts {
  readonly perGroup: Float64Array;
  readonly total: number;
  /** Counts to take from `perGroup` (shorter when groups were added since): read, not subtracted into a copy. */
  readonly minus?: Float64Array;
}

function byPostings(slot: Slot, view: TypedView, units: Bitmap, unitCount: number): Counts {
  const perGroup = new Float64Array(view.groups);
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

/**
 * Counts the groups of the live units of `docs`: the documents themselves when `part` is
 * undefined, else their elements except `skip` (ascending ids left out: pseudo-elements).
 */
function byUnits(slot: Slot, view: TypedView, scope: Scope, docs: Uint32Array, part: NestedPart | undefined, skip: Uint32Array): Counts {
  const groups = view.groups;
  const perGroup = new Float64Array(groups);
  const lastUnit = new Int32Array(groups).fill(-1);
  const of = unitGroups(slot, view, scope.idCount).of;
  const fwdUnit = slot.fwdUnit.data;
  const fwdOrd = slot.fwdOrd.data;
  const entries = slot.fwdUnit.length;
  const ordGroup = view.ordGroup;
  const alive = scope.alive;
  const start = part?.start.data;
  const count = part?.count.data;
  const known = part ? part.start.length : scope.idCount;
  let total = 0;
  let s = 0;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    if (d >= known) break;
    const lo = start ? start[d] : d;
    const hi = count ? lo + count[d] : d + 1;
    for (let u = lo; u < hi; u++) {
      const v = of[u];
      if (v === NO_GROUP || alive[u] !== 1) continue;
      if (s < skip.length && skip[s] <= u) {
        while (s < skip.length && skip[s] < u) s++;
        if (skip[s] === u) continue;
      }
      if (v >= 0) {
        perGroup[v]++;
        total++;
        continue;
      }
      let counted = false;
      for (let j = firstEntry(v); j < entries && fwdUnit[j] === u; j++) {
        const g = ordGroup[fwdOrd[j]];
        if (g < 0 || lastUnit[g] === u) continue;
        lastUnit[g] = u;
        perGroup[g]++;
        counted = true;
      }
      if (counted) total++;
    }
  }
  return { perGroup, total };
}

/**
 * The last counts of the documents left out by a query that matches most of them, per slot and
 * type. Nearly every hosts query leaves out the same documents — the default
 * `virtual_hosts: EXCLUDE` is `and not name: *` — and counting their units again took 0.5 ms
 * per request at 200k hosts (10,600 virtual hosts), growing with them. The counts
 * stay exact while the same documents are left out: those documents are all live (they come
 * from the live set), a document's units and their values never change once appended, and a
 * group keeps its number as the view grows. Compaction and restores replace the column.
 */
interface LeftOutCounts {
  readonly docs: Bitmap;
  readonly column: Slot['fwdUnit'];
  readonly counts: Counts;
}

const leftOut = new WeakMap<Slot, Map<TypedView, LeftOutCounts[]>>();
/** Left-out sets kept per slot and view (queries that alternate), most recently used first. */
const LEFT_OUT_KEPT = 4;

function leftOutCounts(slot: Slot, view: TypedView, scope: Scope, docs: Bitmap, part: NestedPart | undefined, skip: Uint32Array): Counts {
  let byView = leftOut.get(slot);
  if (!byView) leftOut.set(slot, (byView = new Map()));
  const kept = (byView.get(view) ?? []).filter((k) => k.column === slot.fwdUnit);
  const i = kept.findIndex((k) => k.docs.size === docs.size && k.docs.isEqual(docs));
  const found = i >= 0 ? kept.splice(i, 1)[0] : undefined;
  if (found) release(docs);
  const counts = found ? found.counts : byUnits(slot, view, scope, docs.toUint32Array(), part, skip);
  kept.unshift(found ?? { docs, column: slot.fwdUnit, counts });
  byView.set(view, kept.slice(0, LEFT_OUT_KEPT));
  return counts;
}

/** Takes the entries of `units` out of `perGroup` (changed in place); returns `total` less the units counted. */
function withoutUnits(slot: Slot, view: TypedView, perGroup: Float64Array, total: number, units: Bitmap): number {
  const fwdUnit = slot.fwdUnit.data;
  const fwdOrd = slot.fwdOrd.data;
  const entries = slot.fwdUnit.length;
  const seen = new Set<number>();
  for (const u of units.toUint32Array()) {
    seen.clear();
    for (let j = slot.fwdUnit.lowerBound(u); j < entries && fwdUnit[j] === u; j++) {
      const g = view.ordGroup[fwdOrd[j]];
      if (g >= 0) seen.add(g);
    }
    for (const g of seen) perGroup[g]--;
    if (seen.size > 0) total--;
  }
  return total;
}

/** The counts per typed group of a field over a query's units, before any bucket is chosen. */
interface FieldCounts {
  readonly view: TypedView;
  readonly total: number;
  /** Groups of the view (0..groups-1). */
  readonly groups: number;
  /** A group's count (groups added since the left-out documents were counted have none of their units). */
  count(g: number): number;
}

function fieldCounts(data: IndexData, match: Bitmap, field: FieldDef | undefined, strategy: AggregateStrategy): FieldCounts | undefined {
  if (!field || match.isEmpty) return undefined;
  const at = data.slotAt(field.docPath);
  if (!at?.slot) return undefined;
  const { part, slot } = at;
  const scope = part ? part.scope : data.docs;
  const view = slot.view(field.type);
  const groups = view.groups;
  // The units are every element of a matching document, whether or not it matched the query
  // itself, except pseudo-elements (see NestedPart.realLive).
  const pseudo = part && part.realLive() !== part.scope.live() ? RoaringBitmap32.andNot(part.scope.live(), part.realLive()) : undefined;
  const skip = pseudo ? pseudo.toUint32Array() : new Uint32Array(0);
  const whole = match.size === data.docs.liveCount;
  let counts: Counts;
  if (strategy === 'postings') {
    const units = part ? (whole ? part.realLive() : part.elemsOf(match).andInPlace(part.realLive())) : match;
    counts = byPostings(slot, view, units, scope.idCount);
    if (units !== match && units !== part?.realLive()) release(units);
  } else if (strategy === 'columns' || match.size * 2 <= data.docs.liveCount) {
    counts = byUnits(slot, view, scope, match.toUint32Array(), part, skip);
  } else {
    // Most documents match: the kept whole-corpus counts less those of the other documents.
    const kept = liveGroupCounts(slot, view, scope);
    const rest = whole ? undefined : leftOutCounts(slot, view, scope, RoaringBitmap32.andNot(data.docs.live(), match), part, skip);
    // The pseudo-elements' entries are taken out of a copy; the left-out documents' counts are
    // read as differences, not copied: a copy per call (17,738 groups of `services.port` at 1M
    // hosts, 142 KB) was garbage for the collector on every request.
    const perGroup = pseudo ? kept.perGroup.slice(0, groups) : kept.perGroup;
    const total = pseudo ? withoutUnits(slot, view, perGroup, kept.total, pseudo) : kept.total;
    counts = rest ? { perGroup, total: total - rest.total, minus: rest.perGroup } : { perGroup, total };
  }
  if (pseudo) release(pseudo);
  const { perGroup, minus } = counts;
  const minusLength = minus ? Math.min(groups, minus.length) : 0;
  return { view, total: counts.total, groups, count: (g) => (g < minusLength ? perGroup[g] - minus![g] : perGroup[g]) };
}

export function aggregateField(
  data: IndexData,
  match: Bitmap,
  field: FieldDef | undefined,
  numBuckets: number,
  strategy: AggregateStrategy,
): AggregateResult {
  const counts = fieldCounts(data, match, field, strategy);
  if (!counts) return { total: 0, totalOmitted: 0, buckets: [] };
  const { view, groups, total } = counts;

  // Keep only the best numBuckets while scanning: key strings are made only for groups whose
  // count can still enter, and nothing is sorted beyond the kept buckets.
  const k = Math.max(0, numBuckets);
  const buckets: Bucket[] = [];
  let counted = 0;
  for (let g = 0; g < groups; g++) {
    const count = counts.count(g);
    if (count === 0) continue;
    counted += count;
    if (k === 0 || (buckets.length === k && count < buckets[k - 1].count)) continue;
    keepBest(buckets, { key: keyString(field!.type, view.key(g)), count }, k);
  }
  const shown = buckets.reduce((s, b) => s + b.count, 0);
  return { total, totalOmitted: counted - shown, buckets };
}

/** Key strings of a view's groups, and group by key, made once per view and extended as groups are added (groups are only appended). */
interface GroupKeys {
  readonly keys: string[];
  readonly index: Map<string, number>;
  /** The counts of the last partGroups call on the view, overwritten by the next (see there). */
  counts: Float64Array;
}

const groupKeys = new WeakMap<TypedView, GroupKeys>();

function keysOf(view: TypedView, type: FieldDef['type']): GroupKeys {
  let k = groupKeys.get(view);
  if (!k) groupKeys.set(view, (k = { keys: [], index: new Map(), counts: new Float64Array(0) }));
  for (let g = k.keys.length; g < view.groups; g++) {
    const key = keyString(type, view.key(g));
    k.keys.push(key);
    k.index.set(key, g);
  }
  return k;
}

/** One part's counts per group of an aggregated field, for an aggregation over several parts (merge-parts.ts). */
export interface PartGroups {
  /** Units with a value (as AggregateResult.total). */
  readonly total: number;
  /** Sum of every group's count. */
  readonly counted: number;
  /** Count per group: valid until the next aggregation of this part on the same field. */
  readonly counts: Float64Array;
  /** The part's best groups by count (at most the buckets asked for), highest first; ties in any order. */
  readonly best: readonly number[];
  /**
   * The groups whose count reached, when they were counted, the part's best count so far of
   * rank `numBuckets` divided by the number of parts merged: every group that merge can take
   * as a candidate (mergePartGroups, step 2) is among them, in group order.
   */
  readonly above: readonly number[];
  keyOf(g: number): string;
  groupOf(key: string): number | undefined;
}

const NO_GROUPS: PartGroups = { total: 0, counted: 0, counts: new Float64Array(0), best: [], above: [], keyOf: () => '', groupOf: () => undefined };

/**
 * The counts per group of the field over the query's units, read once into an array along with
 * their sum and the part's best `numBuckets` groups, with what an engine made of parts needs to
 * combine them without making a key string for every group of every part: each group's key,
 * and the group of a key (both kept per view, like the counts behind them). One pass: reading
 * the counts three times through `count` (sum, best, candidates) cost more than counting them.
 * The counts go to an array kept per view and overwritten by the next call, which the caller
 * combines before it returns: a new array per call (136 KB for `services.port` per 1.1M
 * hosts) was garbage for the collector on every request.
 * The same pass lists the groups a merge over `parts` parts may take as candidates (`above`),
 * so that the merge does not read every group of every part again to find them.
 */
export function partGroups(data: IndexData, match: Bitmap, field: FieldDef | undefined, numBuckets: number, strategy: AggregateStrategy, parts = 1): PartGroups {
  const fc = fieldCounts(data, match, field, strategy);
  if (!fc) return NO_GROUPS;
  const { view, groups, count } = fc;
  const k = Math.max(0, numBuckets);
  const keys = keysOf(view, field!.type);
  if (keys.counts.length < groups) keys.counts = new Float64Array(Math.max(groups, Math.ceil(keys.counts.length * 1.5)));
  const counts = keys.counts.subarray(0, groups);
  const best: number[] = [];
  const above: number[] = [];
  let floor = 0;
  let counted = 0;
  for (let g = 0; g < groups; g++) {
    const c = count(g);
    counts[g] = c;
    if (c === 0) continue;
    counted += c;
    // The merge's threshold is at least this part's final floor over `parts` (merge-parts.ts),
    // and the floor only rises: a group below the floor so far over `parts` is no candidate.
    if (c * parts >= floor) above.push(g);
    if (k === 0 || (best.length === k && c <= floor)) continue;
    let i = best.length;
    while (i > 0 && counts[best[i - 1]] < c) i--;
    best.splice(i, 0, g);
    if (best.length > k) best.pop();
    if (best.length === k) floor = counts[best[k - 1]];
  }
  return { total: fc.total, counted, counts, best, above, keyOf: (g) => keys.keys[g], groupOf: (key) => keys.index.get(key) };
}
