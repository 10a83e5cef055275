/**
 * Tokens of a slot's string values: token → the value ordinals containing it. Multi-token and
 * phrase matches intersect these per-value lists and verify candidate VALUES (never documents),
 * then map the surviving values to units through the slot's postings. Built from the slot's
 * dictionary and caught up lazily, since the dictionary only ever grows.
 */
import { tokenize } from '../../model/tokenize.ts';
import type { Leaf } from '../../model/values-of.ts';
import { PostingTable } from './posting-table.ts';

export class TokenIndex {
  readonly ordOf = new Map<string, number>();
  readonly tokens: string[] = [];
  /** token ordinal → value ordinals */
  readonly values = new PostingTable();
  private builtUpTo = 0;
  private sorted: number[] | undefined;

  catchUp(values: readonly Leaf[]): void {
    if (this.builtUpTo === values.length) return;
    for (let v = this.builtUpTo; v < values.length; v++) {
      const value = values[v];
      if (typeof value !== 'string') continue;
      for (const tok of tokenize(value)) {
        let t = this.ordOf.get(tok);
        if (t === undefined) {
          t = this.tokens.length;
          this.ordOf.set(tok, t);
          this.tokens.push(tok);
          this.sorted = undefined;
        }
        this.values.add(t, v);
      }
    }
    this.builtUpTo = values.length;
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
