/**
 * Per unit of a slot, its typed group when it has exactly one value there (the usual case), so
 * counting the groups of a set of units reads one number per unit instead of seeking its
 * entries in the forward column. Derived from the forward column (never persisted) on first
 * use and caught up as units are appended; started over when the column or the view was
 * replaced (compaction, restore). Tombstones need nothing: callers skip dead units.
 */
import type { FieldType } from '../../model/field-def.ts';
import type { GrowableU32 } from './growable.ts';
import type { Slot } from './slot.ts';
import type { TypedView } from './typed-view.ts';

/** No value of the type. */
export const NO_GROUP = -1;

/**
 * unit → group (>= 0), NO_GROUP, or, for a unit with several entries, -2 - the index of its
 * first entry in the forward column (see firstEntry).
 */
export class UnitGroups {
  of = new Int32Array(0);
  /** Units covered, and forward-column entries read, so far. */
  private units = 0;
  private done = 0;

  constructor(
    private readonly column: GrowableU32,
    private readonly view: TypedView,
  ) {}

  fits(slot: Slot, view: TypedView): boolean {
    return this.column === slot.fwdUnit && this.view === view;
  }

  catchUp(slot: Slot, unitCount: number): void {
    const n = this.column.length;
    if (this.units === unitCount && this.done === n) return;
    if (this.of.length < unitCount) {
      const next = new Int32Array(Math.max(unitCount, this.of.length + (this.of.length >>> 1)));
      next.set(this.of.subarray(0, this.units));
      this.of = next;
    }
    const of = this.of;
    of.fill(NO_GROUP, this.units, unitCount);
    const fwdUnit = this.column.data;
    const fwdOrd = slot.fwdOrd.data;
    const ordGroup = this.view.ordGroup;
    for (let j = this.done; j < n; ) {
      const u = fwdUnit[j];
      if (j + 1 < n && fwdUnit[j + 1] === u) {
        of[u] = -2 - j;
        while (j < n && fwdUnit[j] === u) j++;
      } else {
        of[u] = ordGroup[fwdOrd[j]];
        j++;
      }
    }
    this.units = unitCount;
    this.done = n;
  }
}

/** The forward-column index of the first entry of a unit whose UnitGroups value is below NO_GROUP. */
export function firstEntry(v: number): number {
  return -2 - v;
}

const groups = new WeakMap<Slot, Map<FieldType, UnitGroups>>();

/** The slot's unit groups for `view` (its view of the type, caught up), caught up to `unitCount` units. */
export function unitGroups(slot: Slot, view: TypedView, unitCount: number): UnitGroups {
  let byType = groups.get(slot);
  if (!byType) groups.set(slot, (byType = new Map()));
  let g = byType.get(view.type);
  if (!g || !g.fits(slot, view)) byType.set(view.type, (g = new UnitGroups(slot.fwdUnit, view)));
  g.catchUp(slot, unitCount);
  return g;
}
