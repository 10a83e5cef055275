/**
 * The distinct tokens of a slot's values, numbered in the order they were first seen: token →
 * ordinal by an open-addressing hash table of typed arrays, ordinal → token from a string column,
 * both outside the JavaScript heap. A Map and an array of strings held every token of every
 * banner as a heap object (about a million at a million hosts, most of them dates, hashes and
 * other one-offs), which every scavenge walks past (docs/ARCHITECTURE.md, "Small objects").
 */
import { GrowableU32 } from './growable.ts';
import { StringColumn } from './string-column.ts';

/** FNV-1a over the UTF-16 code units. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class TokenDictionary {
  private readonly strings = new StringColumn();
  /** Each token's hash, to rehash without reading the tokens. */
  private readonly hashes = new GrowableU32();
  /** Open addressing, linear probing: ordinal + 1, 0 when free. At most half full. */
  private table = new Int32Array(1024);
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
    const h = hashOf(token);
    const mask = this.table.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const slot = this.table[i];
      if (slot === 0) return -1;
      if (this.hashes.data[slot - 1] === h && this.strings.equals(slot - 1, token)) return slot - 1;
    }
  }

  /** The ordinal of `token`, numbering it next when it is new. */
  intern(token: string): number {
    const h = hashOf(token);
    const mask = this.table.length - 1;
    let i = h & mask;
    for (; ; i = (i + 1) & mask) {
      const slot = this.table[i];
      if (slot === 0) break;
      if (this.hashes.data[slot - 1] === h && this.strings.equals(slot - 1, token)) return slot - 1;
    }
    const t = this.strings.length;
    this.strings.push(token);
    this.hashes.push(h);
    if (this.strings.wide(t)) this.wide.push(t);
    this.table[i] = t + 1;
    if (2 * (t + 1) > this.table.length) this.grow();
    return t;
  }

  private grow(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    const hashes = this.hashes.data;
    for (let t = 0; t < this.strings.length; t++) {
      let i = hashes[t] & mask;
      while (table[i] !== 0) i = (i + 1) & mask;
      table[i] = t + 1;
    }
    this.table = table;
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
