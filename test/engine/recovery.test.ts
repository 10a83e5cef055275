/**
 * A server whose segment turns out damaged while serving (a block failing its checksum when it
 * is first decoded) rebuilds its index from the store and then answers like before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '../../src/main/config.ts';
import { openRuntime } from '../../src/main/runtime.ts';
import { compileQuery } from '../../src/query/index.ts';
import { batchOf } from './durability-child.ts';
import { damageHostsBlocks } from './engine-helpers.ts';
import type { PartedEngine } from '../../src/engine/index.ts';
import { INCOMPLETE_FILE } from '../../src/engine/embedded/parted-directory.ts';
import { buildApp } from '../../src/api/app.ts';
import { ensureAdmin } from '../../src/main/admin-account.ts';

/**
 * With `partDocuments`, the index is made of parts and the damage is in the last one, or in
 * `damaged` (part 1 is searched by the query thread, which the runtime starts for three parts or more).
 */
async function damageAndRecover(partDocuments?: number, damaged?: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-recovery-'));
  const config = { ...DEFAULTS, dataDir: dir, logLevel: 'silent', engine: partDocuments === undefined ? DEFAULTS.engine : { partDocuments } };
  try {
    const first = await openRuntime(config);
    await first.indexer.rebuild();
    for (let n = 0; n < 6; n++) {
      const b = batchOf(n);
      await first.indexer.put(b.index, b.items);
    }
    const q = compileQuery('services.service_name: HTTP', first.ctx.catalogues.hosts);
    assert.ok(q.ok);
    const expected = first.engine.search('hosts', { query: q.query, limit: 10 });
    await first.close();

    const parts = (first.engine as PartedEngine).parts.length;
    if (partDocuments !== undefined) assert.ok(parts >= 3, `several parts (${parts})`);
    const engineDir = join(dir, 'engine');
    const part = damaged ?? parts - 1;
    damageHostsBlocks(part === 0 ? engineDir : join(engineDir, `part-${String(part).padStart(4, '0')}`), 997);

    const rt = await openRuntime(config);
    try {
      const errors: unknown[] = [];
      rt.indexer.onListenerError = (e) => errors.push(e);
      const admin = await ensureAdmin(rt.store, dir, { PERISCOPE_ADMIN_API_ID: 'recovery-id', PERISCOPE_ADMIN_API_SECRET: 'recovery-secret-0123456789' });
      const app = await buildApp({ ctx: rt.ctx, auth: rt.auth, logger: false, rateLimit: config.rateLimit, bodyLimit: config.bodyLimit, version: 'test' });
      const report = await rt.indexer.rebuild();
      assert.equal(report.mode, 'segments');
      if (damaged !== undefined) assert.ok((rt.engine as PartedEngine).threadParts.includes(damaged), `part ${damaged} is the query thread's`);
      // The first query decodes the damaged block: over HTTP that is a 503 with Retry-After in the
      // Censys shape, never a 500 or a partial answer; the index reloads from the store meanwhile.
      const auth = 'Basic ' + Buffer.from(`${admin.apiId}:recovery-secret-0123456789`).toString('base64');
      const res = await app.inject({ method: 'GET', url: '/api/v2/hosts/search?q=services.service_name:HTTP', headers: { authorization: auth } });
      await app.close();
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.headers['retry-after'], '5');
      assert.equal(res.json().code, 503);
      assert.equal(res.json().status, 'Service Unavailable');
      for (let i = 0; i < 200 && rt.engine.persistence!.broken; i++) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(errors, []);
      assert.equal(rt.engine.persistence!.broken, undefined, 'rebuilt');
      assert.deepEqual(rt.engine.search('hosts', { query: q.query, limit: 10 }), expected);
      assert.equal(rt.engine.size('hosts'), await rt.store.documents.count('hosts'));
      assert.equal(existsSync(join(engineDir, INCOMPLETE_FILE)), false, 'the reload reached its checkpoint');
    } finally {
      await rt.close();
    }
    // The rebuilt index was checkpointed: the next start opens it.
    const again = await openRuntime(config);
    try {
      const report = await again.indexer.rebuild();
      assert.equal(report.mode, 'segments');
      assert.deepEqual(again.engine.search('hosts', { query: q.query, limit: 10 }), expected);
    } finally {
      await again.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a damaged block met while serving: the index is rebuilt from the store', { timeout: 120_000 }, () => damageAndRecover());

test('the same in the last part of an index made of parts', { timeout: 120_000 }, () => damageAndRecover(200));

test('the same in a part the query thread searches', { timeout: 120_000 }, () => damageAndRecover(200, 1));
