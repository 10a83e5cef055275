/**
 * A slot's term dictionary as it is persisted and opened (segment format 6): every value encoded
 * as bytes, sorted, and front-coded in blocks of 16, in one buffer outside the JavaScript heap,
 * with the permutation between sorted position (rank) and ordinal. Exact lookups are a binary
 * search over the blocks' first values and a scan of one block; nothing is built for them.
 *
 * Held as JavaScript strings in an array and a Map, the values of a decoded slot lived in the
 * heap that every major garbage collection walks (at 1,000,000 hosts the banners alone are
 * 1.36 M strings of 290 M characters), and decoding one meant parsing its JSON. Format 5 packed
 * them in ordinal order and built a hash table on the first exact lookup (637 ms for the banners
 * at 1M hosts, on every restart); sorted, a lookup needs no table, neighbours share prefixes
 * (headers, addresses, dates), and values with a given prefix are one range of ranks.
 *
 * Ordinals stay insertion order, so postings and forward columns never change when values are
 * packed: only `ordOf` (rank → ordinal, persisted), `rankOf` (its inverse) and `posOf` (where
 * each ordinal's entry starts), both derived at read, know the sorted order. The memory is the
 * front-coded bytes plus 12 bytes per value.
 *
 * Each value is a tag byte and a payload, chosen so that comparing the bytes orders values:
 * - 0 string whose code units are all below 256, one byte each (Latin-1);
 * - 1 any other string, its UTF-16 code units big-endian (so byte order is code-unit order, as
 *   JavaScript compares strings, and lone surrogates come back exactly);
 * - 2 number, its float64 bits big-endian with the sign bit flipped for positives and every bit
 *   flipped for negatives (numeric order; -0 before 0; NaN last);
 * - 3 false; 4 true.
 * Lookups use SameValueZero, as the Map they replace did (0 finds -0).
 *
 * A block's first entry is stored whole; each other one as the length it shares with that first
 * entry, then the rest: varint(shared), varint(rest length), rest bytes. (Sharing with the entry
 * before would save 10% more, but reading one value would then copy from every entry before it.)
 * Reading by ordinal costs 0.18 µs a value against 0.06 in format 5's ordinal order, over the
 * slots of a 100,000-host index: the copies, and the jumps between blocks.
 */
import type { Leaf } from '../../model/values-of.ts';
import { CorruptSegmentError, type SegmentReader, type SegmentWriter } from './segment-codec.ts';
import { compareBytes, sortByteStrings } from './byte-sort.ts';

/** What reads a slot's values by ordinal: a plain array or a slot's packed-plus-tail list. */
export interface LeafList {
  readonly length: number;
  at(ord: number): Leaf | undefined;
}

export const LATIN1 = 0;
export const UTF16 = 1;
const NUMBER = 2;
const FALSE = 3;
const TRUE = 4;

/** Entries per front-coded block: reading one value decodes at most this many. */
const BLOCK = 16;
const BLOCK_SHIFT = 4;
/** Strings longer than this are written by one native call; shorter ones by a loop here (cheaper than the call). */
const NATIVE_CHARS = 24;
/** Byte runs longer than this are copied by Buffer.copy, shorter ones by a loop (cheaper than the call's checks). */
const COPY_LOOP_BYTES = 24;
/** Block offsets are 32-bit: a slot's packed values must stay below 4 GiB. */
const MAX_BYTES = 2 ** 32 - 1;

/** A growable byte buffer for one value's encoding. */
class Scratch {
  buf = Buffer.allocUnsafe(256);
  len = 0;

  ensure(n: number): void {
    if (n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(n, this.buf.length * 2));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
}

/** The key being looked up, and the value being decoded: single-threaded, never reentered. */
const key = new Scratch();
const value = new Scratch();
const numberBytes = Buffer.allocUnsafe(8);

/** A code unit above 0xff (without the u flag a regular expression reads code units, lone surrogates included). */
const NOT_LATIN1 = /[^\u0000-\u00ff]/;

/** Whether every code unit of `s` is below 0x100. V8's regular expression scans about eight times as fast as a charCodeAt loop. */
export function isLatin1(s: string): boolean {
  return !NOT_LATIN1.test(s);
}

/**
 * Writes string `s` as a tag and its code units at `b[p..]` (room for 1 + length bytes when
 * `latin1`, else 1 + 2 x length); returns where it ends. Shared with string columns.
 */
export function writeString(b: Buffer, p: number, s: string, latin1: boolean): number {
  const n = s.length;
  if (latin1) {
    b[p++] = LATIN1;
    if (n > NATIVE_CHARS) return p + b.write(s, p, n, 'latin1');
    for (let i = 0; i < n; i++) b[p++] = s.charCodeAt(i);
    return p;
  }
  b[p++] = UTF16;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    b[p++] = c >>> 8;
    b[p++] = c & 0xff;
  }
  return p;
}

