/**
 * Saved inventory queries (store/asm-saved-query-repository.ts) on any dialect: sqlite.test.ts and
 * postgres.test.ts call runSavedQuerySuite with a function that opens a fresh, empty store.
 */
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/index.ts';

const T1 = '2024-01-01T00:00:00.000Z';
const T2 = '2024-02-01T00:00:00.000Z';
const BAD_IDS = ['', 'abc', '1.5', '-1', '+1', '01', ' 1', "1' or '1'='1", '99999999999999999999'];

export function runSavedQuerySuite(name: string, open: () => Promise<Store>): void {
  describe(name, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    it('adds, gets, updates and removes within a workspace', async () => {
      const q = await store.asmSavedQueries.add('w1', 'foo domain', 'domain: foo.com', T1);
      assert.match(q.id, /^[1-9][0-9]*$/);
      assert.deepEqual(q, { id: q.id, workspaceId: 'w1', name: 'foo domain', query: 'domain: foo.com', createdAt: T1, updatedAt: T1 });
      assert.deepEqual(await store.asmSavedQueries.get('w1', q.id), q);
      const u = await store.asmSavedQueries.update('w1', q.id, 'bar', 'domain: bar.com', T2);
      assert.deepEqual(u, { ...q, name: 'bar', query: 'domain: bar.com', updatedAt: T2 });
      assert.equal(await store.asmSavedQueries.remove('w1', q.id), true);
      assert.equal(await store.asmSavedQueries.remove('w1', q.id), false);
      assert.equal(await store.asmSavedQueries.get('w1', q.id), undefined);
      assert.equal(await store.asmSavedQueries.update('w1', q.id, 'x', 'y', T2), undefined);
    });

    it('keeps workspaces apart', async () => {
      const q = await store.asmSavedQueries.add('w1', 'mine', 'tags: a', T1);
      assert.equal(await store.asmSavedQueries.get('w2', q.id), undefined);
      assert.equal(await store.asmSavedQueries.update('w2', q.id, 'stolen', 'x', T2), undefined);
      assert.equal(await store.asmSavedQueries.remove('w2', q.id), false);
      assert.deepEqual(await store.asmSavedQueries.list('w2', {}, { offset: 0, limit: 10 }), { items: [], total: 0 });
      assert.equal((await store.asmSavedQueries.get('w1', q.id))?.name, 'mine');
    });

    it('lists by name ignoring case, filters by prefix and term, and pages', async () => {
      for (const [n, query] of [
        ['Foo bar', 'domain: bar.com'],
        ['foo', 'domain: foo.com'],
        ['Ünïcode', 'host.services.port: 22'],
        ['other', 'tags: FOO'],
        ['FOOT', 'risks: x'],
      ]) {
        await store.asmSavedQueries.add('w', n, query, T1);
      }
      const names = async (filter: { namePrefix?: string; term?: string }, offset = 0, limit = 10) => {
        const r = await store.asmSavedQueries.list('w', filter, { offset, limit });
        return { names: r.items.map((q) => q.name), total: r.total };
      };
      assert.deepEqual(await names({}), { names: ['foo', 'Foo bar', 'FOOT', 'other', 'Ünïcode'], total: 5 });
      assert.deepEqual(await names({ namePrefix: 'FOO' }), { names: ['foo', 'Foo bar', 'FOOT'], total: 3 });
      assert.deepEqual(await names({ namePrefix: 'üN' }), { names: ['Ünïcode'], total: 1 });
      assert.deepEqual(await names({ term: 'foo' }), { names: ['foo', 'Foo bar', 'FOOT', 'other'], total: 4 });
      assert.deepEqual(await names({ namePrefix: 'foo', term: 'bar' }), { names: ['Foo bar'], total: 1 });
      assert.deepEqual(await names({ namePrefix: '%' }), { names: [], total: 0 });
      assert.deepEqual(await names({}, 1, 2), { names: ['Foo bar', 'FOOT'], total: 5 });
      assert.deepEqual(await names({}, 10, 2), { names: [], total: 5 });
    });

    it('treats ids that cannot name a row as not found', async () => {
      await store.asmSavedQueries.add('w', 'a', 'b', T1);
      for (const id of BAD_IDS) {
        assert.equal(await store.asmSavedQueries.get('w', id), undefined, id);
        assert.equal(await store.asmSavedQueries.update('w', id, 'x', 'y', T2), undefined, id);
        assert.equal(await store.asmSavedQueries.remove('w', id), false, id);
      }
    });
  });
}
