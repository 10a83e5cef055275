/**
 * Per typed group, how many live units of a slot hold it, and how many hold any value of the
 * type: the answer of an aggregation over the whole corpus (the `*` query), which would
 * otherwise intersect every group's postings with every live unit on each call. Derived from
 * the forward column (never persisted) on first use, caught up as units are appended (ids only
 * grow and a unit's entries are appended at once, so the column always ends on a whole unit),
 * units that died since taken out again (found by comparing the alive bytes with the units
 * counted: no entry is read twice), and counted from scratch when the column was replaced
 * (compaction, restore).
 */
import type { FieldType } from '../../model/field-def.ts';
import type { GrowableU32 } from './growable.ts';
import type { Scope } from './scope.ts';
import type { Slot } from './slot.ts';
import type { TypedView } from './typed-view.ts';

export class LiveGroupCounts {
  /** group → live units holding it (a unit counts once per distinct typed value). */
  perGroup = new Float64Array(16);
  /** Live units with at least one value of the type. */
  total = 0;
  /** group → last unit counted for it: a unit's raw values may share one typed value. */
  private lastUnit = new Int32Array(16).fill(-1);
  private lastCounted = -1;
  /** Forward-column entries counted so far. */
  private done = 0;
  /** unit → 1 when its entries are in the counts (it was alive when they were read). */
  private counted = new Uint8Array(0);
  /** The scope's tombstones when dead units were last taken out. */
  private deadCount = 0;

  constructor(
    private readonly column: GrowableU32,
    private readonly view: TypedView,
  ) {}

  /** Whether these counts can be caught up for the slot's current column and view. */
  fits(slot: Slot, view: TypedView): boolean {
    return this.column === slot.fwdUnit && this.view === view;
  }

  catchUp(slot: Slot, scope: Scope): void {
    if (this.deadCount !== scope.deadCount) {
      this.forgetDead(slot, scope);
      this.deadCount = scope.deadCount;
    }
    const groups = this.view.groups;
    if (this.perGroup.length < groups) this.grow(groups);
    const n = this.column.length;
    if (this.done === n) return;
    if (this.counted.length < scope.idCount) {
      const counted = new Uint8Array(Math.max(scope.idCount, this.counted.length + (this.counted.length >>> 1)));
      counted.set(this.counted);
      this.counted = counted;
    }
    const counted = this.counted;
    const fwdUnit = this.column.data;
    const fwdOrd = slot.fwdOrd.data;
    const ordGroup = this.view.ordGroup;
    const alive = scope.alive;
    const perGroup = this.perGroup;
    const lastUnit = this.lastUnit;
    let lastCounted = this.lastCounted;
    let total = this.total;
    for (let j = this.done; j < n; j++) {
      const u = fwdUnit[j];
      if (alive[u] !== 1) continue;
      counted[u] = 1;
      const g = ordGroup[fwdOrd[j]];
      if (g < 0 || lastUnit[g] === u) continue;
      lastUnit[g] = u;
      perGroup[g]++;
      if (lastCounted !== u) {
        lastCounted = u;
        total++;
      }
    }
    this.lastCounted = lastCounted;
    this.total = total;
    this.done = n;
  }

  /** Takes out the entries of units counted while alive that have died since. */
  private forgetDead(slot: Slot, scope: Scope): void {
    const counted = this.counted;
    const alive = scope.alive;
    const fwdUnit = this.column.data;
    const fwdOrd = slot.fwdOrd.data;
    const n = this.done;
    const ordGroup = this.view.ordGroup;
    for (let u = 0; u < counted.length; u++) {
      if (counted[u] !== 1 || alive[u] === 1) continue;
      counted[u] = 0;
      const first = this.column.lowerBound(u);
      let any = false;
      for (let j = first; j < n && fwdUnit[j] === u; j++) {
        const g = ordGroup[fwdOrd[j]];
        if (g < 0) continue;
        // A unit counts once per group: skip a group one of its earlier values already had.
        let dup = false;
        for (let k = first; k < j; k++) if (ordGroup[fwdOrd[k]] === g) dup = true;
        if (dup) continue;
        this.perGroup[g]--;
        any = true;
      }
      if (any) this.total--;
    }
  }

  private grow(groups: number): void {
    let cap = this.perGroup.length;
    while (cap < groups) cap *= 2;
    const perGroup = new Float64Array(cap);
    perGroup.set(this.perGroup);
    const lastUnit = new Int32Array(cap).fill(-1);
    lastUnit.set(this.lastUnit);
    this.perGroup = perGroup;
    this.lastUnit = lastUnit;
  }
}

const counts = new WeakMap<Slot, Map<FieldType, LiveGroupCounts>>();

/** The slot's live group counts for `view` (the slot's view of its type, caught up), caught up. */
export function liveGroupCounts(slot: Slot, view: TypedView, scope: Scope): LiveGroupCounts {
  let byType = counts.get(slot);
  if (!byType) counts.set(slot, (byType = new Map()));
  let c = byType.get(view.type);
  if (!c || !c.fits(slot, view)) byType.set(view.type, (c = new LiveGroupCounts(slot.fwdUnit, view)));
  c.catchUp(slot, scope);
  return c;
}