/** The string writeString wrote in `b[a, e)`. Shared with string columns. */
export function readString(b: Buffer, a: number, e: number): string {
  if (b[a] === LATIN1) return b.toString('latin1', a + 1, e);
  const units = Buffer.from(b.subarray(a + 1, e));
  units.swap16();
  return units.toString('utf16le');
}

/** Encodes `v` into `out` (tag and payload); `latin1` says whether a string fits one byte per code unit. */
function encode(v: Leaf, latin1: boolean, out: Scratch): void {
  out.ensure(encodedLength(v, latin1));
  out.len = encodeAt(v, latin1, out.buf, 0);
}

/** The bytes of `v`'s encoding. */
function encodedLength(v: Leaf, latin1: boolean): number {
  if (typeof v === 'string') return 1 + (latin1 ? v.length : 2 * v.length);
  return typeof v === 'number' ? 9 : 1;
}

/** Writes `v`'s encoding at `b[p]` (room for encodedLength(v)); returns where it ends. */
function encodeAt(v: Leaf, latin1: boolean, b: Buffer, p: number): number {
  if (typeof v === 'string') return writeString(b, p, v, latin1);
  if (typeof v === 'number') {
    b[p] = NUMBER;
    // Every NaN is the same value to JavaScript: write one bit pattern, so there is one key.
    b.writeDoubleBE(v === v ? v : NaN, p + 1);
    if (b[p + 1] & 0x80) for (let i = 1; i < 9; i++) b[p + i] ^= 0xff;
    else b[p + 1] ^= 0x80;
    return p + 9;
  }
  b[p] = v ? TRUE : FALSE;
  return p + 1;
}

/** The value encoded in `b[0, len)`. */
function decode(b: Buffer, len: number): Leaf {
  switch (b[0]) {
    case LATIN1:
    case UTF16:
      return readString(b, 0, len);
    case NUMBER: {
      for (let i = 0; i < 8; i++) numberBytes[i] = b[1 + i];
      if (numberBytes[0] & 0x80) numberBytes[0] ^= 0x80;
      else for (let i = 0; i < 8; i++) numberBytes[i] ^= 0xff;
      return numberBytes.readDoubleBE(0);
    }
    case FALSE:
      return false;
    default:
      return true;
  }
}

/** Whether the last lowerBound() found the key itself. */
let foundExact = false;

/** Position after the varint at `p` is read (the value is in `varint`). */
let varint = 0;
function readVarint(b: Buffer, p: number): number {
  let x = 0;
  let shift = 0;
  for (;;) {
    const c = b[p++];
    x += (c & 0x7f) * 2 ** shift;
    // Past the end `c` is undefined: stop (read() checked every varint of valid data).
    if (!(c >= 0x80)) break;
    shift += 7;
  }
  varint = x;
  return p;
}

/** Appends sorted, distinct encodings and their ordinals into front-coded blocks. */
class FrontCoder {
  private data: Buffer;
  private pos = 0;
  private readonly starts: Uint32Array;
  readonly ordOf: Uint32Array;
  /** Ordinal → where its entry starts. */
  private readonly posOf: Uint32Array;
  private count = 0;
  /** The current block's first entry: the others are stored as what they share with it, then the rest. */
  private readonly head = new Scratch();
  private strings = 0;

  constructor(
    readonly n: number,
    /** A guess of the bytes needed: the buffer grows past it if needed. */
    bytesGuess: number,
  ) {
    this.data = Buffer.allocUnsafe(Math.max(64, bytesGuess));
    this.starts = new Uint32Array(((n + BLOCK - 1) >>> BLOCK_SHIFT) + 1);
    this.ordOf = new Uint32Array(n);
    this.posOf = new Uint32Array(n);
  }

