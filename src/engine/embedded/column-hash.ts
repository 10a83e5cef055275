/**
 * An open-addressing hash table (linear probing, at most half full) from strings to the numbered
 * entries of a list holding them, in an Int32Array: nothing per entry lives in the JavaScript heap
 * (a Map of a million ids kept its entries there, made again in every part on the first write
 * after a restart). Entries are only added; a list may hold a string more than once
 * (a document's id again after a write), and find() takes an entry that the caller accepts.
 */

/** The strings a ColumnHash indexes: a StringColumn (bytes compared in place), or an array's. */
export interface HashedStrings {
  /** Whether entry i is `s`. */
  equals(i: number, s: string): boolean;
  /** hashOf the string entry i holds. */
  hashAt(i: number): number;
}

/** FNV-1a over the UTF-16 code units (StringColumn.hashAt of an entry holding `s` is the same). */
export function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class ColumnHash {
  /** entry + 1, 0 when free. */
  private table = new Int32Array(16);
  private count = 0;

  constructor(private readonly column: HashedStrings) {}

  /** The first entry holding `s` (with hash `h`, hashOf(s)) that `accept` takes, or -1. */
  find(s: string, h = hashOf(s), accept?: (entry: number) => boolean): number {
    const table = this.table;
    const mask = table.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const slot = table[i];
      if (slot === 0) return -1;
      if (this.column.equals(slot - 1, s) && (!accept || accept(slot - 1))) return slot - 1;
    }
  }

  /** Adds column entry `entry` (its hash `h` when the caller has it). */
  add(entry: number, h = this.column.hashAt(entry)): void {
    if (2 * (this.count + 1) > this.table.length) this.grow();
    this.place(this.table, entry, h);
    this.count++;
  }

  private place(table: Int32Array, entry: number, h: number): void {
    const mask = table.length - 1;
    let i = h & mask;
    while (table[i] !== 0) i = (i + 1) & mask;
    table[i] = entry + 1;
  }

  private grow(): void {
    const old = this.table;
    const table = new Int32Array(old.length * 2);
    for (let i = 0; i < old.length; i++) if (old[i] !== 0) this.place(table, old[i] - 1, this.column.hashAt(old[i] - 1));
    this.table = table;
  }
}
