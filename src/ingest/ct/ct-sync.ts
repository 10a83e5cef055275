/**
 * Follows one CT log: reads its tree size, fetches the entries not yet seen in batches, hands
 * each batch to the caller and only then records the new position. A process killed at any
 * point therefore never skips an entry; at worst the last batch is fetched and ingested again,
 * which ingest treats as a no-op.
 */
import type { IngestRecord } from '../observation.ts';
import { CtLogClient, normaliseLogUrl, type CtLogClientOptions, type CtResult, type RawCtEntry } from './ct-log-client.ts';
import { ctEntryRecord } from './ct-entry.ts';

/** Where positions are kept: the store's settings repository fits. */
export interface CtSyncState {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}

export interface CtSyncOptions {
  readonly logUrl: string;
  /** Entries asked per get-entries request; logs may answer with fewer. */
  readonly batchSize: number;
  /** Receives each batch (certificate and rejected records, in log order). The position advances after it resolves. */
  onEntries(records: IngestRecord[]): Promise<void>;
  readonly state: CtSyncState;
  readonly signal?: AbortSignal;
  /** Stop after this many entries in this run (the next run continues). */
  readonly maxEntries?: number;
  /** Timeouts and retries of the HTTP client. */
  readonly client?: Omit<CtLogClientOptions, 'signal'>;
}

export interface CtSyncResult {
  readonly ok: boolean;
  /** Set when ok is false. */
  readonly error?: string;
  /** True when the signal stopped the run; what was handed over is recorded. */
  readonly aborted: boolean;
  readonly logUrl: string;
  /** The log's tree size from get-sth (0 when get-sth failed). */
  readonly treeSize: number;
  /** Index this run started from and the next index to fetch. */
  readonly from: number;
  readonly next: number;
  readonly entries: number;
  readonly rejected: number;
}

/** The settings key of a log's next index. */
export function ctStateKey(logUrl: string): string {
  return `ct.${normaliseLogUrl(logUrl)}.next`;
}

export async function ctSync(options: CtSyncOptions): Promise<CtSyncResult> {
  const client = new CtLogClient(options.logUrl, { ...options.client, signal: options.signal });
  const logUrl = client.logUrl;
  const key = ctStateKey(logUrl);
  const stored = await options.state.get(key);
  const from = stored !== undefined && /^\d+$/.test(stored) ? Number(stored) : 0;
  let next = from;
  let entries = 0;
  let rejected = 0;
  const result = (extra: { ok: boolean; error?: string; aborted?: boolean; treeSize: number }): CtSyncResult => ({
    ok: extra.ok,
    ...(extra.error ? { error: extra.error } : {}),
    aborted: extra.aborted ?? false,
    logUrl,
    treeSize: extra.treeSize,
    from,
    next,
    entries,
    rejected,
  });

  const sth = await client.getSth();
  if (!sth.ok) return result({ ok: !!sth.aborted, error: sth.aborted ? undefined : sth.error, aborted: sth.aborted, treeSize: 0 });
  const treeSize = sth.value.tree_size;
  const batchSize = Math.max(1, Math.floor(options.batchSize));
  const stop = options.maxEntries !== undefined ? Math.min(treeSize, from + Math.max(0, options.maxEntries)) : treeSize;

  // One request stays in flight while the caller stores the previous batch; the next start is
  // known as soon as a batch arrives, since the log decides how many entries it returns.
  const fetchFrom = (start: number): Promise<CtResult<RawCtEntry[]>> => client.getEntries(start, Math.min(start + batchSize, stop) - 1);
  let pending = next < stop ? fetchFrom(next) : undefined;
  while (pending) {
    const got = await pending;
    pending = undefined;
    if (!got.ok) return result({ ok: !!got.aborted, error: got.aborted ? undefined : got.error, aborted: got.aborted, treeSize });
    if (got.value.length === 0) return result({ ok: false, error: `log answered no entries from index ${next} although its tree size is ${treeSize}`, treeSize });
    const records = got.value.map((item, i) => ctEntryRecord(item, { log: logUrl, index: next + i, position: `${logUrl} entry ${next + i}` }));
    const after = next + records.length;
    if (after < stop && !options.signal?.aborted) pending = fetchFrom(after);
    try {
      await options.onEntries(records);
    } catch (err) {
      // Let the request already sent finish rather than leave it running after we return.
      if (pending) await pending;
      throw err;
    }
    next = after;
    entries += records.length;
    rejected += records.filter((r) => r.kind === 'rejected').length;
    await options.state.set(key, String(next));
    if (options.signal?.aborted) return result({ ok: true, aborted: true, treeSize });
  }
  return result({ ok: true, aborted: false, treeSize });
}
