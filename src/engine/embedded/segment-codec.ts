/**
 * The binary layout of a segment file (docs/ARCHITECTURE.md, "Engine segments"): a 32-byte
 * header, then little-endian primitives written by the index structures themselves. Since
 * format 3 the file is a block area — slots and term tables, each with its own CRC-32, decoded
 * on first use — followed by the eager section (everything else, with the blocks' offsets),
 * which is read and checksummed as a whole at open: nothing is decoded before its checksum
 * matched, because decoding corrupt posting lists could crash the native bitmap library.
 * Formats 1 and 2 (one checksum over the whole body, blocks inline) are still read.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { RoaringBitmap32, type Bitmap } from './bitmap.ts';

export const SEGMENT_MAGIC = 'PSCPSEG\0';
/**
 * Bump on any change of the body layout, and keep every released version readable (the
 * fixtures in test/fixtures/engine/ prove it). 1: everything inline. 2: each slot and each
 * full-text term table is a length-prefixed block, decoded on first use. 3: blocks in a block
 * area with their own checksums, the eager section last with its own checksum, so opening
 * reads and checks only the eager section. 4: the eager section starts with a kind byte: a full
 * segment (then the layout of 3), or a delta segment holding what changed since the segment
 * before it in the manifest's chain (see IndexData.writeDelta). Blocks are laid out as in 3.
 * 5: the values of a slot's block and the terms of a full-text table's block are packed
 * (offsets, then tagged bytes) instead of JSON lists; everything else as in 4. 6: those values
 * and terms sorted by their bytes and front-coded in blocks of 16, with the rank → ordinal
 * permutation (PackedLeaves); everything else as in 5. 7: the documents' ids and order keys
 * (of a full segment, or of the documents a delta adds) are packed string columns (count, end
 * offsets, tagged bytes; StringColumn) instead of JSON lists; everything else as in 6.
 */
export const SEGMENT_FORMAT_VERSION = 7;
/** The first format whose ids and order keys are string columns. */
export const STRING_COLUMNS_VERSION = 7;
/**
 * The first format whose blocks (slots, full-text term tables) have the current layout: a
 * checkpoint copies those unchanged, and decodes and writes older ones anew.
 */
export const BLOCK_LAYOUT_VERSION = 6;
/** The first format whose slot values and full-text terms are packed rather than JSON lists. */
export const PACKED_LEAVES_VERSION = 5;
/** Format 4+: the kind byte opening the eager section. */
export const SEGMENT_FULL = 0;
export const SEGMENT_DELTA = 1;
export const HEADER_BYTES = 32;

export class CorruptSegmentError extends Error {}

const BUFFER_BYTES = 8 << 20;
/** JSON chunks of string lists stay far below V8's maximum string length. */
const CHUNK_CHARS = 8 << 20;

export type Scalar = string | number | boolean;

/**
 * A block of a segment file left on disk until first use. The file stays open (also once a
 * later checkpoint has deleted it: the open descriptor keeps it readable), and it is immutable
 * and was checksummed when opened.
 */
export interface BlockRef {
  readonly fd: number;
  readonly offset: number;
  readonly length: number;
  readonly version: number;
  /** CRC-32 of the block (format 3+; older files were checked whole at open). */
  readonly crc?: number;
}

/** The bytes of a block, read from its file. */
export function readBlock(ref: BlockRef): Buffer {
  const out = Buffer.allocUnsafe(ref.length);
  let got = 0;
  while (got < ref.length) {
    const k = readSync(ref.fd, out, got, ref.length - got, ref.offset + got);
    if (k <= 0) throw new CorruptSegmentError('segment block truncated');
    got += k;
  }
  if (ref.crc !== undefined && (crc32(out) >>> 0) !== ref.crc) throw new CorruptSegmentError('segment block checksum mismatch');
  return out;
}

export class SegmentWriter {
  private buf: Buffer = Buffer.allocUnsafe(64 << 10);
  private pos = 0;
  /** The eager bytes written so far (flushed chunks of buf). */
  private readonly kept: Buffer[] = [];
  /** File offset of the next block (file writers). */
  private blockOffset = HEADER_BYTES;

  /**
   * With `fd`, a segment file: blocks go to the block area as they come, the eager section is
   * kept in memory and written after them by finish(). Without, the inside of one block.
   */
  constructor(private readonly fd?: number) {}

  private flush(): void {
    if (this.pos === 0) return;
    this.kept.push(Buffer.from(this.buf.subarray(0, this.pos)));
    this.pos = 0;
  }

