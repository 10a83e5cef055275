/**
 * A slot's term dictionary as it is persisted and opened (segment format 5): every value, by
 * ordinal, packed into one buffer outside the JavaScript heap, with an offset per value and a
 * hash table for exact lookups built on first use.
 *
 * Held as JavaScript strings in an array and a Map, the values of a decoded slot lived in the
 * heap that every major garbage collection walks (at 1,000,000 hosts the banners alone are
 * 1.36 M strings of 290 M characters, a third of a serving process's heap), and decoding one
 * meant parsing its JSON (5.4 s for the banners at 1M hosts, against 2.0 s packed). Here decoding is a copy of bytes, a value is
 * materialised only when it is read, and the memory is the bytes themselves plus 4 bytes of
 * offset per value (and 4-8 bytes of hash table once exact lookups were asked for).
 *
 * Each value is a tag byte and its payload, so the type and every code unit come back exactly
 * (lone surrogates included, which UTF-8 could not keep):
 * - 0 string whose code units are all below 256, one byte each (Latin-1);
 * - 1 any other string, its UTF-16 code units little-endian;
 * - 2 number, float64 little-endian; 3 false; 4 true.
 * Lookups use SameValueZero, as the Map they replace did (0 finds -0).
 */
import type { Leaf } from '../../model/values-of.ts';
import { CorruptSegmentError, type SegmentReader, type SegmentWriter } from './segment-codec.ts';

/** What reads a slot's values by ordinal: a plain array or a slot's packed-plus-tail list. */
export interface LeafList {
  readonly length: number;
  at(ord: number): Leaf | undefined;
}

const LATIN1 = 0;
const UTF16 = 1;
const NUMBER = 2;
const FALSE = 3;
const TRUE = 4;

/** Strings longer than this are written by one native call; shorter ones by a loop here (cheaper than the call). */
const NATIVE_WRITE_CHARS = 24;
/** The offsets are 32-bit: a slot's packed values must stay below 4 GiB. */
const MAX_BYTES = 2 ** 32 - 1;

function checkSize(total: number): void {
  if (total > MAX_BYTES) throw new RangeError(`a slot's values take ${total} bytes packed, more than the 4 GiB a segment can address`);
}

const scratchF64 = new Float64Array(1);
const scratchU8 = new Uint8Array(scratchF64.buffer);

function isLatin1(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) return false;
  return true;
}

function encodedBytes(v: Leaf): number {
  if (typeof v === 'string') return 1 + (isLatin1(v) ? v.length : 2 * v.length);
  return typeof v === 'number' ? 9 : 1;
}

/** FNV-1a over 16-bit units (a Latin-1 byte is its unit), the same whether read from a string or from packed bytes. */
function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function hashNumber(n: number): number {
  scratchF64[0] = n === 0 ? 0 : n;
  let h = 0x811c9dc5 ^ 0x55;
  for (let i = 0; i < 8; i++) h = Math.imul(h ^ scratchU8[i], 0x01000193);
  return h >>> 0;
}

const HASH_FALSE = 0x9e3779b1;
const HASH_TRUE = 0x7f4a7c15;

function hashLeaf(v: Leaf): number {
  if (typeof v === 'string') return hashString(v);
  if (typeof v === 'number') return hashNumber(v);
  return v ? HASH_TRUE : HASH_FALSE;
}

export class PackedLeaves implements LeafList {
  /** Exact lookups: open addressing over ordinal + 1 (0 is an empty cell), built on the first one. */
  private table: Int32Array | undefined;
  /** Ordinals [0, tableUpTo) are in `table`. */
  private tableUpTo = 0;

  private constructor(
    /** Every value's tag and payload, by ordinal. */
    readonly bytes: Buffer,
    /** Value v occupies bytes [offsets[v], offsets[v + 1]). */
    readonly offsets: Uint32Array,
  ) {}

  get length(): number {
    return this.offsets.length - 1;
  }

  /** Packs `list[from, to)`. */
  static of(list: LeafList, from = 0, to = list.length): PackedLeaves {
    let total = 0;
    for (let v = from; v < to; v++) total += encodedBytes(list.at(v)!);
    checkSize(total);
    const bytes = Buffer.allocUnsafe(total);
    const offsets = new Uint32Array(to - from + 1);
    let pos = 0;
    for (let v = from; v < to; v++) {
      offsets[v - from] = pos;
      pos = writeLeaf(bytes, pos, list.at(v)!);
    }
    offsets[to - from] = pos;
    return new PackedLeaves(bytes, offsets);
  }