  /** Adds the encoding `b[off, off + len)`, which sorts after the last one added. */
  add(b: Buffer, off: number, len: number, ord: number): void {
    const head = this.head;
    let shared = 0;
    const first = (this.count & (BLOCK - 1)) === 0;
    if (first) this.starts[this.count >>> BLOCK_SHIFT] = this.pos;
    else {
      const max = Math.min(head.len, len);
      const h = head.buf;
      while (shared < max && h[shared] === b[off + shared]) shared++;
    }
    const rest = len - shared;
    if (this.pos + 10 + rest > this.data.length) {
      const next = Buffer.allocUnsafe(Math.max(this.pos + 10 + rest, Math.floor(this.data.length * 1.5)));
      this.data.copy(next, 0, 0, this.pos);
      this.data = next;
    }
    const d = this.data;
    let p = this.pos;
    this.posOf[ord] = p;
    p = writeVarint(d, p, shared);
    p = writeVarint(d, p, rest);
    copyBytes(b, off + shared, d, p, rest);
    p += rest;
    if (p > MAX_BYTES) throw new RangeError(`a slot's values take more than the 4 GiB a segment can address packed`);
    this.pos = p;
    if (first) {
      head.ensure(len);
      b.copy(head.buf, 0, off, off + len);
      head.len = len;
    }
    if (b[off] <= UTF16) this.strings++;
    this.ordOf[this.count++] = ord;
  }

  finish(): PackedLeaves {
    if (this.count !== this.n) throw new Error(`front coder: ${this.count} values added of ${this.n}`);
    this.starts[this.starts.length - 1] = this.pos;
    // Keep the buffer when it is mostly used; otherwise copy the used part out.
    const bytes = this.pos * 4 >= this.data.length * 3 ? this.data.subarray(0, this.pos) : Buffer.from(this.data.subarray(0, this.pos));
    return new PackedLeaves(bytes, this.starts, this.ordOf, this.posOf, this.strings);
  }
}

function writeVarint(d: Buffer, p: number, x: number): number {
  while (x >= 0x80) {
    d[p++] = (x & 0x7f) | 0x80;
    x = Math.floor(x / 128);
  }
  d[p++] = x;
  return p;
}

export class PackedLeaves implements LeafList {
  /** Ordinal → rank (position in sorted order), the inverse of `ordOf`. */
  private readonly rankOf: Uint32Array;
  /** Use of(), concat() or read(). */
  constructor(
    /** The front-coded entries, sorted. */
    readonly bytes: Buffer,
    /** Block b's entries start at starts[b]; the last element is the byte count. */
    readonly starts: Uint32Array,
    /** Rank → ordinal. */
    private readonly ordOf: Uint32Array,
    /** Ordinal → where its entry starts in `bytes` (known to whoever wrote or checked them). */
    private readonly posOf: Uint32Array,
    /** How many of the values are strings. */
    private readonly strings: number,
  ) {
    const rankOf = new Uint32Array(ordOf.length);
    for (let r = 0; r < ordOf.length; r++) rankOf[ordOf[r]] = r;
    this.rankOf = rankOf;
  }

  get length(): number {
    return this.ordOf.length;
  }

  /** Packs `list[from, to)`; value `from + i` gets ordinal i. */
  static of(list: LeafList, from = 0, to = list.length): PackedLeaves {
    const { bytes, at, order } = sortedEncodings(list, from, to);
    const n = order.length;
    const coder = new FrontCoder(n, bytes.length + 2 * n);
    for (let r = 0; r < n; r++) {
      const i = order[r];
      coder.add(bytes, at[i], at[i + 1] - at[i], i);
    }
    return coder.finish();
  }

