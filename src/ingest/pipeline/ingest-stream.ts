/**
 * Inputs (files, stdin, an HTTP body) to records: each input is opened (gzip by magic bytes),
 * its format forced or detected from its first 64 KiB, and its records streamed to the pipeline
 * with positions that name the input.
 */
import type { Readable } from 'node:stream';
import type { IngestRecord, IngestSource } from '../observation.ts';
import { detectFormat } from './detect-format.ts';
import { openForIngest } from './open-input.ts';
import { runIngest, type IngestDeps, type IngestSummary } from './pipeline.ts';
import { sourceByFormat } from './sources.ts';

export interface IngestInput {
  /** Shown in positions (`scan.json:line 3`); empty for a single anonymous input. */
  readonly name: string;
  open(): Readable | Promise<Readable>;
}

export interface IngestStreamResult {
  readonly summary: IngestSummary;
  /** The format each input was read as (undefined when none was recognised). */
  readonly formats: { name: string; format?: string }[];
}

function prefixed(name: string, position: string): string {
  return name ? `${name}:${position}` : position;
}

/** Checks a `--format` value: `auto`/undefined, or a known format name. */
export function checkFormat(format: string | undefined): { ok: true; source?: IngestSource } | { ok: false; error: string } {
  if (format === undefined || format === 'auto') return { ok: true };
  const source = sourceByFormat(format);
  return source ? { ok: true, source } : { ok: false, error: `unknown format '${format}'` };
}

async function* recordsOf(
  inputs: readonly IngestInput[],
  forced: IngestSource | undefined,
  now: Date,
  formats: { name: string; format?: string }[],
): AsyncGenerator<IngestRecord> {
  for (const input of inputs) {
    const peeked = await openForIngest(await input.open());
    const source = forced ?? detectFormat(peeked.head);
    formats.push({ name: input.name, format: source?.format });
    if (!source) {
      peeked.stream.destroy();
      yield {
        kind: 'rejected',
        position: prefixed(input.name, 'start'),
        reason: peeked.head.length === 0 ? 'empty input' : 'format not recognised (name it with --format)',
      };
      continue;
    }
    for await (const r of source.read(peeked.stream, { now })) {
      yield { ...r, position: prefixed(input.name, r.position) };
    }
  }
}

/** Reads every input in turn through one pipeline run. */
export async function ingestStream(
  inputs: readonly IngestInput[],
  format: string | undefined,
  deps: IngestDeps,
): Promise<{ ok: true; value: IngestStreamResult } | { ok: false; error: string }> {
  const f = checkFormat(format);
  if (!f.ok) return f;
  const formats: { name: string; format?: string }[] = [];
  const summary = await runIngest(recordsOf(inputs, f.source, deps.now(), formats), deps);
  return { ok: true, value: { summary, formats } };
}