  /** `this` followed by `tail`, with this part copied byte for byte. */
  concat(tail: LeafList): PackedLeaves {
    if (tail.length === 0) return this;
    const more = PackedLeaves.of(tail);
    const base = this.bytes.length;
    checkSize(base + more.bytes.length);
    const bytes = Buffer.concat([this.bytes, more.bytes]);
    const n = this.length;
    const offsets = new Uint32Array(n + more.length + 1);
    offsets.set(this.offsets.subarray(0, n));
    for (let i = 0; i <= more.length; i++) offsets[n + i] = base + more.offsets[i];
    return new PackedLeaves(bytes, offsets);
  }

  at(ord: number): Leaf | undefined {
    if (!(ord >= 0 && ord < this.offsets.length - 1)) return undefined;
    const start = this.offsets[ord];
    const end = this.offsets[ord + 1];
    const bytes = this.bytes;
    switch (bytes[start]) {
      case LATIN1:
        return bytes.toString('latin1', start + 1, end);
      case UTF16:
        return bytes.toString('utf16le', start + 1, end);
      case NUMBER:
        return bytes.readDoubleLE(start + 1);
      case FALSE:
        return false;
      default:
        return true;
    }
  }

  /** The ordinal of `leaf`, or -1 (SameValueZero, like a Map key). */
  indexOf(leaf: Leaf): number {
    if (this.table === undefined || this.tableUpTo !== this.offsets.length - 1) this.prepareLookups();
    const table = this.table!;
    const mask = table.length - 1;
    for (let i = hashLeaf(leaf) & mask; ; i = (i + 1) & mask) {
      const e = table[i];
      if (e === 0) return -1;
      if (this.holds(e - 1, leaf)) return e - 1;
    }
  }

  /** Whether every value is a string (a list of terms). */
  allStrings(): boolean {
    const { bytes, offsets } = this;
    for (let v = 0; v + 1 < offsets.length; v++) if (bytes[offsets[v]] > UTF16) return false;
    return true;
  }

  /** Whether value `ord` is `leaf`, compared in place (no string is made). */
  private holds(ord: number, leaf: Leaf): boolean {
    const start = this.offsets[ord];
    const end = this.offsets[ord + 1];
    const bytes = this.bytes;
    const tag = bytes[start];
    if (typeof leaf === 'string') {
      const n = leaf.length;
      if (tag === LATIN1) {
        if (end - start - 1 !== n) return false;
        for (let i = 0, p = start + 1; i < n; i++, p++) if (leaf.charCodeAt(i) !== bytes[p]) return false;
        return true;
      }
      if (tag !== UTF16 || end - start - 1 !== 2 * n) return false;
      for (let i = 0, p = start + 1; i < n; i++, p += 2) if (leaf.charCodeAt(i) !== (bytes[p] | (bytes[p + 1] << 8))) return false;
      return true;
    }
    if (typeof leaf === 'number') {
      if (tag !== NUMBER) return false;
      const x = bytes.readDoubleLE(start + 1);
      return x === leaf || (x !== x && leaf !== leaf);
    }
    return tag === (leaf ? TRUE : FALSE);
  }

  private hashAt(ord: number): number {
    const start = this.offsets[ord];
    const end = this.offsets[ord + 1];
    const bytes = this.bytes;
    switch (bytes[start]) {
      case LATIN1: {
        let h = 0x811c9dc5;
        for (let p = start + 1; p < end; p++) h = Math.imul(h ^ bytes[p], 0x01000193);
        return h >>> 0;
      }
      case UTF16: {
        let h = 0x811c9dc5;
        for (let p = start + 1; p < end; p += 2) h = Math.imul(h ^ (bytes[p] | (bytes[p + 1] << 8)), 0x01000193);
        return h >>> 0;
      }
      case NUMBER:
        return hashNumber(bytes.readDoubleLE(start + 1));
      case FALSE:
        return HASH_FALSE;
      default:
        return HASH_TRUE;
    }
  }

