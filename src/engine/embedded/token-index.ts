/**
 * Tokens of a slot's string values: token → the value ordinals containing it. Multi-token and
 * phrase matches intersect these per-value lists and verify candidate VALUES (never documents,
 * with token sequences recorded on the first phrase query),
 * then map the surviving values to units through the slot's postings. Built from the slot's
 * dictionary and caught up lazily, since the dictionary only ever grows.
 */
import { tokenize } from '../../model/tokenize.ts';
import type { Leaf } from '../../model/values-of.ts';
import { GrowableU32 } from './growable.ts';
import { PostingTable } from './posting-table.ts';

export class TokenIndex {
  readonly ordOf = new Map<string, number>();
  readonly tokens: string[] = [];
  /** token ordinal → value ordinals */
  readonly values = new PostingTable();
  /** Each value's token ordinals in order (concatenated; value v spans seqStart[v]..seqStart[v+1]). */
  readonly seqStart = new GrowableU32();
  readonly seq = new GrowableU32();
  private builtUpTo = 0;
  private sorted: number[] | undefined;

  /**
   * Tokenises the values added since the last call. With `sequences` (phrase queries), token
   * sequences are recorded in the same pass when they are up to date, so a value is tokenised
   * once; other token queries leave them out, since they can be larger than the values.
   */
  catchUp(values: readonly Leaf[], sequences = false): void {
    if (this.builtUpTo === values.length) return;
    if (sequences && this.seqStart.length === 0) this.seqStart.push(0);
    const withSeq = sequences && this.seqStart.length - 1 === this.builtUpTo;
    for (let v = this.builtUpTo; v < values.length; v++) {
      const value = values[v];
      if (typeof value === 'string') {
        for (const tok of tokenize(value)) {
          let t = this.ordOf.get(tok);
          if (t === undefined) {
            t = this.tokens.length;
            this.ordOf.set(tok, t);
            this.tokens.push(tok);
            this.sorted = undefined;
          }
          this.values.add(t, v);
          if (withSeq) this.seq.push(t);
        }
      }
      if (withSeq) this.seqStart.push(this.seq.length);
    }
    this.builtUpTo = values.length;
  }

  /** Records token sequences of values up to `values.length` (only phrases need them). */
  private sequences(values: readonly Leaf[]): void {
    if (this.seqStart.length === 0) this.seqStart.push(0);
    for (let v = this.seqStart.length - 1; v < values.length; v++) {
      const value = values[v];
      if (typeof value === 'string') for (const tok of tokenize(value)) this.seq.push(this.ordOf.get(tok)!);
      this.seqStart.push(this.seq.length);
    }
  }

  /**
   * True when value `v`'s tokens hold `wanted` (token ordinals) consecutively, in order. Call
   * catchUp(values) first.
   */
  hasSequence(values: readonly Leaf[], v: number, wanted: readonly number[]): boolean {
    if (this.seqStart.length <= values.length) this.sequences(values);
    const seq = this.seq.data;
    const end = this.seqStart.data[v + 1];
    const last = end - wanted.length;
    outer: for (let i = this.seqStart.data[v]; i <= last; i++) {
      for (let j = 0; j < wanted.length; j++) if (seq[i + j] !== wanted[j]) continue outer;
      return true;
    }
    return false;
  }

  /** Token ordinals in token order (for prefix scans). */
  sortedTokens(): number[] {
    if (!this.sorted) {
      const toks = this.tokens;
      this.sorted = toks.map((_, i) => i).sort((a, b) => (toks[a] < toks[b] ? -1 : toks[a] > toks[b] ? 1 : 0));
    }
    return this.sorted;
  }
}
