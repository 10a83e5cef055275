/**
 * Writes made by commands that only touch the store (`ingest`, `ct-sync` write through
 * rt.store.documents) are journaled too, so the next server start replays them on top of its
 * segments instead of re-reading every document.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '../../src/main/config.ts';
import { openRuntime } from '../../src/main/runtime.ts';
import { compileQuery } from '../../src/query/index.ts';
import { batchOf } from './durability-child.ts';

test('store-only writes of another command are replayed at the next start', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-offline-'));
  const config = { ...DEFAULTS, dataDir: dir, logLevel: 'silent' };
  try {
    const server = await openRuntime(config);
    await server.indexer.rebuild();
    const b0 = batchOf(0);
    await server.indexer.put(b0.index, b0.items);
    await server.close();

    // As `periscope ingest` does: the store alone, no engine opened.
    const cli = await openRuntime(config);
    const b1 = batchOf(1);
    await cli.store.documents.putMany(b1.index, b1.items);
    await cli.store.documents.remove('hosts', b0.items[0].id);
    await cli.close();

    const again = await openRuntime(config);
    try {
      const report = await again.indexer.rebuild();
      assert.equal(report.mode, 'segments');
      assert.equal(report.replayed, b1.items.length + 1);
      assert.equal(again.engine.size('hosts'), await again.store.documents.count('hosts'));
      const q = compileQuery('labels: batch-1', again.ctx.catalogues.hosts);
      assert.ok(q.ok);
      assert.equal(again.engine.search('hosts', { query: q.query, limit: 1 }).total, b1.items.length);
      const gone = compileQuery(`ip: ${b0.items[0].id}`, again.ctx.catalogues.hosts);
      assert.ok(gone.ok);
      assert.equal(again.engine.search('hosts', { query: gone.query, limit: 1 }).total, 0, 'removed in the store, removed from the engine');
    } finally {
      await again.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