  /** `this` followed by `tail` (ordinals `length` on): the sorted runs are merged, this part without decoding its values. */
  concat(tail: LeafList): PackedLeaves {
    const m = tail.length;
    if (m === 0) return this;
    const n = this.length;
    const { bytes, at, order } = sortedEncodings(tail, 0, m);
    const coder = new FrontCoder(n + m, this.bytes.length + bytes.length + 2 * m);
    const cursor = new Cursor(this);
    let hasBase = cursor.next();
    let t = 0;
    while (hasBase || t < m) {
      const i = t < m ? order[t] : 0;
      if (t >= m || (hasBase && compareBytes(cursor.buf, 0, cursor.len, bytes, at[i], at[i + 1] - at[i]) < 0)) {
        coder.add(cursor.buf, 0, cursor.len, this.ordOf[cursor.rank]);
        hasBase = cursor.next();
      } else {
        coder.add(bytes, at[i], at[i + 1] - at[i], n + i);
        t++;
      }
    }
    return coder.finish();
  }

  at(ord: number): Leaf | undefined {
    if (!(ord >= 0 && ord < this.ordOf.length) || ord !== Math.floor(ord)) return undefined;
    const data = this.bytes;
    // The value is the first `shared` bytes of its block's first entry (stored whole), then its rest.
    let p = readVarint(data, this.posOf[ord]);
    const shared = varint;
    p = readVarint(data, p);
    const rest = varint;
    const len = shared + rest;
    const out = value;
    out.ensure(len);
    const buf = out.buf;
    if (shared > 0) {
      let h = readVarint(data, this.starts[this.rankOf[ord] >>> BLOCK_SHIFT]);
      h = readVarint(data, h);
      copyBytes(data, h, buf, 0, shared);
    }
    copyBytes(data, p, buf, shared, rest);
    return decode(buf, len);
  }

  /** The ordinal of `leaf`, or -1 (SameValueZero, like a Map key). */
  indexOf(leaf: Leaf): number {
    const latin1 = typeof leaf === 'string' && isLatin1(leaf);
    encode(leaf, latin1, key);
    const rank = this.rankOfKey(key.buf, key.len);
    if (rank >= 0) return this.ordOf[rank];
    if (leaf === 0) {
      // 0 and -0 are one key of a Map; the dictionary holds whichever came first.
      encode(Object.is(leaf, -0) ? 0 : -0, false, key);
      const other = this.rankOfKey(key.buf, key.len);
      if (other >= 0) return this.ordOf[other];
    }
    return -1;
  }

  /** Every value in sorted order (tests, diagnostics). */
  sortedValues(): Leaf[] {
    const out: Leaf[] = [];
    this.forEach((_, v) => out.push(v));
    return out;
  }

  /**
   * Calls `fn` with every value and its ordinal, in sorted order: the bytes are read front to
   * back, copying only what changes from one value to the next (0.10 µs a value over the slots
   * of a 100,000-host index, against 0.18 µs reading them by ordinal).
   */
  forEach(fn: (ord: number, value: Leaf) => void): void {
    const c = new Cursor(this);
    const ordOf = this.ordOf;
    while (c.next()) fn(ordOf[c.rank], decode(c.buf, c.len));
  }

  /** Whether every value is a string (a list of terms). */
  allStrings(): boolean {
    return this.strings === this.ordOf.length;
  }

  /** The rank of the encoding `k[0, klen)`, or -1. */
  private rankOfKey(k: Buffer, klen: number): number {
    const r = this.lowerBound(k, klen);
    return foundExact ? r : -1;
  }

