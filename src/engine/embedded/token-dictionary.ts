/**
 * The distinct tokens of a slot's values, numbered in the order they were first seen: token →
 * ordinal by a hash table of typed arrays (column-hash.ts), ordinal → token from a string column,
 * both outside the JavaScript heap. A Map and an array of strings held every distinct token as a
 * heap object (205,086 for the banners of 200,000 demo hosts, most of them dates, hashes and other
 * one-offs), pages that every scavenge walks past (docs/ARCHITECTURE.md, "Small objects").
 */
import { ColumnHash, hashOf } from './column-hash.ts';
import { StringColumn } from './string-column.ts';

export class TokenDictionary {
  private readonly strings = new StringColumn();
  private readonly byToken = new ColumnHash(this.strings);
  /** Ordinals of the tokens with a code unit above 255 (which latin1Containing does not see). */
  private readonly wide: number[] = [];

  get length(): number {
    return this.strings.length;
  }

  at(t: number): string {
    return this.strings.at(t);
  }

  /** Every ordinal, ascending. */
  *ordinals(): Generator<number> {
    for (let t = 0; t < this.length; t++) yield t;
  }

  /** The ordinal of `token`, or -1. */
  get(token: string): number {
    return this.byToken.find(token);
  }

  /** The ordinal of `token`, numbering it next when it is new. */
  intern(token: string): number {
    const h = hashOf(token);
    const found = this.byToken.find(token, h);
    if (found >= 0) return found;
    const t = this.strings.length;
    this.strings.push(token);
    this.byToken.add(t, h);
    if (this.strings.wide(t)) this.wide.push(t);
    return t;
  }

  /** Ordinals of the tokens holding `want` (ending with it when `atEnd`), ascending. */
  containing(want: string, atEnd: boolean): number[] {
    const out: number[] = [];
    const test = (t: number): boolean => (atEnd ? this.at(t).endsWith(want) : this.at(t).includes(want));
    if (want.length === 0) {
      for (let t = 0; t < this.length; t++) out.push(t);
      return out;
    }
    // Latin-1 tokens cannot hold a wider code unit; a NUL is searched for token by token.
    let latin1 = true;
    for (let i = 0; i < want.length && latin1; i++) {
      const c = want.charCodeAt(i);
      latin1 = c > 0 && c <= 0xff;
    }
    if (latin1) this.strings.latin1Containing(want, atEnd, out);
    else if (want.includes('\0')) for (let t = 0; t < this.length; t++) if (!this.strings.wide(t) && test(t)) out.push(t);
    const wide = this.wide.filter(test);
    if (wide.length === 0) return out;
    return [...out, ...wide].sort((a, b) => a - b);
  }

  /**
   * Ordinals in token order. The tokens are read as strings for the sort and dropped after it:
   * the native comparison of two strings is several times faster than comparing their bytes here.
   */
  sorted(): number[] {
    const keys = Array.from({ length: this.length }, (_, t) => this.at(t));
    return keys.map((_, t) => t).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  }
}