  private room(n: number): void {
    if (this.pos + n > this.buf.length) this.flush();
  }

  /** Everything written (in-memory writers). */
  take(): Buffer {
    this.flush();
    return this.kept.length === 1 ? this.kept[0] : Buffer.concat(this.kept);
  }

  private writeAt(b: Uint8Array, offset: number): void {
    let off = 0;
    while (off < b.length) off += writeSync(this.fd!, b, off, b.length - off, offset + off);
  }

  private blockRecord(offset: number, length: number, crc: number): void {
    this.f64(offset);
    this.u32(length);
    this.u32(crc >>> 0);
  }

  /** Writes what `fill` writes as one block of the block area. */
  block(fill: (w: SegmentWriter) => void): void {
    if (this.fd === undefined) throw new Error('blocks are written to segment files');
    const inner = new SegmentWriter();
    fill(inner);
    const payload = inner.take();
    this.writeAt(payload, this.blockOffset);
    this.blockRecord(this.blockOffset, payload.length, crc32(payload));
    this.blockOffset += payload.length;
  }

  /** Copies a block of an older segment file as it is (a slot never decoded since it was read), checking its CRC. */
  copyBlock(ref: BlockRef): void {
    if (this.fd === undefined) throw new Error('blocks are written to segment files');
    const chunk = Buffer.allocUnsafe(Math.min(Math.max(ref.length, 1), BUFFER_BYTES));
    let crc = 0;
    for (let done = 0; done < ref.length; ) {
      const n = Math.min(chunk.length, ref.length - done);
      let got = 0;
      while (got < n) {
        const k = readSync(ref.fd, chunk, got, n - got, ref.offset + done + got);
        if (k <= 0) throw new CorruptSegmentError('segment block truncated');
        got += k;
      }
      const part = chunk.subarray(0, n);
      crc = crc32(part, crc);
      this.writeAt(part, this.blockOffset + done);
      done += n;
    }
    if (ref.crc !== undefined && (crc >>> 0) !== ref.crc) throw new CorruptSegmentError('segment block checksum mismatch');
    this.blockRecord(this.blockOffset, ref.length, crc);
    this.blockOffset += ref.length;
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.pos++] = v;
  }

  u32(v: number): void {
    this.room(4);
    this.buf.writeUInt32LE(v >>> 0, this.pos);
    this.pos += 4;
  }

  f64(v: number): void {
    this.room(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  /** Raw bytes with a u32 length before them. */
  bytes(b: Uint8Array): void {
    this.u32(b.length);
    if (b.length <= this.buf.length) {
      this.room(b.length);
      this.buf.set(b, this.pos);
      this.pos += b.length;
      return;
    }
    this.flush();
    this.kept.push(Buffer.from(b));
  }

  u32s(a: Uint32Array, length = a.length): void {
    this.bytes(new Uint8Array(a.buffer, a.byteOffset, length * 4));
  }

  str(s: string): void {
    this.bytes(Buffer.from(s, 'utf8'));
  }

  json(v: unknown): void {
    this.str(JSON.stringify(v));
  }

  /**
   * A list of strings, numbers and booleans as JSON arrays of bounded size: JSON keeps the type
   * of each value and lone surrogates exactly, and JSON.parse rebuilds it faster than per-value
   * decoding.
   */
  scalars(list: readonly Scalar[]): void {
    const chunks: [number, number][] = [];
    let start = 0;
    let chars = 0;
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      chars += typeof v === 'string' ? v.length + 3 : 24;
      if (chars >= CHUNK_CHARS) {
        chunks.push([start, i + 1]);
        start = i + 1;
        chars = 0;
      }
    }
    if (start < list.length) chunks.push([start, list.length]);
    this.u32(list.length);
    this.u32(chunks.length);
    for (const [a, b] of chunks) this.str(JSON.stringify(list.slice(a, b)));
  }

  bitmap(b: Bitmap): void {
    this.bytes(b.serialize('portable'));
  }

  /** Writes the eager section after the blocks, then the header; the caller fsyncs and closes. */
  finish(): { bytes: number; crc: number } {
    if (this.fd === undefined) throw new Error('finish() of an in-memory writer');
    const eager = this.take();
    const eagerCrc = crc32(eager) >>> 0;
    this.writeAt(eager, this.blockOffset);
    const body = this.blockOffset - HEADER_BYTES + eager.length;
    const header = Buffer.alloc(HEADER_BYTES);
    header.write(SEGMENT_MAGIC, 0, 'latin1');
    header.writeUInt32LE(SEGMENT_FORMAT_VERSION, 8);
    header.writeUInt32LE(eagerCrc, 12);
    header.writeDoubleLE(body, 16);
    header.writeUInt32LE(eager.length, 24);
    header.writeUInt32LE(crc32(header.subarray(0, 28)) >>> 0, 28);
    this.writeAt(header, 0);
    return { bytes: HEADER_BYTES + body, crc: eagerCrc };
  }
}

