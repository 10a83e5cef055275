/** JSON-lines input (scanner output, Censys documents) cut into lines. */
import type { Readable } from 'node:stream';

export interface Line {
  /** 1-based line number in the input. */
  readonly number: number;
  readonly text: string;
}

/**
 * Cuts bytes into lines as they arrive: lines are cut on `\n` in bytes (never inside a UTF-8
 * sequence); a trailing `\r` is dropped. Blank lines are skipped but still counted.
 */
class LineSplitter {
  /** Lines cut so far. */
  private number = 0;
  /** The unfinished last line. */
  private carry: Buffer | undefined;

  push(chunk: Buffer, out: Line[]): void {
    let buf = chunk;
    if (this.carry) {
      buf = Buffer.concat([this.carry, buf]);
      this.carry = undefined;
    }
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(10, start);
      if (nl < 0) break;
      this.number++;
      const end = nl > start && buf[nl - 1] === 13 ? nl - 1 : nl;
      if (end > start) out.push({ number: this.number, text: buf.toString('utf8', start, end) });
      start = nl + 1;
    }
    if (start < buf.length) this.carry = buf.subarray(start);
  }

  end(out: Line[]): void {
    const carry = this.carry;
    this.carry = undefined;
    if (!carry || carry.length === 0) return;
    this.number++;
    const end = carry[carry.length - 1] === 13 ? carry.length - 1 : carry.length;
    if (end > 0) out.push({ number: this.number, text: carry.toString('utf8', 0, end) });
  }
}

/**
 * Splits a byte stream into lines as they arrive, so records flow before the input ends and memory
 * holds at most one partial line (see LineSplitter). Each line is its own flat string, decoded
 * from its bytes: node's readline decodes whole chunks and cuts them with a regular expression,
 * which cost the benchmark's load (`periscope import`'s path) about 23 µs per 6 KB document
 * (docs/BENCHMARK.md, session 15).
 */
export async function* readLines(input: Readable): AsyncGenerator<Line> {
  for await (const lines of readLineBatches(input)) yield* lines;
}

/** readLines' lines, as the arrays cut from each chunk (none empty); each array is the caller's. */
export async function* readLineBatches(input: Readable): AsyncGenerator<Line[]> {
  const splitter = new LineSplitter();
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const lines: Line[] = [];
    splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk, lines);
    if (lines.length > 0) yield lines;
  }
  const lines: Line[] = [];
  splitter.end(lines);
  if (lines.length > 0) yield lines;
}
