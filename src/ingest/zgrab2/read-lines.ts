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
 * holds at most one partial line (see LineSplitter).
 */
export async function* readLines(input: Readable): AsyncGenerator<Line> {
  const splitter = new LineSplitter();
  const lines: Line[] = [];
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk, lines);
    yield* lines;
    lines.length = 0;
  }
  splitter.end(lines);
  yield* lines;
}

export type JsonHead =
  | { readonly complete: true; readonly value: Record<string, unknown> }
  /** The first line did not end inside the head (a long record): only its text prefix is known. */
  | { readonly complete: false; readonly prefix: string };

/**
 * The first JSON object of a JSON-lines head (which may be cut mid-record), or undefined when the
 * head does not start with one.
 */
export function jsonHead(head: Buffer): JsonHead | undefined {
  const text = head.toString('utf8');
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const line = (nl < 0 ? text.slice(start) : text.slice(start, nl)).trim();
    if (line === '') {
      if (nl < 0) return undefined;
      start = nl + 1;
      continue;
    }
    if (!line.startsWith('{')) return undefined;
    try {
      const v: unknown = JSON.parse(line);
      return isObject(v) ? { complete: true, value: v } : undefined;
    } catch {
      return nl < 0 ? { complete: false, prefix: line } : undefined;
    }
  }
  return undefined;
}

/** Whether a cut-off JSON text mentions `"key":` (a weak test, for heads whose first record is long). */
export function mentionsKey(prefix: string, key: string): boolean {
  return new RegExp(`"${key}"\\s*:`).test(prefix);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

export function obj(v: unknown): Record<string, unknown> | undefined {
  return isObject(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function validPort(v: unknown): number | undefined {
  const n = num(v);
  return n !== undefined && Number.isInteger(n) && n >= 1 && n <= 65535 ? n : undefined;
}