  /**
   * The rank of the first value whose encoding is at least `k[0, klen)` (the length when there
   * is none); `foundExact` says whether it is equal.
   */
  private lowerBound(k: Buffer, klen: number): number {
    foundExact = false;
    const n = this.ordOf.length;
    if (n === 0) return 0;
    const data = this.bytes;
    const starts = this.starts;
    // The last block whose first entry is at most the key.
    let lo = 0;
    let hi = (n - 1) >>> BLOCK_SHIFT;
    let block = -1;
    let headCommon = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      let p = readVarint(data, starts[mid]);
      p = readVarint(data, p);
      const len = varint;
      const max = Math.min(len, klen);
      let i = 0;
      while (i < max && data[p + i] === k[i]) i++;
      const c = i < max ? data[p + i] - k[i] : len - klen;
      if (c <= 0) {
        if (c === 0) {
          foundExact = true;
          return mid << BLOCK_SHIFT;
        }
        block = mid;
        headCommon = i;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (block < 0) return 0;
    // Scan the block. The key is above its first entry and shares `common` bytes with it. An
    // entry sharing fewer bytes with the first one is above the key (it differs from the first
    // entry where the key does not); one sharing more is below it; only one sharing exactly that
    // many is compared further.
    const common = headCommon;
    let p = starts[block];
    p = readVarint(data, p);
    p = readVarint(data, p);
    p += varint;
    const end = Math.min(n, (block + 1) << BLOCK_SHIFT);
    for (let r = (block << BLOCK_SHIFT) + 1; r < end; r++) {
      p = readVarint(data, p);
      const shared = varint;
      p = readVarint(data, p);
      const rest = varint;
      if (shared < common) return r;
      if (shared === common) {
        let j = 0;
        while (j < rest && common + j < klen && data[p + j] === k[common + j]) j++;
        const at = common + j;
        if (j === rest) {
          if (at === klen) {
            foundExact = true;
            return r;
          }
          // The entry is a proper prefix of the key: below it.
        } else if (at === klen || data[p + j] > k[at]) return r;
      }
      p += rest;
    }
    return end;
  }

  /** Calls `fn` with every string value starting with `prefix` (code units) and its ordinal, in sorted order. */
  forEachWithPrefix(prefix: string, fn: (ord: number, value: string) => void): void {
    // Latin-1 strings come first, then the others; a prefix that is not Latin-1 starts only the latter.
    if (isLatin1(prefix)) this.forEachFrom(prefix, true, fn);
    this.forEachFrom(prefix, false, fn);
  }

  private forEachFrom(prefix: string, latin1: boolean, fn: (ord: number, value: string) => void): void {
    encode(prefix, latin1, key);
    const k = Buffer.from(key.buf.subarray(0, key.len));
    const c = new Cursor(this);
    c.seek(this.lowerBound(k, k.length));
    const ordOf = this.ordOf;
    while (c.next()) {
      if (c.len < k.length) return;
      const b = c.buf;
      for (let i = 0; i < k.length; i++) if (b[i] !== k[i]) return;
      fn(ordOf[c.rank], decode(b, c.len) as string);
    }
  }

  write(w: SegmentWriter): void {
    w.u32s(this.ordOf);
    w.u32s(this.starts);
    w.bytes(this.bytes);
  }

  /**
   * Reads write()'s output, checking the permutation, every block boundary, varint, length and
   * tag: corrupt input must fail here, not at a later read. (The sort order itself is what the
   * block's CRC vouches for.)
   */
  static read(r: SegmentReader): PackedLeaves {
    const ordOf = r.u32s();
    const starts = r.u32s();
    // A view keeps the whole block alive (its postings and forward columns are copied out of
    // it), so it is kept only where the values are most of the block; otherwise they are copied.
    // Copying 290 MB of banners cost a second allocation of that size and its page faults (1 s).
    const view = r.sharedBytes();
    const bytes = view.length * 2 >= r.size ? view : Buffer.from(view);
    const n = ordOf.length;
    const blocks = (n + BLOCK - 1) >>> BLOCK_SHIFT;
    if (starts.length !== blocks + 1 || starts[0] !== 0 || starts[blocks] !== bytes.length) {
      throw new CorruptSegmentError('packed values: blocks do not span the bytes');
    }
    const seen = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const o = ordOf[i];
      if (o >= n || seen[o] === 1) throw new CorruptSegmentError('packed values: ordinals are not a permutation');
      seen[o] = 1;
    }
    const posOf = new Uint32Array(n);
    let strings = 0;
    let tag = -1;
    for (let b = 0; b < blocks; b++) {
      let p = starts[b];
      const stop = starts[b + 1];
      if (stop < p) throw new CorruptSegmentError('packed values: blocks out of order');
      let headLen = 0;
      let headTag = -1;
      const count = Math.min(BLOCK, n - (b << BLOCK_SHIFT));
      for (let e = 0; e < count; e++) {
        posOf[ordOf[(b << BLOCK_SHIFT) + e]] = p;
        const shared = checkedVarint(bytes, p, stop);
        p = varintEnd;
        const rest = checkedVarint(bytes, p, stop);
        p = varintEnd;
        const len = shared + rest;
        if (shared > headLen || (e === 0 && shared !== 0) || len < 1 || rest > stop - p) {
          throw new CorruptSegmentError('packed values: bad entry lengths');
        }
        // An entry sharing bytes with the block's first has its tag; one sharing none has its own.
        if (shared === 0) {
          const t = bytes[p];
          if (t < tag || t > TRUE) throw new CorruptSegmentError('packed values: bad value tag');
          tag = t;
          if (e === 0) headTag = t;
        } else if (headTag !== tag) throw new CorruptSegmentError('packed values: tags out of order');
        const ok = tag === LATIN1 || (tag === UTF16 && len % 2 === 1) || (tag === NUMBER && len === 9) || ((tag === FALSE || tag === TRUE) && len === 1);
        if (!ok) throw new CorruptSegmentError('packed values: bad value encoding');
        if (tag <= UTF16) strings++;
        if (e === 0) headLen = len;
        p += rest;
      }
      if (p !== stop) throw new CorruptSegmentError('packed values: a block does not end where the next starts');
    }
    return new PackedLeaves(bytes, starts, ordOf, posOf, strings);
  }

