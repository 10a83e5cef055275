/**
 * A server whose segment turns out damaged while serving (a block failing its checksum when it
 * is first decoded) rebuilds its index from the store and then answers like before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '../../src/main/config.ts';
import { openRuntime } from '../../src/main/runtime.ts';
import { compileQuery } from '../../src/query/index.ts';
import { batchOf } from './durability-child.ts';

test('a damaged block met while serving: the index is rebuilt from the store', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-recovery-'));
  const config = { ...DEFAULTS, dataDir: dir, logLevel: 'silent' };
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

    const engineDir = join(dir, 'engine');
    const file = join(engineDir, readdirSync(engineDir).find((f) => f.startsWith('hosts-') && f.endsWith('.seg'))!);
    const b = readFileSync(file);
    const eager = b.readUInt32LE(24);
    for (let off = 40; off < b.length - eager; off += 997) b[off] ^= 0xff;
    writeFileSync(file, b);

    const rt = await openRuntime(config);
    try {
      const errors: unknown[] = [];
      rt.indexer.onListenerError = (e) => errors.push(e);
      const report = await rt.indexer.rebuild();
      assert.equal(report.mode, 'segments');
      assert.throws(() => rt.engine.search('hosts', { query: q.query, limit: 10 }), /checksum/);
      assert.throws(() => rt.engine.search('hosts', { query: q.query, limit: 10 }), /being rebuilt/);
      for (let i = 0; i < 200 && rt.engine.persistence!.broken; i++) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(errors, []);
      assert.equal(rt.engine.persistence!.broken, undefined, 'rebuilt');
      assert.deepEqual(rt.engine.search('hosts', { query: q.query, limit: 10 }), expected);
      assert.equal(rt.engine.size('hosts'), await rt.store.documents.count('hosts'));
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
});
