import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS, type Config } from '../main/config.ts';
import { openRuntime } from '../main/runtime.ts';
import { ctStateKey, type RawCtEntry } from '../ingest/ct/index.ts';
import { startLocalCtLog, type LocalCtLog } from '../ingest/ct/local-ct-log.ts';
import { ctSyncCommand } from './ct-sync-command.ts';
import { EXIT } from './exit-codes.ts';

let dir: string;
let config: Config;
let log: LocalCtLog;
const fixture = JSON.parse(readFileSync(new URL('../../test/fixtures/ct/get-entries.json', import.meta.url), 'utf8')) as { entries: RawCtEntry[] };

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'periscope-ct-sync-'));
  config = { ...DEFAULTS, dataDir: dir, demo: { ...DEFAULTS.demo, enabled: false } };
  // Entries 0, 1, 3 are a precertificate, its final certificate and an intermediate; 2 is truncated.
  log = await startLocalCtLog(fixture.entries.slice(), 2);
});

after(async () => {
  await log.close();
  rmSync(dir, { recursive: true, force: true });
});

test('ct-sync stores the log’s certificates, remembers its position and continues after the log grows', async () => {
  const lines: string[] = [];
  const errors: string[] = [];
  const deps = { out: (l: string) => void lines.push(l), err: (l: string) => void errors.push(l), signal: new AbortController().signal, client: { backoffMs: 1 } };
  const code = await ctSyncCommand(config, { log: log.url, batchSize: 3 }, deps);
  assert.equal(code, EXIT.partial, 'the truncated entry is rejected');
  assert.ok(errors.some((e) => e.startsWith(`${log.url} entry 2: rejected:`)), errors.join('\n'));
  assert.match(lines.at(-1) ?? '', /^ct-sync: 4 entries, 4 new certificates, 2 seen again, 1 rejected$/);

  const rt = await openRuntime(config);
  try {
    // Precertificate, final certificate, and the intermediate and root from the entries' chains.
    assert.equal(await rt.store.documents.count('certificates'), 4);
    assert.equal(await rt.store.settings.get(ctStateKey(log.url)), '4');
  } finally {
    await rt.close();
  }

  log.entries.push(fixture.entries[1]);
  lines.length = 0;
  const again = await ctSyncCommand(config, { log: log.url, batchSize: 3 }, deps);
  assert.equal(again, EXIT.ok);
  assert.ok(lines.some((l) => l.startsWith(`1 entries up to ${log.url} entry 4:`)), lines.join('\n'));
  assert.match(lines.at(-1) ?? '', /^ct-sync: 1 entries, 0 new certificates, 3 seen again, 0 rejected$/);
});

test('ct-sync reports an unreachable log as a failure', async () => {
  const errors: string[] = [];
  const code = await ctSyncCommand(
    config,
    { log: 'http://127.0.0.1:9/log/' },
    { out: () => {}, err: (l) => void errors.push(l), signal: new AbortController().signal, client: { backoffMs: 1, attempts: 2 } },
  );
  assert.equal(code, EXIT.failure);
  assert.match(errors.join('\n'), /gave up after 2 attempts/);
});

test('ct-sync --follow syncs again after the interval until stopped', async () => {
  const controller = new AbortController();
  const rounds: string[] = [];
  const code = await ctSyncCommand(
    config,
    { log: log.url, follow: true, intervalSeconds: 0 },
    {
      out: (l) => {
        if (l.includes('tree size')) {
          rounds.push(l);
          if (rounds.length === 1) log.entries.push(fixture.entries[3]);
          if (rounds.length === 2) controller.abort();
        }
      },
      err: () => {},
      signal: controller.signal,
      client: { backoffMs: 1 },
    },
  );
  assert.equal(code, EXIT.ok);
  assert.equal(rounds.length, 2);
  assert.match(rounds[0], /0 entries fetched from index 5/);
  assert.match(rounds[1], /1 entries fetched from index 5, next index 6/);
});
