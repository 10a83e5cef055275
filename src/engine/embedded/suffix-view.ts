/**
 * A slot's ASCII string values sorted by their lower-cased REVERSED text, so values ending with
 * a given literal form one range (found by binary search): a leading-`*` wildcard tests its
 * pattern on that range instead of on every value. Values with other characters are kept apart
 * and always tested, since Unicode case folding can match ASCII letters with them (`K`, `ſ`).
 * Derived from the slot's dictionary and caught up lazily (new values are sorted and merged).
 */
import type { Leaf } from '../../model/values-of.ts';
import { eachValue, type LeafList } from './packed-leaves.ts';
import type { Slot } from './slot.ts';

function lower(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/** Orders by lower-cased reversed text. */
function compareFromEnd(a: string, b: string): number {
  let i = a.length - 1;
  let j = b.length - 1;
  for (; i >= 0 && j >= 0; i--, j--) {
    const d = lower(a.charCodeAt(i)) - lower(b.charCodeAt(j));
    if (d !== 0) return d;
  }
  return i - j;
}

/** 0 when `value` ends with `suffix` (lower-cased), else the side of that range `value` sorts on. */
function compareSuffix(value: string, suffix: string): number {
  for (let k = 1; k <= suffix.length; k++) {
    if (k > value.length) return -1;
    const d = lower(value.charCodeAt(value.length - k)) - suffix.charCodeAt(suffix.length - k);
    if (d !== 0) return d;
  }
  return 0;
}

const ASCII = /^[\x00-\x7f]*$/;

export class SuffixView {
  /** ASCII values' ordinals in lower-cased reversed order. */
  private sorted = new Uint32Array(0);
  /** Ordinals of string values with non-ASCII characters. */
  private readonly others: number[] = [];
  private builtUpTo = 0;

  private constructor(readonly values: LeafList) {}

  private static readonly of = new WeakMap<Slot, SuffixView>();

  /** The slot's view, caught up (started over when the slot's dictionary was replaced, e.g. compacted). */
  static forSlot(slot: Slot): SuffixView {
    let view = SuffixView.of.get(slot);
    if (!view || view.values !== slot.values) SuffixView.of.set(slot, (view = new SuffixView(slot.values)));
    view.catchUp();
    return view;
  }

  private catchUp(): void {
    const values = this.values;
    if (this.builtUpTo === values.length) return;
    const added: number[] = [];
    // Sorting by reversed copies (native string comparisons) is ~3x faster than comparing from
    // the end in JS; the copies are dropped once sorted.
    const reversed: string[] = [];
    eachValue(values, this.builtUpTo, values.length, (v, value) => {
      if (typeof value !== 'string') return;
      if (ASCII.test(value)) {
        added.push(v);
        reversed.push(Buffer.from(value.toLowerCase(), 'latin1').reverse().toString('latin1'));
      } else this.others.push(v);
    });
    this.builtUpTo = values.length;
    if (added.length === 0) return;
    const order = reversed.map((_, i) => i).sort((a, b) => (reversed[a] < reversed[b] ? -1 : reversed[a] > reversed[b] ? 1 : 0));
    const sortedAdded = order.map((i) => added[i]);
    const cmp = (a: number, b: number): number => compareFromEnd(values.at(a) as string, values.at(b) as string);
    const old = this.sorted;
    const merged = new Uint32Array(old.length + added.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < old.length && j < sortedAdded.length) merged[k++] = cmp(old[i], sortedAdded[j]) <= 0 ? old[i++] : sortedAdded[j++];
    while (i < old.length) merged[k++] = old[i++];
    while (j < sortedAdded.length) merged[k++] = sortedAdded[j++];
    this.sorted = merged;
  }

  /**
   * Ordinals of every value that can end with `suffix` (ASCII) in any letter case: the ASCII
   * values that do, then every non-ASCII value.
   */
  candidates(suffix: string): number[] {
    const want = suffix.toLowerCase();
    const sorted = this.sorted;
    const values = this.values;
    const bound = (past: boolean): number => {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const c = compareSuffix(values.at(sorted[mid]) as string, want);
        if (c < 0 || (past && c === 0)) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const out: number[] = [];
    for (let p = bound(false), end = bound(true); p < end; p++) out.push(sorted[p]);
    for (const v of this.others) out.push(v);
    return out;
  }

  /** The literal ASCII text a wildcard pattern must end with, or '' when it has none. */
  static literalSuffix(pattern: string): string {
    const i = Math.max(pattern.lastIndexOf('*'), pattern.lastIndexOf('?'));
    const tail = pattern.slice(i + 1);
    return ASCII.test(tail) ? tail : '';
  }
}
