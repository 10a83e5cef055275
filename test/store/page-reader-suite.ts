/**
 * Saved hit renderings (store.pages), run on both dialects from sqlite.test.ts and postgres.test.ts:
 * a saved hit is served only for the content it was made from, under its spec.
 */
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PageRow, Store } from '../../src/store/index.ts';

const T1 = '2024-01-01T00:00:00.000Z';
const T2 = '2024-02-01T00:00:00.000Z';
const T3 = '2024-03-01T00:00:00.000Z';

function byId(rows: readonly PageRow[]): Map<string, PageRow> {
  return new Map(rows.map((r) => [r.id, r]));
}

export function runPageReaderSuite(name: string, open: () => Promise<Store>): void {
  describe(name, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    it('returns the document until a hit is saved for its content, then the hit', async () => {
      const doc = { ip: '1.1.1.1', services: [{ port: 53 }] };
      await store.documents.put('hosts', '1.1.1.1', doc, T1);
      const [first, ...rest] = await store.pages.hits('hosts', ['1.1.1.1', '9.9.9.9', '1.1.1.1'], 'v1');
      assert.equal(rest.length, 0);
      assert.equal(first.id, '1.1.1.1');
      assert.deepEqual(first.doc, doc);
      assert.equal(first.hit, undefined);
      await store.pages.saveHits('hosts', 'v1', [{ id: '1.1.1.1', contentHash: first.contentHash, hit: '{"ip":"1.1.1.1"}' }]);
      const [second] = await store.pages.hits('hosts', ['1.1.1.1'], 'v1');
      assert.deepEqual(second, { id: '1.1.1.1', contentHash: first.contentHash, hit: '{"ip":"1.1.1.1"}' });
      // Another spec, another index: not that rendering.
      assert.deepEqual((await store.pages.hits('hosts', ['1.1.1.1'], 'v2'))[0].doc, doc);
      assert.deepEqual(await store.pages.hits('certificates', ['1.1.1.1'], 'v1'), []);
      assert.deepEqual(await store.pages.hits('hosts', [], 'v1'), []);
    });

    it('never serves a hit made from older content', async () => {
      await store.documents.put('hosts', 'h', { v: 1 }, T1);
      const [r1] = await store.pages.hits('hosts', ['h'], 's');
      await store.pages.saveHits('hosts', 's', [{ id: 'h', contentHash: r1.contentHash, hit: '{"v":1}' }]);
      // Served once, so that a reader keeping hits in memory holds it.
      assert.equal((await store.pages.hits('hosts', ['h'], 's'))[0].hit, '{"v":1}');
      await store.documents.put('hosts', 'h', { v: 2 }, T2);
      const [r2] = await store.pages.hits('hosts', ['h'], 's');
      assert.deepEqual(r2.doc, { v: 2 });
      assert.notEqual(r2.contentHash, r1.contentHash);
      // A slow reader saving what it rendered from the old content changes nothing.
      await store.pages.saveHits('hosts', 's', [{ id: 'h', contentHash: r1.contentHash, hit: '{"v":1}' }]);
      assert.deepEqual((await store.pages.hits('hosts', ['h'], 's'))[0].doc, { v: 2 });
      // Unchanged content and late observations keep the current content: the hit stays valid.
      await store.pages.saveHits('hosts', 's', [{ id: 'h', contentHash: r2.contentHash, hit: '{"v":2}' }]);
      await store.documents.put('hosts', 'h', { v: 2 }, T3);
      await store.documents.put('hosts', 'h', { v: 0 }, '2023-06-01T00:00:00.000Z');
      assert.equal((await store.documents.get('hosts', 'h'))?.version, 3);
      assert.equal((await store.pages.hits('hosts', ['h'], 's'))[0].hit, '{"v":2}');
      // Removed and written again with the same content: the hash matches, so the hit is valid again.
      await store.documents.remove('hosts', 'h');
      assert.deepEqual(await store.pages.hits('hosts', ['h'], 's'), []);
      await store.documents.putMany('hosts', [{ id: 'h', doc: { v: 4 }, observedAt: T3 }]);
      assert.deepEqual((await store.pages.hits('hosts', ['h'], 's'))[0].doc, { v: 4 }, 'written again through putMany');
      await store.documents.remove('hosts', 'h');
      assert.deepEqual(await store.pages.hits('hosts', ['h'], 's'), []);
      await store.documents.put('hosts', 'h', { v: 2 }, T3);
      assert.equal((await store.pages.hits('hosts', ['h'], 's'))[0].hit, '{"v":2}');
    });

    it('hands back documents exactly (NUL and private-use characters included)', async () => {
      const doc = { ip: '10.0.0.1', services: [{ port: 1, banner: 'a\u0000b\uE000' }], ['k\u0000']: ['\\u0000'] };
      await store.documents.put('hosts', '10.0.0.1', doc, T1);
      assert.deepEqual((await store.pages.hits('hosts', ['10.0.0.1'], 's'))[0].doc, doc);
      const { stale } = await store.pages.staleHits('hosts', 's', undefined, 10);
      assert.deepEqual(stale[0].doc, doc);
    });

    it('reads pages of more ids than one statement takes', async () => {
      const items = Array.from({ length: 1100 }, (_, i) => ({ id: `10.1.${i >> 8}.${i & 255}`, doc: { n: i }, observedAt: T1 }));
      await store.documents.putMany('hosts', items);
      const rows = await store.pages.hits('hosts', items.map((i) => i.id), 's');
      assert.equal(rows.length, 1100);
      assert.deepEqual(byId(rows).get('10.1.4.7')?.doc, { n: 1031 });
      await store.pages.saveHits('hosts', 's', rows.map((r) => ({ id: r.id, contentHash: r.contentHash, hit: `{"n":${(r.doc as { n: number }).n}}` })));
      const again = await store.pages.hits('hosts', items.map((i) => i.id), 's');
      assert.ok(again.every((r) => r.hit !== undefined));
      assert.equal(byId(again).get('10.1.4.7')?.hit, '{"n":1031}');
    });

    it('walks the documents a window at a time, listing those without a current hit', async () => {
      for (const id of ['a', 'b', 'c', 'd', 'e']) await store.documents.put('hosts', id, { id }, T1);
      await store.documents.put('certificates', 'x', { id: 'x' }, T1);
      const fresh = (await store.pages.hits('hosts', ['b', 'd'], 's')).map((r) => ({ id: r.id, contentHash: r.contentHash, hit: '{}' }));
      await store.pages.saveHits('hosts', 's', fresh);
      const seen: string[] = [];
      const lasts: (string | undefined)[] = [];
      let after: string | undefined;
      for (;;) {
        const { stale, last } = await store.pages.staleHits('hosts', 's', after, 2);
        lasts.push(last);
        if (last === undefined) break;
        seen.push(...stale.map((s) => s.id));
        after = last;
      }
      assert.deepEqual(seen, ['a', 'c', 'e']);
      assert.deepEqual(lasts, ['b', 'd', 'e', undefined]);
      // Under another spec every document is stale.
      assert.equal((await store.pages.staleHits('hosts', 'other', undefined, 10)).stale.length, 5);
    });

    it('reads the current version as the JSON text JSON.stringify writes for it', async () => {
      const docs = [
        { ip: '10.0.0.2', b: [1, 2.5, -0, 1e21, null, true], a: { z: 'é\u2028"\\', '10': 'index-like', '2': 'first' } },
        { ip: '10.0.0.3', s: 'a\u0000b\uE000\u0001' },
      ];
      await store.documents.put('hosts', 'x', docs[0], T1);
      await store.documents.put('hosts', 'x', docs[1], T2);
      await store.documents.put('hosts', 'x', docs[0], '2023-01-01T00:00:00.000Z');
      const current = (await store.documents.get('hosts', 'x'))!.doc;
      assert.equal(await store.pages.documentJson('hosts', 'x'), JSON.stringify(current));
      assert.deepEqual(JSON.parse((await store.pages.documentJson('hosts', 'x'))!), docs[1]);
      await store.documents.put('certificates', 'c', docs[0], T1);
      assert.equal(await store.pages.documentJson('certificates', 'c'), JSON.stringify((await store.documents.get('certificates', 'c'))!.doc));
      assert.equal(await store.pages.documentJson('hosts', 'c'), undefined);
    });

    it('drops hits of removed documents', async () => {
      await store.documents.put('hosts', 'a', { a: 1 }, T1);
      await store.documents.put('hosts', 'b', { b: 1 }, T1);
      const rows = await store.pages.hits('hosts', ['a', 'b'], 's');
      await store.pages.saveHits('hosts', 's', rows.map((r) => ({ id: r.id, contentHash: r.contentHash, hit: '{}' })));
      await store.documents.remove('hosts', 'a');
      assert.equal(await store.pages.removeOrphanHits('hosts'), 1);
      assert.equal(await store.pages.removeOrphanHits('hosts'), 0);
      assert.equal((await store.pages.hits('hosts', ['b'], 's'))[0].hit, '{}');
    });
  });
}
