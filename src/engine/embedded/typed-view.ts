/**
 * A slot read as one field type. Raw leaves become typed values (lib/ip keys, epoch ms...);
 * several raw values may share one typed value (`1.2.3.4` and `::ffff:1.2.3.4`), so ordinals
 * are grouped by typed value. Groups can be sorted, which serves ranges, sorting and prefix
 * scans. Grouping is caught up incrementally as the dictionary grows; the sort order is
 * rebuilt lazily when new groups appeared.
 */
import type { FieldType } from '../../model/field-def.ts';
import type { Leaf } from '../../model/values-of.ts';
import { eachValue, type LeafList } from './packed-leaves.ts';
import { compareTyped, typedValue, type Typed } from '../reference/typed-value.ts';

/** ipKey of an IPv4 address: this prefix, then the address as 8 hex digits. */
const V4_MAPPED = '00000000000000000000ffff';

/**
 * The address of a plain dotted quad (decimal octets without leading zeros, nothing else; what
 * fastIpKey reads without ipaddr.js) as a uint32, or -1 for any other text.
 */
function plainV4(text: string): number {
  const n = text.length;
  if (n < 7 || n > 15) return -1;
  let addr = 0;
  let octets = 0;
  let i = 0;
  while (true) {
    const start = i;
    let octet = 0;
    for (; i < n; i++) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      octet = octet * 10 + c;
    }
    const digits = i - start;
    if (digits === 0 || digits > 3 || octet > 255 || (digits > 1 && text.charCodeAt(start) === 48)) return -1;
    addr = addr * 256 + octet;
    if (++octets === 4) return i === n ? addr : -1;
    if (i === n || text.charCodeAt(i) !== 46) return -1;
    i++;
  }
}

/** The ipKey of an IPv4 address (a uint32), as one flat string. */
function v4Key(v4: number): string {
  return V4_MAPPED + (v4 + 0x100000000).toString(16).slice(1);
}

/** The IPv4 address of an ipKey, or -1 for an IPv6 one. */
function v4OfKey(key: string): number {
  return key.length === 32 && key.startsWith(V4_MAPPED) ? parseInt(key.slice(24), 16) : -1;
}

export class TypedView {
  /** value ordinal → group, -1 when the raw value is not of this type. */
  ordGroup = new Int32Array(16);
  /**
   * group → typed value; for an IPv4 group of an ip view, its address as an int32 (`address | 0`,
   * a small integer V8 keeps in the array itself) instead of its 32-character key: built by
   * concatenation, each key was a rope of four heap objects per address, millions of small
   * objects that every scavenge walks past (docs/ARCHITECTURE.md, "Small objects"). Read with key().
   */
  private readonly keys: Typed[] = [];
  /** group → its value ordinals (a number when there is only one, the usual case). */
  readonly groupOrds: (number | number[])[] = [];
  private readonly keyToGroup = new Map<Typed, number>();
  /**
   * IPv4 addresses of ip views → group (their keys are not in keyToGroup): most addresses are
   * plain dotted quads, grouped and sorted as numbers without building or hashing key strings.
   * Keyed as int32 (`address | 0`), which V8 stores unboxed.
   */
  private readonly v4Group = new Map<number, number>();
  private builtUpTo = 0;
  /** Groups in sorted order, as of when it was last asked for (groups added since are missing). */
  private sorted: Int32Array | undefined;
  private rank: Int32Array | undefined;

  constructor(readonly type: FieldType) {}

  /** Groups so far. */
  get groups(): number {
    return this.keys.length;
  }

  /** The typed value of group `g`. */
  key(g: number): Typed {
    const k = this.keys[g];
    return typeof k === 'number' && this.type === 'ip' ? v4Key(k >>> 0) : k;
  }

