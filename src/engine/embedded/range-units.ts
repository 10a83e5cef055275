/**
 * A slot's units in the sorted order of their typed values, so a range over many sorted groups
 * (a CIDR on `ip`, a span of timestamps) is one contiguous slice of units: asking the posting
 * table for each of the range's groups, then bulk-loading the unordered ids, cost 11 ms for a
 * /8 of a million hosts (27k groups of one host each).
 *
 * Derived from the forward column and the view's sort order, never persisted. Entries appended
 * after the build (the tail) are tested one by one against the view's current ranks; a tail
 * past an eighth of the built entries is folded in by a rebuild (linear: a counting sort by
 * rank), so appends cost amortised O(1) each. New groups reorder the view, but never the old
 * groups among themselves, so built positions are found from current ones by binary search over
 * the built order. Started over when the column or the view was replaced (compaction,
 * restore). Dead units stay in: callers filter by the live ones.
 *
 * A slice's units are in value order, so a bitmap of them needs them sorted by id: a /8 at a
 * million hosts (27,542 units) took 0.3 ms to radix-sort and de-duplicate, most of that query's
 * time. The built order is therefore cut into blocks of BLOCK entries, each given a bitmap of its
 * units when a slice first covers it whole: a slice is then the union of the blocks it covers
 * and its two ragged ends sorted as before.
 */
import type { FieldType } from '../../model/field-def.ts';
import { bitmapOfSorted, orConsuming, unionMany, type Bitmap } from './bitmap.ts';
import type { GrowableU32 } from './growable.ts';
import { radixSorted } from './radix-sort.ts';
import type { Slot } from './slot.ts';
import type { TypedView } from './typed-view.ts';

/** Below this many tail entries, scanning them or rebuilding costs next to nothing either way. */
const MIN_TAIL = 256;
/** Built entries per block (see above). */
const BLOCK = 4096;

export class RangeUnits {
  /** The view's sortedGroups() at the build; built positions index it. */
  private sorted: Int32Array = new Int32Array(0);
  /** Built position p → its units are units[first[p]] up to units[first[p + 1]] (ascending). */
  private first: Uint32Array = new Uint32Array(1);
  private units: Uint32Array = new Uint32Array(0);
  /** Forward-column entries in `units`. */
  private built = 0;
  /** Bitmap of the units of built entries [k * blockSize, (k + 1) * blockSize), made on first use. */
  private blocks: (Bitmap | undefined)[] = [];

  constructor(
    private readonly column: GrowableU32,
    private readonly view: TypedView,
    /** Tail entries tolerated before a rebuild, besides an eighth of the built ones. */
    private readonly minTail = MIN_TAIL,
    private readonly blockSize = BLOCK,
  ) {}

  fits(slot: Slot, view: TypedView): boolean {
    return this.column === slot.fwdUnit && this.view === view;
  }

  /**
   * Units (live or not, each once) with a value at positions [from, to) of the view's current
   * sortedGroups(); `unitCount` bounds the unit ids.
   */
  unitsIn(slot: Slot, from: number, to: number, unitCount: number): Bitmap {
    this.catchUp(slot);
    const n = this.column.length;
    const current = this.view.sortedGroups();
    const rank = this.view.groupRank();
    const [a, b] = current === this.sorted ? [from, to] : [this.builtPosition(rank, from), this.builtPosition(rank, to)];
    const start = this.first[a];
    const end = this.first[b];
    // Blocks [k0, k1) lie wholly inside the slice; one alone would save little.
    const k0 = Math.ceil(start / this.blockSize);
    const k1 = Math.floor(end / this.blockSize);
    const blocks: Bitmap[] = [];
    let loose = this.units.subarray(start, end);
    if (k1 - k0 >= 2) {
      for (let k = k0; k < k1; k++) blocks.push(this.block(k, unitCount));
      const head = this.units.subarray(start, k0 * this.blockSize);
      const tail = this.units.subarray(k1 * this.blockSize, end);
      loose = new Uint32Array(head.length + tail.length);
      loose.set(head);
      loose.set(tail, head.length);
    }
    const sliced = radixSorted(loose, unitCount);
    const ids = new Uint32Array(sliced.length + (n - this.built));
    let k = 0;
    let last = -1;
    for (let i = 0; i < sliced.length; i++) if (sliced[i] !== last) ids[k++] = last = sliced[i];
    // Tail units come after every built one (the column's units ascend).
    const fwdUnit = this.column.data;
    const fwdOrd = slot.fwdOrd.data;
    const ordGroup = this.view.ordGroup;
    for (let j = this.built; j < n; j++) {
      const g = ordGroup[fwdOrd[j]];
      if (g < 0 || rank[g] < from || rank[g] >= to || fwdUnit[j] === last) continue;
      ids[k++] = last = fwdUnit[j];
    }
    const rest = bitmapOfSorted(ids.subarray(0, k));
    if (blocks.length === 0) return rest;
    return orConsuming(unionMany(blocks), rest);
  }

  /** Block `k`'s bitmap (its units, each once). */
  private block(k: number, unitCount: number): Bitmap {
    let b = this.blocks[k];
    if (!b) {
      const sorted = radixSorted(this.units.subarray(k * this.blockSize, (k + 1) * this.blockSize), unitCount);
      let n = 0;
      for (let i = 0; i < sorted.length; i++) if (n === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i];
      this.blocks[k] = b = bitmapOfSorted(sorted.subarray(0, n));
    }
    return b;
  }

  /** Rebuilds when the tail of entries appended since the build grew too long to test one by one. */
  catchUp(slot: Slot): void {
    if (this.column.length - this.built > Math.max(this.minTail, this.built >>> 3)) this.build(slot);
  }

  /** The first built position whose group is at or after current position `p`. */
  private builtPosition(rank: Int32Array, p: number): number {
    const sorted = this.sorted;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (rank[sorted[mid]] < p) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Every entry of the column, ordered by the rank of its group (a counting sort). */
  private build(slot: Slot): void {
    const sorted = this.view.sortedGroups();
    const rank = this.view.groupRank();
    const n = this.column.length;
    const fwdUnit = this.column.data;
    const fwdOrd = slot.fwdOrd.data;
    const ordGroup = this.view.ordGroup;
    const first = new Uint32Array(sorted.length + 1);
    for (let j = 0; j < n; j++) {
      const g = ordGroup[fwdOrd[j]];
      if (g >= 0) first[rank[g] + 1]++;
    }
    for (let p = 0; p < sorted.length; p++) first[p + 1] += first[p];
    const next = first.slice(0, sorted.length);
    const units = new Uint32Array(first[sorted.length]);
    for (let j = 0; j < n; j++) {
      const g = ordGroup[fwdOrd[j]];
      if (g >= 0) units[next[rank[g]]++] = fwdUnit[j];
    }
    this.sorted = sorted;
    this.first = first;
    this.units = units;
    this.built = n;
    this.blocks = [];
  }
}

const bySlot = new WeakMap<Slot, Map<FieldType, RangeUnits>>();

/** The slot's range units for `view` (its view of the type, caught up). */
export function rangeUnits(slot: Slot, view: TypedView): RangeUnits {
  let byType = bySlot.get(slot);
  if (!byType) bySlot.set(slot, (byType = new Map()));
  let r = byType.get(view.type);
  if (!r || !r.fits(slot, view)) byType.set(view.type, (r = new RangeUnits(slot.fwdUnit, view)));
  return r;
}
