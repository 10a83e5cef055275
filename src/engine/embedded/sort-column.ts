/**
 * A sort field read for ranking: each document's first value (in document order, the first
 * element's first value for nested fields) as its group's rank in the field's sorted typed view.
 */
import type { FieldDef } from '../../model/field-def.ts';
import { positionValue } from '../reference/typed-value.ts';
import type { IndexData, NestedPart } from './index-data.ts';
import type { Slot } from './slot.ts';
import type { TypedView } from './typed-view.ts';

export class SortColumn {
  private readonly slot: Slot | undefined;
  private readonly view: TypedView | undefined;
  private readonly part: NestedPart | undefined;
  /** Number of distinct values: ranks are 0..groups-1. */
  readonly groups: number;
  private readonly rank: Int32Array;

  constructor(data: IndexData, readonly field: FieldDef | undefined) {
    if (field) {
      const at = data.slotAt(field.docPath);
      this.part = at?.part;
      this.slot = at?.slot;
      this.view = this.slot?.view(field.type);
    }
    this.groups = this.view ? this.view.groups : 0;
    this.rank = this.view ? this.view.groupRank() : new Int32Array(0);
  }

  /**
   * Group of each document's first value (-1 when it has none), for ascending `docs`. Units of
   * ascending documents are ascending too (elements are numbered in document order), so one
   * merge-walk over the forward column serves dense matches; sparse ones binary-search it.
   */
  groupsOf(docs: Uint32Array): Int32Array {
    const out = new Int32Array(docs.length).fill(-1);
    const slot = this.slot;
    if (!slot) return out;
    const fwdUnit = slot.fwdUnit.data;
    const fwdOrd = slot.fwdOrd.data;
    const entries = slot.fwdUnit.length;
    const ordGroup = this.view!.ordGroup;
    const merge = docs.length * 16 > entries;
    let j = 0;
    const first = (unit: number): number => {
      if (merge) while (j < entries && fwdUnit[j] < unit) j++;
      else j = slot.fwdUnit.lowerBound(unit);
      for (; j < entries && fwdUnit[j] === unit; j++) {
        const g = ordGroup[fwdOrd[j]];
        if (g >= 0) return g;
      }
      return -1;
    };
    const part = this.part;
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i];
      if (!part) {
        out[i] = first(d);
        continue;
      }
      if (d >= part.start.length) continue;
      const s = part.start.data[d];
      for (let e = s, end = s + part.count.data[d]; e < end; e++) {
        const g = first(e);
        if (g >= 0) {
          out[i] = g;
          break;
        }
      }
    }
    return out;
  }

  /** Rank of a group (missing: `groups`, after every value). */
  rankOf(g: number): number {
    return g < 0 ? this.groups : this.rank[g];
  }

  /** Where a cursor value falls among the ranks: an exact rank, or halfway between two. */
  cursorRank(v: string | number | null): number {
    if (v === null) return this.groups;
    // No document has the field: a value still comes before every missing one.
    if (!this.view) return -0.5;
    const p = this.view.bound(v, false);
    if (p < this.groups) {
      const k = positionValue(this.view.key(this.view.sortedGroups()[p]));
      if (k === v) return p;
    }
    return p - 0.5;
  }

  positionOf(g: number): string | number | null {
    return g < 0 ? null : positionValue(this.view!.key(g));
  }
}