export interface SegmentHeader {
  readonly version: number;
  readonly bodyBytes: number;
  /** Formats 1-2: CRC-32 of the body; 3+: of the eager section. */
  readonly crc: number;
  /** Format 3+: length of the eager section, which ends the file. */
  readonly eagerBytes: number;
}

export class SegmentReader {
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  /** File offset of buf[0]. */
  private base = HEADER_BYTES;
  readonly header: SegmentHeader;
  private readonly end: number;

  /** A reader of a block kept in memory (see SegmentWriter.block), in the layout of `version`. */
  static ofBlock(block: Buffer, version: number): SegmentReader {
    return new SegmentReader(-1, { block, version });
  }

  private constructor(private readonly fd: number, memory?: { block: Buffer; version: number }) {
    if (memory) {
      this.buf = memory.block;
      this.base = 0;
      this.end = memory.block.length;
      this.header = { version: memory.version, bodyBytes: memory.block.length, crc: 0, eagerBytes: 0 };
      return;
    }
    const size = fstatSync(fd).size;
    if (size < HEADER_BYTES) throw new CorruptSegmentError(`segment truncated: ${size} bytes`);
    const h = Buffer.alloc(HEADER_BYTES);
    readSync(fd, h, 0, HEADER_BYTES, 0);
    if (h.toString('latin1', 0, 8) !== SEGMENT_MAGIC) throw new CorruptSegmentError('not a segment file (bad magic number)');
    if ((crc32(h.subarray(0, 28)) >>> 0) !== h.readUInt32LE(28)) throw new CorruptSegmentError('segment header checksum mismatch');
    const version = h.readUInt32LE(8);
    this.header =
      version >= 3
        ? { version, bodyBytes: h.readDoubleLE(16), crc: h.readUInt32LE(12), eagerBytes: h.readUInt32LE(24) }
        : { version, bodyBytes: h.readDoubleLE(16), crc: h.readUInt32LE(24), eagerBytes: 0 };
    if (size !== HEADER_BYTES + this.header.bodyBytes) {
      throw new CorruptSegmentError(`segment truncated: ${size} bytes, header says ${HEADER_BYTES + this.header.bodyBytes}`);
    }
    this.end = size;
    if (version >= 3) {
      // Read the eager section whole and check it; blocks are checked when they are decoded.
      if (this.header.eagerBytes > this.header.bodyBytes) throw new CorruptSegmentError('eager section longer than the body');
      this.blocksEnd = size - this.header.eagerBytes;
      const eager = Buffer.allocUnsafe(this.header.eagerBytes);
      let got = 0;
      while (got < eager.length) {
        const k = readSync(fd, eager, got, eager.length - got, this.blocksEnd + got);
        if (k <= 0) throw new CorruptSegmentError('segment truncated while reading');
        got += k;
      }
      if ((crc32(eager) >>> 0) !== this.header.crc) throw new CorruptSegmentError('segment checksum mismatch (eager section)');
      this.buf = eager;
      this.base = 0;
      this.end = eager.length;
      this.inMemory = true;
    }
  }

  /** The eager section (format 3+) or a block is read from memory; formats 1-2 stream the file. */
  private inMemory = false;
  /** Format 3+: where the block area ends (file offset). */
  private blocksEnd = 0;

