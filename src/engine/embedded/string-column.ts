/**
 * Strings packed in one buffer outside the JavaScript heap: each entry a tag byte and its code
 * units, Latin-1 (tag 0, one byte each, when every unit is below 256) or UTF-16 big-endian (tag
 * 1), so lone surrogates come back exactly; an empty entry has no bytes at all. A list of a
 * million strings is a million small objects in the old generation, which every scavenge walks
 * past (docs/ARCHITECTURE.md, "Small objects"); packed, it costs its bytes plus four per entry,
 * and reading an entry makes a string (0.1-0.2 µs). Holds the token dictionaries
 * (token-dictionary.ts), and is the segment layout of document ids and order keys (format 7),
 * which stay strings in memory (see IndexData.ids).
 */
import { GrowableU32 } from './growable.ts';
import { isLatin1, LATIN1, readString, UTF16, writeString } from './packed-leaves.ts';
import { CorruptSegmentError, type SegmentReader, type SegmentWriter } from './segment-codec.ts';

/** Offsets are 32-bit. */
const MAX_BYTES = 2 ** 32 - 1;
/** Latin-1 strings up to this long are read by one fromCharCode call, cheaper than Buffer#toString's checks (ids). */
const SHORT_CHARS = 16;

export class StringColumn {
  private buf: Buffer;
  private used = 0;
  /** entry → the offset where it ends; it starts where the entry before it ends. */
  private ends: GrowableU32;

  constructor(capacity = 1024) {
    this.buf = Buffer.allocUnsafe(capacity);
    this.ends = new GrowableU32();
  }

  get length(): number {
    return this.ends.length;
  }

  private start(i: number): number {
    return i === 0 ? 0 : this.ends.data[i - 1];
  }

  private room(n: number): void {
    const need = this.used + n;
    if (need > MAX_BYTES) throw new Error('string column over 4 GiB');
    if (need <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.min(MAX_BYTES, Math.max(need, this.buf.length + (this.buf.length >>> 1), 1024)));
    this.buf.copy(next, 0, 0, this.used);
    this.buf = next;
  }

  push(s: string): void {
    const n = s.length;
    if (n === 0) {
      this.ends.push(this.used);
      return;
    }
    const latin1 = isLatin1(s);
    this.room(1 + (latin1 ? n : 2 * n));
    this.used = writeString(this.buf, this.used, s, latin1);
    this.ends.push(this.used);
  }

  at(i: number): string {
    const a = this.start(i);
    const e = this.ends.data[i];
    if (a === e) return '';
    const b = this.buf;
    if (b[a] !== LATIN1 || e - a - 1 > SHORT_CHARS) return readString(b, a, e);
    const units = new Array<number>(e - a - 1);
    for (let p = a + 1, k = 0; p < e; p++, k++) units[k] = b[p];
    return String.fromCharCode(...units);
  }

  /** FNV-1a over entry i's code units (hashOf in column-hash.ts of the string it holds). */
  hashAt(i: number): number {
    const b = this.buf;
    let a = this.start(i);
    const e = this.ends.data[i];
    let h = 0x811c9dc5;
    if (a === e) return h >>> 0;
    if (b[a++] === LATIN1) for (; a < e; a++) h = Math.imul(h ^ b[a], 0x01000193);
    else for (; a < e; a += 2) h = Math.imul(h ^ ((b[a] << 8) | b[a + 1]), 0x01000193);
    return h >>> 0;
  }

  /** Whether entry i is the string `s`. */
  equals(i: number, s: string): boolean {
    const a = this.start(i);
    const e = this.ends.data[i];
    const n = s.length;
    if (n === 0 || a === e) return n === 0 && a === e;
    const b = this.buf;
    if (b[a] === LATIN1) {
      if (e - a - 1 !== n) return false;
      for (let k = 0, p = a + 1; k < n; k++, p++) if (b[p] !== s.charCodeAt(k)) return false;
      return true;
    }
    if (e - a - 1 !== 2 * n) return false;
    for (let k = 0, p = a + 1; k < n; k++, p += 2) if (((b[p] << 8) | b[p + 1]) !== s.charCodeAt(k)) return false;
    return true;
  }

  /**
   * Latin-1 entries holding `want` (a non-empty Latin-1 string without NUL), or ending with it
   * when `atEnd`, ascending: found by native searches of the whole buffer for its bytes rather
   * than by testing every entry; a find that runs past its entry, or lies in a UTF-16 one, is
   * skipped. UTF-16 entries are the caller's to test.
   */
  latin1Containing(want: string, atEnd: boolean, out: number[]): void {
    const needle = Buffer.from(want, 'latin1');
    const ends = this.ends.data;
    const n = this.ends.length;
    const bytes = this.buf.subarray(0, this.used);
    let from = 0;
    for (;;) {
      const hit = bytes.indexOf(needle, from);
      if (hit < 0) return;
      // The entry holding the hit: the first whose end is past it.
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (ends[mid] <= hit) lo = mid + 1;
        else hi = mid;
      }
      const end = ends[lo];
      const last = hit + needle.length;
      if (this.buf[this.start(lo)] === LATIN1 && (atEnd ? last === end : last <= end)) {
        out.push(lo);
        from = end;
      } else {
        from = hit + 1;
      }
    }
  }

  /** Whether entry i is UTF-16 (holds a code unit above 255). */
  wide(i: number): boolean {
    const a = this.start(i);
    return a !== this.ends.data[i] && this.buf[a] === UTF16;
  }

  /** The entries in a segment: their count, their end offsets, then their bytes. Restored by read(). */
  write(w: SegmentWriter): void {
    w.u32(this.ends.length);
    w.u32s(this.ends.data, this.ends.length);
    w.bytes(this.buf.subarray(0, this.used));
  }

  /** The column write() wrote. */
  static read(r: SegmentReader): StringColumn {
    const count = r.u32();
    const ends = r.u32s();
    const bytes = r.bytes();
    if (ends.length !== count || (count > 0 && ends[count - 1] !== bytes.length)) throw new CorruptSegmentError('string column: offsets and bytes differ');
    let last = 0;
    for (let k = 0; k < count; k++) {
      const e = ends[k];
      if (e < last || (e > last && bytes[last] !== LATIN1 && (bytes[last] !== UTF16 || (e - last) % 2 !== 1))) {
        throw new CorruptSegmentError('string column: a malformed entry');
      }
      last = e;
    }
    // Both are copies the reader made: taken as they are.
    const c = new StringColumn(0);
    c.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    c.used = bytes.length;
    c.ends = GrowableU32.of(ends);
    return c;
  }
}

/** Strings list[from..] in a segment, in the layout of StringColumn.write (format 7: ids and order keys). */
export function writeStringList(w: SegmentWriter, list: readonly string[], from = 0): void {
  const c = new StringColumn(Math.max(1024, 16 * (list.length - from)));
  for (let i = from; i < list.length; i++) c.push(list[i]);
  c.write(w);
}

/** The strings written by writeStringList (or StringColumn.write). */
export function readStringList(r: SegmentReader): string[] {
  const c = StringColumn.read(r);
  const out = new Array<string>(c.length);
  for (let i = 0; i < out.length; i++) out[i] = c.at(i);
  return out;
}
