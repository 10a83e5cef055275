/**
 * A small RFC 6962 log server for tests: serves get-sth and get-entries over a list of entries
 * on 127.0.0.1 at a port the OS picks. It caps batches (as real logs do), can be told to fail
 * the next requests, and counts what it was asked. Not used outside tests.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RawCtEntry } from './ct-log-client.ts';

export interface LocalCtLog {
  readonly url: string;
  readonly entries: RawCtEntry[];
  /** Largest number of entries one get-entries answer holds. */
  maxBatch: number;
  /** The next N requests answer this status (e.g. 500, 429). */
  failNext(n: number, status: number): void;
  /** Called for each get-entries request before it is answered; may delay it. */
  onGetEntries?: (start: number, end: number) => Promise<void> | void;
  readonly requests: { path: string; status: number }[];
  close(): Promise<void>;
}

export async function startLocalCtLog(entries: RawCtEntry[], maxBatch: number): Promise<LocalCtLog> {
  let failures: { n: number; status: number } = { n: 0, status: 500 };
  const log: LocalCtLog = {
    url: '',
    entries,
    maxBatch,
    failNext(n, status) {
      failures = { n, status };
    },
    requests: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', 'http://127.0.0.1');
      const send = (status: number, body: unknown): void => {
        log.requests.push({ path: u.pathname + u.search, status });
        res.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '0' } : {}) });
        res.end(JSON.stringify(body));
      };
      if (failures.n > 0) {
        failures.n--;
        return send(failures.status, { error: 'injected failure' });
      }
      if (u.pathname === '/log/ct/v1/get-sth') {
        return send(200, { tree_size: log.entries.length, timestamp: Date.now(), sha256_root_hash: Buffer.alloc(32).toString('base64'), tree_head_signature: 'BAMARjBEAiA=' });
      }
      if (u.pathname === '/log/ct/v1/get-entries') {
        const start = Number(u.searchParams.get('start'));
        const end = Number(u.searchParams.get('end'));
        if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || start >= log.entries.length) {
          return send(400, { error: 'bad range' });
        }
        await log.onGetEntries?.(start, end);
        const last = Math.min(end, start + log.maxBatch - 1, log.entries.length - 1);
        return send(200, { entries: log.entries.slice(start, last + 1) });
      }
      send(404, { error: 'not found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  (log as { url: string }).url = `http://127.0.0.1:${port}/log/`;
  return log;
}