  /** Opens a segment and checks its header, length and body checksum before anything is decoded. */
  static open(file: string): SegmentReader {
    const fd = openSync(file, 'r');
    try {
      const r = new SegmentReader(fd);
      if (r.version < 3) r.verify();
      return r;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** Formats 1-2: one checksum over the whole body, checked before anything is decoded. */
  private verify(): void {
    const chunk = Buffer.allocUnsafe(BUFFER_BYTES);
    let crc = 0;
    for (let off = HEADER_BYTES; off < this.end; ) {
      const n = readSync(this.fd, chunk, 0, Math.min(chunk.length, this.end - off), off);
      if (n <= 0) throw new CorruptSegmentError('segment truncated while reading');
      crc = crc32(chunk.subarray(0, n), crc);
      off += n;
    }
    if ((crc >>> 0) !== this.header.crc) throw new CorruptSegmentError('segment body checksum mismatch');
  }

  /** Whether block references into the file were handed out (then the file must stay open). */
  private retained = false;

  /** Closes the file unless blocks of it were left on disk; returns the descriptor kept open, if any. */
  close(): number | undefined {
    if (this.fd < 0) return undefined;
    if (this.retained) return this.fd;
    closeSync(this.fd);
    return undefined;
  }

  /** Where the next block is (file readers only): a record of the block area (3+), or skipped inline (2). */
  blockRef(): BlockRef {
    if (this.fd < 0) throw new Error('block references need a file reader');
    if (this.version >= 3) {
      const offset = this.f64();
      const length = this.u32();
      const crc = this.u32();
      if (offset < HEADER_BYTES || offset + length > this.blocksEnd) throw new CorruptSegmentError('segment block outside the block area');
      this.retained = true;
      return { fd: this.fd, offset, length, version: this.version, crc };
    }
    const n = this.u32();
    const offset = this.base + this.pos;
    if (offset + n > this.end) throw new CorruptSegmentError('segment block ends past the body');
    if (this.pos + n <= this.buf.length) this.pos += n;
    else {
      this.buf = Buffer.alloc(0);
      this.base = offset + n;
      this.pos = 0;
    }
    this.retained = true;
    return { fd: this.fd, offset, length: n, version: this.version };
  }

  get version(): number {
    return this.header.version;
  }

  /** True when every byte was read (a longer body means a layout this reader does not know). */
  get atEnd(): boolean {
    return this.base + this.pos === this.end;
  }

  /** Makes n bytes available at buf[pos]. */
  private need(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    if (this.fd < 0 || this.inMemory) throw new CorruptSegmentError('segment section ends early');
    const fileOff = this.base + this.pos;
    if (fileOff + n > this.end) throw new CorruptSegmentError('segment body ends early');
    const size = Math.max(n, Math.min(BUFFER_BYTES, this.end - fileOff));
    const next = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const k = readSync(this.fd, next, got, size - got, fileOff + got);
      if (k <= 0) throw new CorruptSegmentError('segment truncated while reading');
      got += k;
    }
    this.buf = next;
    this.base = fileOff;
    this.pos = 0;
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  f64(): number {
    this.need(8);
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  /** A view valid until the next read. */
  private bytesView(): Buffer {
    const n = this.u32();
    this.need(n);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** A copy (typed arrays need their own aligned memory). */
  u32s(): Uint32Array<ArrayBuffer> {
    const v = this.bytesView();
    if (v.length % 4 !== 0) throw new CorruptSegmentError('misaligned u32 array');
    const out = new Uint32Array(v.length / 4);
    new Uint8Array(out.buffer).set(v);
    return out;
  }

  bytes(): Uint8Array {
    return new Uint8Array(this.bytesView());
  }

  /**
   * Length-prefixed bytes: a view into the block of an in-memory reader (ofBlock), which stays
   * valid (and keeps the whole block alive) as long as it is held; a copy from a file reader,
   * whose buffer is reused.
   */
  sharedBytes(): Buffer {
    const v = this.bytesView();
    return this.fd < 0 ? v : Buffer.from(v);
  }

  /** Length of the block an in-memory reader (ofBlock) reads. */
  get size(): number {
    if (this.fd >= 0) throw new Error('size of a file reader');
    return this.end;
  }

  /** A length-prefixed block as its own Buffer (a copy: the read buffer is reused). */
  block(): Buffer {
    return Buffer.from(this.bytesView());
  }

  str(): string {
    return this.bytesView().toString('utf8');
  }

  json<T>(): T {
    return JSON.parse(this.str()) as T;
  }

  scalars(): Scalar[] {
    const total = this.u32();
    const chunks = this.u32();
    let out: Scalar[] | undefined;
    for (let c = 0; c < chunks; c++) {
      const part = JSON.parse(this.str()) as Scalar[];
      if (out === undefined) out = part;
      else for (const v of part) out.push(v);
    }
    out ??= [];
    if (out.length !== total) throw new CorruptSegmentError('string list length mismatch');
    return out;
  }

  bitmap(): Bitmap {
    return RoaringBitmap32.deserialize(this.bytesView(), 'portable');
  }
}
