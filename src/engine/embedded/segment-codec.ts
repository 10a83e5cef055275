/**
 * The binary layout of a segment file (docs/ARCHITECTURE.md, "Engine segments"): a 32-byte
 * header — magic, format version, body length, CRC-32 of the body, CRC-32 of the header — then
 * the body, a sequence of little-endian primitives written by the index structures themselves.
 * The body is streamed to the file through a small buffer (a segment of a large index does not
 * fit one Buffer) and read back the same way; the reader first checks the CRC over the whole
 * body, because decoding corrupt posting lists could crash the native bitmap library.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { RoaringBitmap32, type Bitmap } from './bitmap.ts';

export const SEGMENT_MAGIC = 'PSCPSEG\0';
/**
 * Bump on any change of the body layout, and keep every released version readable (the
 * fixtures in test/fixtures/engine/ prove it). 1: everything inline. 2: each slot and each
 * full-text term table is a length-prefixed block, decoded on first use.
 */
export const SEGMENT_FORMAT_VERSION = 2;
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
  return out;
}

export class SegmentWriter {
  private buf: Buffer;
  private pos = 0;
  private crc = 0;
  private written = 0;
  /** In-memory writers (blocks) keep their output here. */
  private readonly kept: Buffer[] = [];

  /** Writes to `fd` from offset HEADER_BYTES (finish() writes the header), or to memory without one (see block()). */
  constructor(private readonly fd?: number) {
    this.buf = Buffer.allocUnsafe(fd === undefined ? 64 << 10 : BUFFER_BYTES);
  }

  private flush(): void {
    if (this.pos === 0) return;
    const chunk = this.buf.subarray(0, this.pos);
    if (this.fd === undefined) {
      this.kept.push(Buffer.from(chunk));
      this.pos = 0;
      return;
    }
    this.crc = crc32(chunk, this.crc);
    this.writeRaw(chunk);
    this.pos = 0;
  }

  private writeRaw(b: Uint8Array): void {
    let off = 0;
    while (off < b.length) off += writeSync(this.fd!, b, off, b.length - off, HEADER_BYTES + this.written + off);
    this.written += b.length;
  }

  /** Copies a block of another segment file as it is (a slot never decoded since it was read). */
  copyBlock(ref: BlockRef): void {
    this.u32(ref.length);
    const chunk = Buffer.allocUnsafe(Math.min(ref.length, BUFFER_BYTES));
    for (let done = 0; done < ref.length; ) {
      const n = Math.min(chunk.length, ref.length - done);
      let got = 0;
      while (got < n) {
        const k = readSync(ref.fd, chunk, got, n - got, ref.offset + done + got);
        if (k <= 0) throw new CorruptSegmentError('segment block truncated');
        got += k;
      }
      const part = chunk.subarray(0, n);
      if (n <= this.buf.length - this.pos) {
        this.buf.set(part, this.pos);
        this.pos += n;
      } else {
        this.flush();
        if (this.fd === undefined) this.kept.push(Buffer.from(part));
        else {
          this.crc = crc32(part, this.crc);
          this.writeRaw(part);
        }
      }
      done += n;
    }
  }

  /** Writes what `fill` writes as one length-prefixed block, which a reader can keep undecoded. */
  block(fill: (w: SegmentWriter) => void): void {
    const inner = new SegmentWriter();
    fill(inner);
    inner.flush();
    this.bytes(inner.kept.length === 1 ? inner.kept[0] : Buffer.concat(inner.kept));
  }

  private room(n: number): void {
    if (this.pos + n > this.buf.length) this.flush();
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
    if (this.fd === undefined) {
      this.kept.push(Buffer.from(b));
      return;
    }
    this.crc = crc32(b, this.crc);
    this.writeRaw(b);
  }

  u32s(a: Uint32Array, length = a.length): void {
    const view = new Uint8Array(a.buffer, a.byteOffset, length * 4);
    this.bytes(view);
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

  /** Flushes the body and writes the header; the caller fsyncs and closes. */
  finish(): { bytes: number; crc: number } {
    if (this.fd === undefined) throw new Error('finish() of an in-memory writer');
    this.flush();
    const header = Buffer.alloc(HEADER_BYTES);
    header.write(SEGMENT_MAGIC, 0, 'latin1');
    header.writeUInt32LE(SEGMENT_FORMAT_VERSION, 8);
    header.writeUInt32LE(0, 12);
    header.writeDoubleLE(this.written, 16);
    header.writeUInt32LE(this.crc >>> 0, 24);
    header.writeUInt32LE(crc32(header.subarray(0, 28)) >>> 0, 28);
    writeSync(this.fd, header, 0, HEADER_BYTES, 0);
    return { bytes: HEADER_BYTES + this.written, crc: this.crc >>> 0 };
  }
}

export interface SegmentHeader {
  readonly version: number;
  readonly bodyBytes: number;
  readonly crc: number;
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
      this.header = { version: memory.version, bodyBytes: memory.block.length, crc: 0 };
      return;
    }
    const size = fstatSync(fd).size;
    if (size < HEADER_BYTES) throw new CorruptSegmentError(`segment truncated: ${size} bytes`);
    const h = Buffer.alloc(HEADER_BYTES);
    readSync(fd, h, 0, HEADER_BYTES, 0);
    if (h.toString('latin1', 0, 8) !== SEGMENT_MAGIC) throw new CorruptSegmentError('not a segment file (bad magic number)');
    if ((crc32(h.subarray(0, 28)) >>> 0) !== h.readUInt32LE(28)) throw new CorruptSegmentError('segment header checksum mismatch');
    this.header = { version: h.readUInt32LE(8), bodyBytes: h.readDoubleLE(16), crc: h.readUInt32LE(24) };
    if (size !== HEADER_BYTES + this.header.bodyBytes) {
      throw new CorruptSegmentError(`segment truncated: ${size} bytes, header says ${HEADER_BYTES + this.header.bodyBytes}`);
    }
    this.end = size;
  }

  /** Opens a segment and checks its header, length and body checksum before anything is decoded. */
  static open(file: string): SegmentReader {
    const fd = openSync(file, 'r');
    try {
      const r = new SegmentReader(fd);
      r.verify();
      return r;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

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

  /** Skips a length-prefixed block, returning where it is (file readers only). */
  blockRef(): BlockRef {
    if (this.fd < 0) throw new Error('block references need a file reader');
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

  /** Makes n bytes available at buf[pos]. */
  private need(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    if (this.fd < 0) throw new CorruptSegmentError('segment block ends early');
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
