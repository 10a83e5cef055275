/**
 * `periscope ingest [--format auto|NAME] [--dry-run] [--batch-size N] [--service-expiry 7d] FILE…|-`
 *
 * Streams scanner output and certificates through the ingest pipeline into the store. The
 * command writes to the store only: the engine is rebuilt from the store when the server starts,
 * and indexing here would hold every ingested host in this process's memory.
 */
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Transform, pipeline, type Readable } from 'node:stream';
import type { Config } from '../main/config.ts';
import { openRuntime } from '../main/runtime.ts';
import { formatSources, recordEnrichSources, sharedEnricher } from '../ingest/enrich/index.ts';
import {
  DEFAULT_SERVICE_EXPIRY_MS,
  checkFormat,
  formatNames,
  formatSummary,
  ingestStream,
  parseDuration,
  type IngestInput,
} from '../ingest/pipeline/index.ts';
import { EXIT } from './exit-codes.ts';
import { startProgress } from './progress.ts';
import { UsageError } from './import-command.ts';

export interface IngestFlags {
  format?: string;
  dryRun?: boolean;
  batchSize?: number;
  serviceExpiry?: string;
}

const READ_BYTES = 4 * 2 ** 20;

/** Rejected records printed to stderr; the summary counts all of them. */
const PRINTED_REJECTIONS = 1000;

function counting(onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}

/** A folder stands for every file below it (hidden ones excepted), in name order. */
function expandFolders(names: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.')) continue;
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) out.push(p);
    }
  };
  for (const n of names) {
    if (n !== '-' && existsSync(n) && statSync(n).isDirectory()) walk(n);
    else out.push(n);
  }
  return out;
}

export async function ingestCommand(config: Config, named: readonly string[], flags: IngestFlags): Promise<number> {
  if (named.length === 0) throw new UsageError('name at least one FILE, or - for standard input');
  const files = expandFolders(named);
  if (files.length === 0) throw new UsageError(`no files in ${named.join(', ')}`);
  const format = checkFormat(flags.format);
  if (!format.ok) throw new UsageError(`${format.error}; known formats: auto, ${formatNames().join(', ')}`);
  const expiry = flags.serviceExpiry === undefined ? DEFAULT_SERVICE_EXPIRY_MS : parseDuration(flags.serviceExpiry);
  if (expiry === undefined || expiry <= 0) throw new UsageError(`--service-expiry: expected a duration such as 7d or 36h, got '${flags.serviceExpiry}'`);
  if (files.filter((f) => f === '-').length > 1) throw new UsageError('standard input (-) can be named only once');
  let totalBytes = 0;
  for (const f of files) {
    if (f === '-') continue;
    if (!existsSync(f) || !statSync(f).isFile()) throw new UsageError(`${f}: no such file`);
    totalBytes += statSync(f).size;
  }
  const sized = !files.includes('-');
  let bytes = 0;
  const inputs: IngestInput[] = files.map((f) => ({
    name: f === '-' ? 'stdin' : f,
    // Reads of 4 MiB: a read completes only when the pipeline turns the event loop (once per
    // batch), so each read must bring at least a batch of lines; with 1 MiB the pipeline waited
    // 3 ms for each (docs/BENCHMARK.md, ingest round 9).
    open: (): Readable =>
      pipeline(f === '-' ? process.stdin : createReadStream(f, { highWaterMark: READ_BYTES }), counting((n) => (bytes += n)), () => undefined),
  }));

  const rt = await openRuntime(config, { storeOnly: true });
  try {
    const enricher = sharedEnricher();
    const sources = enricher.sources();
    process.stderr.write(`enrichment sources:\n${formatSources(sources)}`);
    const progress = startProgress(flags.dryRun ? 'ingest (dry)' : 'ingest', sized ? totalBytes : 0);
    const result = await ingestStream(inputs, flags.format, {
      indexer: { put: (index, items) => rt.store.documents.putMany(index, items) },
      store: rt.store,
      enricher,
      now: () => new Date(),
      dryRun: flags.dryRun,
      batchSize: flags.batchSize,
      serviceExpiryMs: expiry,
      maxRejectedKept: PRINTED_REJECTIONS,
      onProgress: (s) => (sized ? progress.update(bytes, totalBytes) : progress.update(s.records, s.records)),
    });
    progress.stop();
    if (!result.ok) throw new UsageError(result.error);
    const { summary, formats } = result.value;
    if (!summary.dryRun) await recordEnrichSources(rt.store.settings, sources);
    for (const r of summary.rejected.kept) process.stderr.write(`${r.position}: rejected: ${r.reason}\n`);
    if (summary.rejected.count > summary.rejected.kept.length) {
      process.stderr.write(`… and ${summary.rejected.count - summary.rejected.kept.length} more rejected records\n`);
    }
    for (const f of formats) process.stdout.write(`${f.name}: ${f.format ?? 'format not recognised'}\n`);
    process.stdout.write(formatSummary(summary));
    if (!summary.dryRun && summary.hosts.created + summary.hosts.updated + summary.certificates.new > 0) {
      process.stdout.write('A running server picks these up when it restarts (or push to its ingest endpoint instead).\n');
    }
    return summary.rejected.count > 0 ? EXIT.partial : EXIT.ok;
  } finally {
    await rt.close();
  }
}
