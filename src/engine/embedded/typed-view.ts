/**
 * A slot read as one field type. Raw leaves become typed values (lib/ip keys, epoch ms...);
 * several raw values may share one typed value (`1.2.3.4` and `::ffff:1.2.3.4`), so ordinals
 * are grouped by typed value. Groups can be sorted, which serves ranges, sorting and prefix
 * scans. Grouping is caught up incrementally as the dictionary grows; the sort order is
 * rebuilt lazily when new groups appeared.
 */
import type { FieldType } from '../../model/field-def.ts';
import type { Leaf } from '../../model/values-of.ts';
import { compareTyped, typedValue, type Typed } from '../reference/typed-value.ts';

export class TypedView {
  /** value ordinal → group, -1 when the raw value is not of this type. */
  ordGroup = new Int32Array(16);
  readonly groupKey: Typed[] = [];
  /** group → its value ordinals (a number when there is only one, the usual case). */
  readonly groupOrds: (number | number[])[] = [];
  private readonly keyToGroup = new Map<Typed, number>();
  private builtUpTo = 0;
  private sorted: Int32Array | undefined;
  private rank: Int32Array | undefined;

  constructor(readonly type: FieldType) {}

  catchUp(values: readonly Leaf[]): void {
    if (this.builtUpTo === values.length) return;
    if (this.ordGroup.length < values.length) {
      let cap = this.ordGroup.length;
      while (cap < values.length) cap *= 2;
      const next = new Int32Array(cap);
      next.set(this.ordGroup);
      this.ordGroup = next;
    }
    for (let v = this.builtUpTo; v < values.length; v++) {
      const t = typedValue(this.type, values[v]);
      if (t === undefined) {
        this.ordGroup[v] = -1;
        continue;
      }
      let g = this.keyToGroup.get(t);
      if (g === undefined) {
        g = this.groupKey.length;
        this.keyToGroup.set(t, g);
        this.groupKey.push(t);
        this.groupOrds.push(v);
        this.sorted = undefined;
        this.rank = undefined;
      } else {
        const cur = this.groupOrds[g];
        this.groupOrds[g] = typeof cur === 'number' ? [cur, v] : (cur.push(v), cur);
      }
      this.ordGroup[v] = g;
    }
    this.builtUpTo = values.length;
  }

  findGroup(t: Typed): number | undefined {
    return this.keyToGroup.get(t);
  }

  /** Groups in ascending typed order (bools: false before true). */
  sortedGroups(): Int32Array {
    if (!this.sorted) {
      const keys = this.groupKey.map((k) => (typeof k === 'boolean' ? (k ? 1 : 0) : k));
      const order = Int32Array.from(keys.keys());
      order.sort((a, b) => compareTyped(keys[a], keys[b]));
      this.sorted = order;
    }
    return this.sorted;
  }

  /** group → its position in sortedGroups(). */
  groupRank(): Int32Array {
    if (!this.rank) {
      const sorted = this.sortedGroups();
      const rank = new Int32Array(sorted.length);
      for (let i = 0; i < sorted.length; i++) rank[sorted[i]] = i;
      this.rank = rank;
    }
    return this.rank;
  }

  /** First position p in sortedGroups() whose key is >= key (or > key when `strict`). */
  bound(key: string | number, strict: boolean): number {
    const sorted = this.sortedGroups();
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.groupKey[sorted[mid]];
      const c = compareTyped(typeof k === 'boolean' ? (k ? 1 : 0) : k, key);
      if (c < 0 || (strict && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  pushOrds(g: number, out: number[]): void {
    const o = this.groupOrds[g];
    if (typeof o === 'number') out.push(o);
    else for (const v of o) out.push(v);
  }
}