  /** Reads a format-5 block's values (offsets, then tagged bytes in ordinal order) and sorts them. */
  static readV5(r: SegmentReader): PackedLeaves {
    return PackedLeaves.of(V5Leaves.read(r));
  }
}

/** Where checkedVarint stopped. */
let varintEnd = 0;
function checkedVarint(b: Buffer, p: number, stop: number): number {
  let x = 0;
  let shift = 0;
  for (;;) {
    if (p >= stop || shift > 28) throw new CorruptSegmentError('packed values: bad varint');
    const c = b[p++];
    x += (c & 0x7f) * 2 ** shift;
    if (c < 0x80) break;
    shift += 7;
  }
  varintEnd = p;
  return x;
}

/**
 * `list[from, to)` encoded one after another (value i at `bytes[at[i], at[i + 1])`), and their
 * indexes in the order of their encodings. The encodings order as the values do (tags first;
 * strings by code unit, as JavaScript compares them; numbers by value), so one byte-wise sort
 * (byte-sort.ts) orders every kind of value, and the coder copies the bytes it sorted.
 */
function sortedEncodings(list: LeafList, from: number, to: number): { bytes: Buffer; at: Uint32Array; order: Uint32Array } {
  const n = to - from;
  const latin1 = new Uint8Array(n);
  let size = 0;
  for (let i = 0; i < n; i++) {
    const v = list.at(from + i)!;
    const l = typeof v === 'string' && isLatin1(v);
    latin1[i] = l ? 1 : 0;
    size += encodedLength(v, l);
  }
  if (size > MAX_BYTES) throw new RangeError(`a slot's values take more than the 4 GiB a segment can address packed`);
  const bytes = Buffer.allocUnsafe(size);
  const at = new Uint32Array(n + 1);
  let p = 0;
  for (let i = 0; i < n; i++) {
    at[i] = p;
    p = encodeAt(list.at(from + i)!, latin1[i] === 1, bytes, p);
  }
  at[n] = p;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  sortByteStrings(bytes, at, order);
  return { bytes, at, order };
}

/** Walks a PackedLeaves in sorted order, each entry rebuilt in `buf[0, len)`. */
class Cursor {
  buf = Buffer.allocUnsafe(256);
  len = 0;
  rank = -1;
  private p = 0;
  /** Where the current block's first entry's bytes are. */
  private headAt = 0;
  /** How many leading bytes of `buf` are the current block's first entry's. */
  private valid = 0;

  constructor(private readonly of: PackedLeaves) {}

  /** Makes the next next() give rank `rank` (the block's entries before it are read to get there). */
  seek(rank: number): void {
    const block = rank >>> BLOCK_SHIFT;
    if (block >= this.of.starts.length - 1) {
      this.rank = this.of.length - 1;
      return;
    }
    this.p = this.of.starts[block];
    this.rank = (block << BLOCK_SHIFT) - 1;
    while (this.rank + 1 < rank) this.next();
  }

