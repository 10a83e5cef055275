/**
 * Input opening for ingest: gzip is recognised by its magic bytes (not the file name), and the
 * first 64 KiB are read for format detection and then replayed, so the reader sees the whole
 * stream from its first byte.
 */
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { SNIFF_BYTES } from './detect-format.ts';

export interface PeekedInput {
  /** Up to 64 KiB of the (decompressed) start. */
  readonly head: Buffer;
  /** The whole (decompressed) input, starting with `head`. */
  readonly stream: Readable;
  readonly gzip: boolean;
}

/** Reads at least `n` bytes (or to the end) and returns them with a stream that replays them first. */
async function peek(input: Readable, n: number): Promise<{ head: Buffer; stream: Readable }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const it = input[Symbol.asyncIterator]();
  let done = false;
  while (size < n) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    const b = typeof r.value === 'string' ? Buffer.from(r.value) : (r.value as Buffer);
    chunks.push(b);
    size += b.length;
  }
  const head = Buffer.concat(chunks);
  async function* replay(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    if (done) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield typeof r.value === 'string' ? Buffer.from(r.value) : (r.value as Buffer);
    }
  }
  return { head, stream: Readable.from(replay(), { objectMode: false }) };
}

export async function openForIngest(input: Readable): Promise<PeekedInput> {
  const first = await peek(input, 2);
  const gzip = first.head.length >= 2 && first.head[0] === 0x1f && first.head[1] === 0x8b;
  let stream = first.stream;
  if (gzip) {
    // pipeline, not pipe: a source error or a corrupt gzip stream must reach the reader as an
    // error instead of leaving it waiting.
    // Larger output chunks than zlib's 16 KiB: fewer hand-offs between the stream's layers.
    stream = pipeline(first.stream, createGunzip({ chunkSize: 256 * 1024 }), () => undefined);
  }
  const second = await peek(stream, SNIFF_BYTES);
  return { head: second.head.subarray(0, SNIFF_BYTES), stream: second.stream, gzip };
}