  /**
   * Groups the values added since the last call, at most `budget` of them (the background
   * warm-up advances in slices); true when caught up. Slicing changes nothing in the result.
   */
  catchUp(values: LeafList, budget = Infinity): boolean {
    if (this.builtUpTo === values.length) return true;
    if (this.ordGroup.length < values.length) {
      let cap = this.ordGroup.length;
      while (cap < values.length) cap *= 2;
      const next = new Int32Array(cap);
      next.set(this.ordGroup);
      this.ordGroup = next;
    }
    const ip = this.type === 'ip';
    const end = Math.min(values.length, this.builtUpTo + budget);
    eachValue(values, this.builtUpTo, end, (v, value) => {
      let v4 = ip && typeof value === 'string' ? plainV4(value) : -1;
      let t: Typed | undefined;
      if (v4 < 0) {
        t = typedValue(this.type, value);
        if (t === undefined) {
          this.ordGroup[v] = -1;
          return;
        }
        if (ip) v4 = v4OfKey(t as string);
      }
      let g = v4 >= 0 ? this.v4Group.get(v4 | 0) : this.keyToGroup.get(t!);
      if (g === undefined) {
        g = this.keys.length;
        if (v4 >= 0) {
          this.v4Group.set(v4 | 0, g);
          this.keys.push(v4 | 0);
        } else {
          this.keyToGroup.set(t!, g);
          this.keys.push(t!);
        }
        this.groupOrds.push(v);
        this.rank = undefined;
      } else {
        const cur = this.groupOrds[g];
        this.groupOrds[g] = typeof cur === 'number' ? [cur, v] : (cur.push(v), cur);
      }
      this.ordGroup[v] = g;
    });
    this.builtUpTo = end;
    return end === values.length;
  }

  findGroup(t: Typed): number | undefined {
    const v4 = this.type === 'ip' ? v4OfKey(t as string) : -1;
    return v4 >= 0 ? this.v4Group.get(v4 | 0) : this.keyToGroup.get(t);
  }

  /** Groups in ascending typed order (bools: false before true). */
  sortedGroups(): Int32Array {
    const old = this.sorted;
    const groups = this.keys.length;
    if (old && old.length === groups) return old;
    // A few groups appended to many: sort only them and merge (linear) instead of sorting all.
    if (old && old.length >= 1024 && groups - old.length <= old.length / 8) this.sorted = this.mergeAdded(old);
    else this.sorted = this.type === 'ip' ? this.sortIp() : this.sortKeys();
    return this.sorted;
  }

  private keyOf(g: number): string | number {
    const k = this.key(g);
    return typeof k === 'boolean' ? (k ? 1 : 0) : k;
  }

  private mergeAdded(old: Int32Array): Int32Array {
    const added: number[] = [];
    for (let g = old.length; g < this.keys.length; g++) added.push(g);
    const cmp = (a: number, b: number): number => compareTyped(this.keyOf(a), this.keyOf(b));
    added.sort(cmp);
    const out = new Int32Array(this.keys.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < old.length && j < added.length) out[k++] = cmp(old[i], added[j]) <= 0 ? old[i++] : added[j++];
    while (i < old.length) out[k++] = old[i++];
    while (j < added.length) out[k++] = added[j++];
    return out;
  }

  private sortKeys(): Int32Array {
    const keys = this.keys.map((k) => (typeof k === 'boolean' ? (k ? 1 : 0) : k));
    const order = Int32Array.from(keys.keys());
    order.sort((a, b) => compareTyped(keys[a], keys[b]));
    return order;
  }

  /**
   * IPv4 keys share one prefix, so they sort as one block between the IPv6 keys below and
   * above it, in numeric order (a native sort of the addresses, which are distinct per group).
   */
  private sortIp(): Int32Array {
    const v4s = new Uint32Array(this.v4Group.size);
    let k = 0;
    for (const a of this.v4Group.keys()) v4s[k++] = a >>> 0;
    v4s.sort();
    const v6 = this.keys as string[];
    const others: number[] = [];
    for (const g of this.keyToGroup.values()) others.push(g);
    others.sort((a, b) => compareTyped(v6[a], v6[b]));
    const order = new Int32Array(this.keys.length);
    let p = 0;
    let o = 0;
    while (o < others.length && v6[others[o]] < V4_MAPPED) order[p++] = others[o++];
    for (const a of v4s) order[p++] = this.v4Group.get(a | 0)!;
    while (o < others.length) order[p++] = others[o++];
    return order;
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
    // An IPv4 key against an IPv4 group compares as numbers, without making the group's key.
    const v4 = this.type === 'ip' && typeof key === 'string' ? v4OfKey(key) : -1;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const raw = this.keys[sorted[mid]];
      const c = v4 >= 0 && typeof raw === 'number' ? (raw >>> 0) - v4 : compareTyped(this.keyOf(sorted[mid]), key);
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