  next(): boolean {
    if (this.rank + 1 >= this.of.length) return false;
    const rank = ++this.rank;
    const data = this.of.bytes;
    let p = this.p;
    // Lengths below 128 are one byte: most shared lengths and rests.
    let shared = data[p];
    if (shared < 0x80) p++;
    else {
      p = readVarint(data, p);
      shared = varint;
    }
    let rest = data[p];
    if (rest < 0x80) p++;
    else {
      p = readVarint(data, p);
      rest = varint;
    }
    const len = shared + rest;
    let buf = this.buf;
    if (len > buf.length) {
      buf = this.buf = Buffer.allocUnsafe(Math.max(len, buf.length * 2));
      this.valid = 0;
    }
    // A block's first entry (shared 0) is whole; the others take their first bytes from it, of
    // which the buffer still holds `valid` from the entry before.
    const head = (rank & (BLOCK - 1)) === 0;
    if (head) this.headAt = p;
    else if (shared > this.valid) copyBytes(data, this.headAt + this.valid, buf, this.valid, shared - this.valid);
    copyBytes(data, p, buf, shared, rest);
    this.valid = head ? len : shared;
    this.len = len;
    this.p = p + rest;
    return true;
  }
}

/** Copies `n` bytes: short runs by a loop, long ones by one native call (whose checks cost more than a short loop). */
function copyBytes(src: Buffer, from: number, dst: Buffer, to: number, n: number): void {
  if (n > COPY_LOOP_BYTES) src.copy(dst, to, from, from + n);
  else for (let i = 0; i < n; i++) dst[to + i] = src[from + i];
}

/** Format 5's layout of packed values, kept to read older segments: offsets, then tagged bytes (UTF-16 little-endian, float64 little-endian). */
class V5Leaves implements LeafList {
  private constructor(
    private readonly bytes: Buffer,
    private readonly offsets: Uint32Array,
  ) {}

  get length(): number {
    return this.offsets.length - 1;
  }

  at(ord: number): Leaf | undefined {
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

  static read(r: SegmentReader): V5Leaves {
    const offsets = r.u32s();
    const bytes = r.sharedBytes();
    if (offsets.length === 0 || offsets[0] !== 0 || offsets[offsets.length - 1] !== bytes.length) {
      throw new CorruptSegmentError('packed values: offsets do not span the bytes');
    }
    for (let v = 0; v + 1 < offsets.length; v++) {
      const start = offsets[v];
      const len = offsets[v + 1] - start;
      if (len < 1 || offsets[v + 1] < start) throw new CorruptSegmentError('packed values: offsets out of order');
      const tag = bytes[start];
      const ok = tag === LATIN1 || (tag === UTF16 && len % 2 === 1) || (tag === NUMBER && len === 9) || ((tag === FALSE || tag === TRUE) && len === 1);
      if (!ok) throw new CorruptSegmentError('packed values: bad value encoding');
    }
    return new V5Leaves(bytes, offsets);
  }
}

/**
 * Calls `fn` with the values of ordinals [from, to) and their ordinals, in no set order: all of
 * a slot's values are walked in the packed part's sorted order (see PackedLeaves.forEach),
 * where reading them by ordinal would jump around its bytes; other ranges by ordinal.
 */
export function eachValue(values: LeafList, from: number, to: number, fn: (ord: number, value: Leaf) => void): void {
  if (from === 0 && to === values.length && values instanceof SlotLeaves) values.forEach(fn);
  else for (let v = from; v < to; v++) fn(v, values.at(v)!);
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

  /** Calls `fn` with every string value starting with `prefix` and its ordinal: the packed ones in sorted order, then the tail's. */
  forEachWithPrefix(prefix: string, fn: (ord: number, value: string) => void): void {
    const base = this.base;
    if (base !== undefined) base.forEachWithPrefix(prefix, fn);
    const n = this.baseLength;
    const tail = this.tail;
    for (let i = 0; i < tail.length; i++) {
      const v = tail[i];
      if (typeof v === 'string' && v.startsWith(prefix)) fn(n + i, v);
    }
  }

  /** Calls `fn` with every value and its ordinal: the packed ones in sorted order, then the tail's. */
  forEach(fn: (ord: number, value: Leaf) => void): void {
    const base = this.base;
    if (base !== undefined) base.forEach(fn);
    const n = this.baseLength;
    const tail = this.tail;
    for (let i = 0; i < tail.length; i++) fn(n + i, tail[i]);
  }

  /** Everything packed: the tail merged into the base's sorted order. */
  packed(): PackedLeaves {
    const base = this.base;
    return base === undefined ? PackedLeaves.of(this.tail) : base.concat(this.tail);
  }
}
