/**
 * Tokens of a slot's string values: token → the value ordinals containing it. Token matches
 * intersect these per-value lists; phrases are answered from adjacent token pairs (recorded on
 * the first phrase query), then the surviving values are mapped to units through the slot's
 * postings. Built from the slot's dictionary and caught up lazily, since the dictionary only
 * ever grows.
 */
import { tokenize } from '../../model/tokenize.ts';
import { tokensMatch } from '../reference/matchers.ts';
import type { Leaf } from '../../model/values-of.ts';
import type { LeafList } from './packed-leaves.ts';
import { RoaringBitmap32, type Bitmap } from './bitmap.ts';
import { GrowableU32 } from './growable.ts';
import { PairMap } from './pair-map.ts';
import { PostingTable } from './posting-table.ts';
import { TokenDictionary } from './token-dictionary.ts';

export class TokenIndex {
  /** token ↔ token ordinal. */
  readonly tokens = new TokenDictionary();
  /**
   * Tokens holding `ſ` (U+017F), which case-insensitive patterns match for `s` but which does not
   * lower-case to it: substring candidates always include their values (substring-candidates.ts).
   */
  readonly longS: number[] = [];
  /** token ordinal → value ordinals */
  readonly values = new PostingTable();
  /** Adjacent token pairs (a, b) → pair ordinal → the value ordinals where b directly follows a. */
  private readonly pairOrd = new PairMap();
  private readonly pairValues = new PostingTable();
  /** token ordinal → the value ordinals holding that token more than once (where pairs do not pin positions). */
  private readonly repeats = new PostingTable();
  /** token ordinal → 1 + the last value ordinal whose pairs recorded it (to find repeats). */
  private readonly lastSeen = new GrowableU32();
  private builtUpTo = 0;
  /** Values below this have their pairs recorded. */
  private pairsUpTo = 0;
  private sorted: number[] | undefined;
  private readonly scratch: number[] = [];

  /**
   * Tokenises the values added since the last call. With `pairs` (phrase queries), token pairs
   * are recorded too, in the same pass when they are up to date, so a value is tokenised once;
   * other token queries leave them out, since they cost about as much as the tokens. At most
   * `budget` values are processed (the background warm-up advances in slices); true when caught
   * up. Whatever the slicing, the index ends up the same as built in one call.
   */
  catchUp(values: LeafList, pairs = false, budget = Infinity): boolean {
    if (pairs && this.pairsUpTo < this.builtUpTo) {
      budget -= this.catchUpPairs(values, budget);
      if (this.pairsUpTo < this.builtUpTo) return false;
    }
    if (this.builtUpTo === values.length) return true;
    const withPairs = pairs && this.pairsUpTo === this.builtUpTo;
    const end = Math.min(values.length, this.builtUpTo + budget);
    const ts = this.scratch;
    for (let v = this.builtUpTo; v < end; v++) {
      const value = values.at(v);
      if (typeof value !== 'string') continue;
      ts.length = 0;
      for (const tok of tokenize(value)) {
        const known = this.tokens.length;
        const t = this.tokens.intern(tok);
        if (t === known) {
          if (tok.includes('\u017f')) this.longS.push(t);
          this.sorted = undefined;
        }
        this.values.add(t, v);
        ts.push(t);
      }
      if (withPairs) this.addPairs(v, ts);
    }
    this.builtUpTo = end;
    if (withPairs) this.pairsUpTo = end;
    return end === values.length;
  }

  /** Records pairs of (at most `budget`) values tokenised before phrases were asked for; returns how many. */
  private catchUpPairs(values: LeafList, budget: number): number {
    const ts = this.scratch;
    const from = this.pairsUpTo;
    const end = Math.min(this.builtUpTo, from + budget);
    for (let v = from; v < end; v++) {
      const value = values.at(v);
      if (typeof value !== 'string') continue;
      ts.length = 0;
      for (const tok of tokenize(value)) ts.push(this.tokens.get(tok));
      this.addPairs(v, ts);
    }
    this.pairsUpTo = end;
    return end - from;
  }

  private addPairs(v: number, ts: readonly number[]): void {
    const seen = this.lastSeen;
    seen.ensureLength(this.tokens.length);
    for (let i = 0; i < ts.length; i++) {
      const t = ts[i];
      if (seen.data[t] === v + 1) this.repeats.add(t, v);
      else seen.data[t] = v + 1;
      if (i > 0) this.pairValues.add(this.pairOrd.intern(ts[i - 1], t), v);
    }
  }

  /**
   * Value ordinals whose tokens hold `wanted` consecutively, in order; catchUp(values, true)
   * first. Each adjacent pair of the phrase must occur in the value; when the phrase's inner
   * tokens occur once there, the pairs chain at consecutive positions, which proves the phrase,
   * so only values repeating an inner token are tokenised again to check.
   */
  phraseValues(values: LeafList, wanted: readonly string[]): Bitmap {
    const ords: number[] = [];
    for (const tok of wanted) {
      const t = this.tokens.get(tok);
      if (t < 0) return new RoaringBitmap32();
      ords.push(t);
    }
    if (ords.length === 1) return this.values.bitmap(ords[0]);
    const lists: Bitmap[] = [];
    for (let i = 1; i < ords.length; i++) {
      const p = this.pairOrd.get(ords[i - 1], ords[i]);
      if (p < 0) return new RoaringBitmap32();
      lists.push(this.pairValues.bitmap(p));
    }
    lists.sort((a, b) => a.size - b.size);
    const acc = lists[0];
    for (let i = 1; i < lists.length && !acc.isEmpty; i++) acc.andInPlace(lists[i]);
    if (ords.length === 2 || acc.isEmpty) return acc;
    const unsure = this.repeats.union(ords.slice(1, -1)).andInPlace(acc);
    if (unsure.isEmpty) return acc;
    for (const v of unsure.toUint32Array()) {
      if (!tokensMatch(tokenize(values.at(v) as string), wanted, true)) acc.remove(v);
    }
    return acc;
  }

  /** Token ordinals in token order (for prefix scans). */
  sortedTokens(): number[] {
    this.sorted ??= this.tokens.sorted();
    return this.sorted;
  }
}