  /**
   * Builds the lookup table by at most `budget` more values (the background warm-up advances in
   * slices); true when complete. At most half full; the values of a dictionary are distinct, so
   * every ordinal gets its own cell.
   */
  prepareLookups(budget = Infinity): boolean {
    const n = this.length;
    if (this.table === undefined) {
      let cap = 16;
      while (cap < 2 * n) cap *= 2;
      this.table = new Int32Array(cap);
    }
    const table = this.table;
    const mask = table.length - 1;
    const end = Math.min(n, this.tableUpTo + budget);
    for (let ord = this.tableUpTo; ord < end; ord++) {
      let i = this.hashAt(ord) & mask;
      while (table[i] !== 0) i = (i + 1) & mask;
      table[i] = ord + 1;
    }
    this.tableUpTo = end;
    return end === n;
  }

  write(w: SegmentWriter): void {
    w.u32s(this.offsets);
    w.bytes(this.bytes);
  }

  /** Reads write()'s output, checking every offset and tag: corrupt input must fail here, not at a later read. */
  static read(r: SegmentReader): PackedLeaves {
    const offsets = r.u32s();
    // A view keeps the whole block alive (its postings and forward columns are copied out of
    // it), so it is kept only where the values are most of the block; otherwise they are copied.
    // Copying 290 MB of banners cost a second allocation of that size and its page faults (1 s).
    const view = r.sharedBytes();
    const bytes = view.length * 2 >= r.size ? view : Buffer.from(view);
    if (offsets.length === 0 || offsets[0] !== 0 || offsets[offsets.length - 1] !== bytes.length) {
      throw new CorruptSegmentError('packed values: offsets do not span the bytes');
    }
    for (let v = 0; v + 1 < offsets.length; v++) {
      const start = offsets[v];
      const len = offsets[v + 1] - start;
      if (len < 1) throw new CorruptSegmentError('packed values: offsets out of order');
      const tag = bytes[start];
      const ok = tag === LATIN1 || (tag === UTF16 && len % 2 === 1) || (tag === NUMBER && len === 9) || ((tag === FALSE || tag === TRUE) && len === 1);
      if (!ok) throw new CorruptSegmentError('packed values: bad value encoding');
    }
    return new PackedLeaves(bytes, offsets);
  }
}

function writeLeaf(bytes: Buffer, pos: number, v: Leaf): number {
  if (typeof v === 'string') {
    const n = v.length;
    if (isLatin1(v)) {
      bytes[pos++] = LATIN1;
      if (n > NATIVE_WRITE_CHARS) return pos + bytes.write(v, pos, n, 'latin1');
      for (let i = 0; i < n; i++) bytes[pos++] = v.charCodeAt(i);
      return pos;
    }
    bytes[pos++] = UTF16;
    for (let i = 0; i < n; i++) {
      const c = v.charCodeAt(i);
      bytes[pos++] = c & 0xff;
      bytes[pos++] = c >>> 8;
    }
    return pos;
  }
  if (typeof v === 'number') {
    bytes[pos++] = NUMBER;
    bytes.writeDoubleLE(v, pos);
    return pos + 8;
  }
  bytes[pos++] = v ? TRUE : FALSE;
  return pos;
}

/**
 * A slot's values: those its segments held when it was decoded (packed, outside the heap), then
 * those added since (JavaScript values, with the Map that finds them in the slot).
 */
export class SlotLeaves implements LeafList {
  constructor(
    readonly base: PackedLeaves | undefined,
    readonly tail: Leaf[] = [],
  ) {}

  get baseLength(): number {
    return this.base === undefined ? 0 : this.base.length;
  }

  get length(): number {
    return this.baseLength + this.tail.length;
  }

  at(ord: number): Leaf | undefined {
    const base = this.base;
    if (base === undefined) return this.tail[ord];
    const n = base.length;
    return ord < n ? base.at(ord) : this.tail[ord - n];
  }

  push(v: Leaf): void {
    this.tail.push(v);
  }

  /** Values [from, to) as an array. */
  slice(from: number, to = this.length): Leaf[] {
    const out: Leaf[] = [];
    for (let v = from; v < to; v++) out.push(this.at(v)!);
    return out;
  }

  /** Everything packed: the base copied as it is, the tail encoded after it. */
  packed(): PackedLeaves {
    const base = this.base;
    return base === undefined ? PackedLeaves.of(this.tail) : base.concat(this.tail);
  }
}
