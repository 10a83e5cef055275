/**
 * The benchmark corpus as an NDJSON file (one `{"id","doc"}` per line, the current version of each
 * demo host). Generating demo hosts is far slower than loading any engine, so the corpus is made
 * once per (hosts, seed) and every engine streams it back from disk.
 */
import { createReadStream, createWriteStream, existsSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { demoStream } from '../src/ingest/demo/index.ts';
import type { Doc } from '../src/engine/index.ts';

export interface CorpusEntry {
  readonly id: string;
  readonly doc: Doc;
}

/** Certificates the demo generator makes for a corpus of `hosts` (the stream makes the same). */
export function certificatesFor(hosts: number): number {
  return Math.min(2000, Math.max(100, Math.ceil(hosts / 100)));
}

export interface CorpusInfo {
  readonly path: string;
  readonly generated: boolean;
  readonly ms: number;
}

export async function ensureCorpus(dir: string, hosts: number, seed: number, onProgress?: (done: number) => void): Promise<CorpusInfo> {
  const path = `${dir}/corpus-h${hosts}-s${seed}.ndjson`;
  if (existsSync(path)) return { path, generated: false, ms: 0 };
  const started = performance.now();
  const tmp = `${path}.${process.pid}.tmp`;
  const out = createWriteStream(tmp);
  const demo = demoStream({ hosts, certificates: certificatesFor(hosts), seed });
  let done = 0;
  for (const host of demo.hosts) {
    const last = host.versions[host.versions.length - 1];
    if (!last) continue;
    if (!out.write(JSON.stringify({ id: host.id, doc: last.doc }) + '\n')) await once(out, 'drain');
    if (++done % 10000 === 0) onProgress?.(done);
  }
  out.end();
  await once(out, 'finish');
  // Renamed only when complete, so an interrupted run never leaves a truncated corpus behind.
  renameSync(tmp, path);
  return { path, generated: true, ms: performance.now() - started };
}

/** The corpus in batches; only one batch of parsed documents is alive at a time. */
export async function* readCorpus(path: string, batchSize: number): AsyncGenerator<CorpusEntry[]> {
  const input = createReadStream(path);
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    let batch: CorpusEntry[] = [];
    for await (const line of lines) {
      if (line.length === 0) continue;
      batch.push(JSON.parse(line) as CorpusEntry);
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    // A reader that stops early (the HTTP bench's view ids) must stop the file too: readline
    // would otherwise go on splitting the rest of it, on the server's thread, while it is timed.
    lines.close();
    input.destroy();
  }
}
