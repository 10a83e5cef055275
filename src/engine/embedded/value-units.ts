/**
 * Value ordinal → its only unit, for mapping many matched values to units at once: most values
 * of banner-like text slots occur in a single unit, and asking the posting table for each of
 * them (then building a bitmap from an unordered id list) dominated phrase queries. Derived from
 * the slot's forward column, caught up from where it was left (the column only grows; a
 * compacted slot has a new column, and the map starts over).
 */
import { bitmapOfSorted, RoaringBitmap32, type Bitmap } from './bitmap.ts';
import type { GrowableU32 } from './growable.ts';
import type { Slot } from './slot.ts';

/** Marks a value held by several units (entries are otherwise unit + 1, 0 for none yet). */
const MULTI = 0xffffffff;

export class ValueUnits {
  private only = new Uint32Array(16);
  private upTo = 0;

  private constructor(private readonly column: GrowableU32) {}

  private static readonly of = new WeakMap<Slot, ValueUnits>();

  /** Units holding any of `ords` (ascending value ordinals of `slot`). */
  static unitsOf(slot: Slot, ords: Uint32Array): Bitmap {
    return ValueUnits.forSlot(slot).mapped(slot, ords, undefined, (units) => units);
  }

  /**
   * Documents (live or not) of the units holding any of `ords`, where `elemDoc` maps units to
   * documents (a nested part's elements). One pass from values to documents: going through a
   * bitmap of units first cost a second bitmap build and a second pass over every match (half a
   * banner phrase's time at 1M hosts).
   */
  static docsOf(slot: Slot, ords: Uint32Array, elemDoc: GrowableU32, unitDocs: (units: Bitmap) => Bitmap): Bitmap {
    return ValueUnits.forSlot(slot).mapped(slot, ords, elemDoc.data, unitDocs);
  }

  /** The slot's map, caught up (started over when the slot's column was replaced, e.g. compacted). */
  static forSlot(slot: Slot): ValueUnits {
    let map = ValueUnits.of.get(slot);
    if (!map || map.column !== slot.fwdUnit) ValueUnits.of.set(slot, (map = new ValueUnits(slot.fwdUnit)));
    map.catchUp(slot);
    return map;
  }

  private catchUp(slot: Slot): void {
    const n = this.column.length;
    if (this.upTo === n) return;
    const values = slot.values.length;
    if (this.only.length < values) {
      let cap = this.only.length;
      while (cap < values) cap *= 2;
      const next = new Uint32Array(cap);
      next.set(this.only);
      this.only = next;
    }
    const units = this.column.data;
    const ords = slot.fwdOrd.data;
    const only = this.only;
    for (let i = this.upTo; i < n; i++) {
      const v = ords[i];
      const cur = only[v];
      if (cur === 0) only[v] = units[i] + 1;
      else if (cur !== units[i] + 1) only[v] = MULTI;
    }
    this.upTo = n;
  }

  /**
   * The units holding any of `ords`, or their images under `unitMap` (an ascending map such as
   * element → document), as a bitmap; `ofUnits` maps the units of values held by several.
   */
  private mapped(slot: Slot, ords: Uint32Array, unitMap: Uint32Array | undefined, ofUnits: (units: Bitmap) => Bitmap): Bitmap {
    const only = this.only;
    const out = new Uint32Array(ords.length);
    const multi: number[] = [];
    let n = 0;
    let last = -1;
    let ascending = true;
    for (let i = 0; i < ords.length; i++) {
      const x = only[ords[i]];
      if (x === MULTI) multi.push(ords[i]);
      else if (x !== 0) {
        const d = unitMap === undefined ? x - 1 : unitMap[x - 1];
        if (d === last) continue;
        if (d < last) ascending = false;
        out[n++] = last = d;
      }
    }
    // Values are numbered as they first appear and units arrive in ascending order, so units of
    // single-unit values usually ascend with the values: one bulk load then.
    const ids = out.subarray(0, n);
    const found = ascending ? bitmapOfSorted(ids) : RoaringBitmap32.from(ids);
    if (multi.length > 0) found.orInPlace(ofUnits(slot.postings.union(multi)));
    return found;
  }
}
