/**
 * On a SQLite file, pages and views are read on a connection of their own: what any other
 * connection commits (the store's, the ingest writer thread's) is seen by the next read, so a
 * saved hit of older content is never served.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'periscope-page-read-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('page reads on their own SQLite connection', () => {
  it('see documents the writer thread commits after the connection opened', async () => {
    const store = await openStore({ kind: 'sqlite', file: join(dir, 'writer.db') });
    try {
      await store.documents.put('hosts', '10.0.0.1', { v: 1 }, '2024-01-01T00:00:00.000Z');
      const [first] = await store.pages.hits('hosts', ['10.0.0.1'], 's');
      await store.pages.saveHits('hosts', 's', [{ id: '10.0.0.1', contentHash: first.contentHash, hit: '{"v":1}' }]);
      assert.equal((await store.pages.hits('hosts', ['10.0.0.1'], 's'))[0].hit, '{"v":1}');
      assert.equal(await store.pages.documentJson('hosts', '10.0.0.1'), '{"v":1}');

      const stop = await store.documents.startWriterThread!();
      await store.documents.putMany('hosts', [
        { id: '10.0.0.1', doc: { v: 2 }, observedAt: '2024-02-01T00:00:00.000Z' },
        { id: '10.0.0.2', doc: { v: 3 }, observedAt: '2024-02-01T00:00:00.000Z' },
      ]);
      await stop();

      const rows = new Map((await store.pages.hits('hosts', ['10.0.0.1', '10.0.0.2'], 's')).map((r) => [r.id, r]));
      assert.deepEqual(rows.get('10.0.0.1')?.doc, { v: 2 });
      assert.equal(rows.get('10.0.0.1')?.hit, undefined);
      assert.deepEqual(rows.get('10.0.0.2')?.doc, { v: 3 });
      assert.equal(await store.pages.documentJson('hosts', '10.0.0.1'), '{"v":2}');
    } finally {
      await store.close();
    }
  });
});
