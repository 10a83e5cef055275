/**
 * `periscope ct-sync --log URL [--batch-size N] [--max-entries N] [--follow [--interval S]]`
 *
 * Follows a Certificate Transparency log into the store: each batch of entries goes through the
 * ingest pipeline, and the log's next index (settings key `ct.<log url>.next`) moves only after
 * the batch is stored, so an interrupted sync resumes without gaps. Like `ingest`, it writes to
 * the store only; a running server picks the certificates up when it restarts.
 */
import type { Config } from '../main/config.ts';
import { openRuntime } from '../main/runtime.ts';
import { sharedEnricher } from '../ingest/enrich/index.ts';
import { runIngest, type DocumentWriter, type IngestSummary } from '../ingest/pipeline/index.ts';
import { ctSync, type CtSyncResult } from '../ingest/ct/index.ts';
import type { IngestRecord } from '../ingest/observation.ts';
import { EXIT } from './exit-codes.ts';
import { UsageError } from './import-command.ts';

export interface CtSyncFlags {
  log: string;
  /** Entries asked per get-entries request (default 256; logs often cap lower). */
  batchSize?: number;
  /** Entries to fetch in this run (per round with --follow); default: up to the tree size. */
  maxEntries?: number;
  /** Keep following: sync, wait, sync again, until interrupted. */
  follow?: boolean;
  /** Seconds between rounds with --follow (default 60). */
  intervalSeconds?: number;
}

export interface CtSyncCommandDeps {
  /** Where progress and results are written (default process.stdout / process.stderr). */
  readonly out?: (line: string) => void;
  readonly err?: (line: string) => void;
  /** Stops the sync (default: SIGINT / SIGTERM). */
  readonly signal?: AbortSignal;
  /** HTTP client tuning (tests shorten the backoff). */
  readonly client?: { readonly backoffMs?: number; readonly timeoutMs?: number; readonly attempts?: number };
}

async function* each(records: readonly IngestRecord[]): AsyncGenerator<IngestRecord> {
  yield* records;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export async function ctSyncCommand(config: Config, opts: CtSyncFlags, deps: CtSyncCommandDeps = {}): Promise<number> {
  const out = deps.out ?? ((l: string) => void process.stdout.write(`${l}\n`));
  const err = deps.err ?? ((l: string) => void process.stderr.write(`${l}\n`));
  if (!opts.log) throw new UsageError('--log URL is required');
  try {
    new URL(opts.log.includes('://') ? opts.log : `https://${opts.log}`);
  } catch {
    throw new UsageError(`--log: not a URL: '${opts.log}'`);
  }
  const batchSize = opts.batchSize ?? 256;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new UsageError('--batch-size must be a whole number of at least 1');
  if (opts.maxEntries !== undefined && (!Number.isInteger(opts.maxEntries) || opts.maxEntries < 0)) throw new UsageError('--max-entries must be a whole number');
  const interval = (opts.intervalSeconds ?? 60) * 1000;
  if (!(interval >= 0)) throw new UsageError('--interval must be a number of seconds');

  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  if (deps.signal) deps.signal.addEventListener('abort', onSignal, { once: true });
  else {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  const rt = await openRuntime(config, { storeOnly: true });
  const totals = { entries: 0, certificatesNew: 0, certificatesSeen: 0, rejected: 0 };
  let failed = false;
  try {
    const ingestDeps = {
      indexer: { put: (index, items) => rt.store.documents.putMany(index, items) } satisfies DocumentWriter,
      store: rt.store,
      enricher: sharedEnricher(),
      now: () => new Date(),
    };
    for (;;) {
      const result: CtSyncResult = await ctSync({
        logUrl: opts.log,
        batchSize,
        maxEntries: opts.maxEntries,
        state: rt.store.settings,
        signal: controller.signal,
        client: deps.client,
        onEntries: async (records) => {
          const summary: IngestSummary = await runIngest(each(records), { ...ingestDeps, batchSize: records.length });
          totals.certificatesNew += summary.certificates.new;
          totals.certificatesSeen += summary.certificates.seenAgain;
          totals.rejected += summary.rejected.count;
          for (const r of summary.rejected.kept) err(`${r.position}: rejected: ${r.reason}`);
          const last = records.at(-1);
          out(`${records.length} entries${last ? ` up to ${last.position}` : ''}: ${summary.certificates.new} new certificates, ${summary.certificates.seenAgain} seen again`);
        },
      });
      totals.entries += result.entries;
      if (!result.ok) {
        err(`ct-sync ${result.logUrl}: ${result.error} (stopped at index ${result.next}; the next run resumes there)`);
        failed = true;
      } else {
        out(`${result.logUrl}: tree size ${result.treeSize}, ${result.entries} entries fetched from index ${result.from}, next index ${result.next}${result.aborted ? ' (interrupted)' : ''}`);
      }
      if (!opts.follow || failed || controller.signal.aborted) break;
      await wait(interval, controller.signal);
      if (controller.signal.aborted) break;
    }
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    deps.signal?.removeEventListener('abort', onSignal);
    await rt.close();
  }
  out(`ct-sync: ${totals.entries} entries, ${totals.certificatesNew} new certificates, ${totals.certificatesSeen} seen again, ${totals.rejected} rejected`);
  if (failed) return EXIT.failure;
  return totals.rejected > 0 ? EXIT.partial : EXIT.ok;
}
