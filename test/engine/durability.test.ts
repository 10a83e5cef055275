/**
 * Durability: a process writing batches through the Indexer is SIGKILLed at random moments —
 * inside store transactions, journal appends, segment and manifest writes. After each kill the
 * engine opens from its segments (none lost or half written), every acknowledged document is
 * searchable, and the engine agrees with the store: the same ids, and the same counts for a set
 * of queries as a reference engine loaded from the whole store.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '../../src/main/config.ts';
import { openRuntime } from '../../src/main/runtime.ts';
import { Indexer } from '../../src/search/indexer.ts';
import { ReferenceEngine, type PartedEngine } from '../../src/engine/index.ts';
import { compileQuery } from '../../src/query/index.ts';
import type { ResolvedQuery } from '../../src/query/resolved.ts';
import { batchOf } from './durability-child.ts';
import { everyHostId, runAndKill } from './kill-child.ts';

const CHILD = new URL('./durability-child.ts', import.meta.url).pathname;
const ROUNDS = Number(process.env.DURABILITY_ROUNDS ?? 5);

const QUERIES = [
  '*',
  'services.service_name: HTTP',
  'services.port: 443 and location.country: Germany',
  'not services.port: 22',
  'services: (service_name: HTTP and port: 8080)',
  'nginx',
  'services.banner: "OpenSSH_8.9"',
  'services.certificate: *',
  'services.tls.certificate.parsed.issuer_dn: "CN=Test CA"',
  'labels: batch-3',
];

/** With `partDocuments`, the index is made of parts that fill and are sealed while the child writes. */
async function killAndCheck(partDocuments?: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-durability-'));
  const engine = partDocuments === undefined ? DEFAULTS.engine : { partDocuments };
  let parts = 0;
  try {
    const acked = new Set<number>();
    let next = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const childArgs = [dir, String(next), String(300 + Math.floor(Math.random() * 900)), ...(partDocuments === undefined ? [] : [String(partDocuments)])];
      const killed = await runAndKill(CHILD, childArgs, 200, 2500);
      const run = { acked: killed.acked, opened: /^opened (\w+)$/m.exec(killed.out)?.[1] ?? '' };
      assert.equal(run.opened, round === 0 ? 'store' : 'segments', `round ${round}: how the child opened`);
      for (const n of run.acked) acked.add(n);
      next = Math.max(next, ...run.acked) + 1;

      const rt = await openRuntime({ ...DEFAULTS, dataDir: dir, logLevel: 'silent', engine });
      try {
        const report = await rt.indexer.rebuild();
        assert.equal(report.mode, 'segments', `round ${round}: segments were usable (${report.reason ?? ''})`);
        assert.ok(existsSync(join(dir, 'engine', 'manifest.json')));
        const manifest = JSON.parse(readFileSync(join(dir, 'engine', 'manifest.json'), 'utf8'));
        for (const s of Object.values(manifest.segments) as { file: string; deltas?: { file: string }[] }[]) {
          for (const f of [s.file, ...(s.deltas ?? []).map((d) => d.file)]) assert.ok(existsSync(join(dir, 'engine', f)), f);
        }

        // Every acknowledged document is there, with its acknowledged (or a later) content.
        const engineIds = everyHostId(rt.engine);
        const have = new Set(engineIds);
        for (const n of acked) {
          const b = batchOf(n);
          if (b.index === 'hosts') for (const it of b.items) assert.ok(have.has(it.id), `round ${round}: acknowledged ${it.id} (batch ${n}) is searchable`);
        }
        assert.equal(rt.engine.size('hosts'), await rt.store.documents.count('hosts'));
        parts = Math.max(parts, (rt.engine as PartedEngine).parts.length);
        assert.equal(rt.engine.size('certificates'), await rt.store.documents.count('certificates'));

        // The same answers as an engine loaded from the whole store.
        const ref = new ReferenceEngine(rt.ctx.catalogues);
        await new Indexer({ ...rt.ctx, engine: ref }).rebuild();
        assert.deepEqual(engineIds, everyHostId(ref), `round ${round}: same ids`);
        for (const text of QUERIES) {
          const c = compileQuery(text, rt.ctx.catalogues.hosts);
          assert.ok(c.ok, text);
          const query: ResolvedQuery = c.query;
          const a = rt.engine.search('hosts', { query, limit: 20 });
          const e = ref.search('hosts', { query, limit: 20 });
          assert.equal(a.total, e.total, `round ${round}: count of ${text}`);
          assert.deepEqual(a.hits.map((h) => h.id), e.hits.map((h) => h.id), `round ${round}: first hits of ${text}`);
        }
      } finally {
        // A clean close checkpoints: the next round starts from fresh segments and an empty journal.
        await rt.close();
      }
    }
    assert.ok(acked.size >= ROUNDS, 'the children made progress');
    if (partDocuments !== undefined) assert.ok(parts >= 3, `the index was made of several parts (${parts})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('killed at random moments while writing: after restart the engine agrees with the store', { timeout: 600_000 }, () => killAndCheck());

test('the same with an index of parts of 400 documents, sealed while the child writes', { timeout: 600_000 }, () => killAndCheck(400));
