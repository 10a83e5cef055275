/**
 * The behaviour every Store must have, whatever the database. Each dialect's test file calls
 * runStoreSuite with a function that opens a fresh, empty store; every test gets its own.
 */
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Store, StoredDocument } from '../../src/store/index.ts';

const T1 = '2024-01-01T00:00:00.000Z';
const T2 = '2024-02-01T00:00:00.000Z';
const T3 = '2024-03-01T00:00:00.000Z';
const T4 = '2024-04-01T00:00:00.000Z';

/** Ids that no integer-keyed row can have; none may throw or match. */
const BAD_IDS = ['', 'abc', '1.5', '-1', '+1', '1e3', ' 1', '1 ', '01', '0x1', "1' or '1'='1", '99999999999999999999', '١'];

function versions(docs: readonly StoredDocument[]): number[] {
  return docs.map((d) => d.version);
}

function times(docs: readonly StoredDocument[]): string[] {
  return docs.map((d) => d.validFrom);
}

export function runStoreSuite(name: string, open: () => Promise<Store>): void {
  describe(name, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    describe('documents', () => {
      it('creates version 1 and reads it back', async () => {
        const doc = { ip: '1.1.1.1', services: [{ port: 53, service_name: 'DNS' }], location: { country: 'AU' } };
        assert.deepEqual(await store.documents.put('hosts', '1.1.1.1', doc, T1), { outcome: 'created', version: 1 });
        assert.deepEqual(await store.documents.get('hosts', '1.1.1.1'), { id: '1.1.1.1', doc, version: 1, validFrom: T1 });
        assert.equal(await store.documents.get('hosts', '1.1.1.2'), undefined);
        assert.equal(await store.documents.get('certificates', '1.1.1.1'), undefined);
      });

      it('keeps NUL bytes, private-use characters and backslashes in strings and keys exactly', async () => {
        const tricky = ['a\u0000b', '\u0000', '\uE000', '\uE0000', '\uE000\u0000\uE000', '\\u0000', '\\\u0000', 'plain'];
        const doc = { ip: '10.9.9.9', services: tricky.map((banner, port) => ({ port, banner })), ['k\u0000\uE000']: tricky };
        assert.equal((await store.documents.put('hosts', '10.9.9.9', doc, T1)).outcome, 'created');
        assert.deepEqual((await store.documents.get('hosts', '10.9.9.9'))!.doc, doc);
        assert.deepEqual((await store.documents.history('hosts', '10.9.9.9'))[0].doc, doc);
        assert.equal((await store.documents.put('hosts', '10.9.9.9', structuredClone(doc), T2)).outcome, 'unchanged');
      });

      it('normalises observation times to millisecond UTC text', async () => {
        await store.documents.put('hosts', 'a', { x: 1 }, '2024-01-01T02:00:00+02:00');
        assert.equal((await store.documents.get('hosts', 'a'))?.validFrom, T1);
        assert.equal((await store.documents.getAt('hosts', 'a', '2024-01-01T00:00:00Z'))?.version, 1);
      });

      it('writes nothing when the content is unchanged, whatever the key order', async () => {
        await store.documents.put('hosts', 'h', { a: 1, b: { c: [1, 2], d: 'x' } }, T1);
        const r = await store.documents.put('hosts', 'h', { b: { d: 'x', c: [1, 2] }, a: 1 }, T2);
        assert.deepEqual(r, { outcome: 'unchanged', version: 1 });
        const h = await store.documents.history('hosts', 'h');
        assert.equal(h.length, 1);
        assert.equal((await store.documents.get('hosts', 'h'))?.validFrom, T1);
        // Array order is content, not presentation.
        assert.equal((await store.documents.put('hosts', 'h', { a: 1, b: { c: [2, 1], d: 'x' } }, T3)).outcome, 'updated');
      });

      it('keeps every change as a version, oldest first', async () => {
        await store.documents.put('hosts', 'h', { v: 1 }, T1);
        assert.deepEqual(await store.documents.put('hosts', 'h', { v: 2 }, T2), { outcome: 'updated', version: 2 });
        assert.deepEqual(await store.documents.put('hosts', 'h', { v: 3 }, T3), { outcome: 'updated', version: 3 });
        const h = await store.documents.history('hosts', 'h');
        assert.deepEqual(versions(h), [1, 2, 3]);
        assert.deepEqual(times(h), [T1, T2, T3]);
        assert.deepEqual(h.map((d) => d.doc), [{ v: 1 }, { v: 2 }, { v: 3 }]);
        assert.deepEqual(await store.documents.get('hosts', 'h'), { id: 'h', doc: { v: 3 }, version: 3, validFrom: T3 });
      });

      it('reverting to an earlier content is a new version', async () => {
        await store.documents.put('hosts', 'h', { v: 1 }, T1);
        await store.documents.put('hosts', 'h', { v: 2 }, T2);
        assert.deepEqual(await store.documents.put('hosts', 'h', { v: 1 }, T3), { outcome: 'updated', version: 3 });
      });

      it('getAt answers the version current at a time', async () => {
        await store.documents.put('hosts', 'h', { v: 1 }, T1);
        await store.documents.put('hosts', 'h', { v: 2 }, T3);
        assert.equal(await store.documents.getAt('hosts', 'h', '2023-12-31T23:59:59.999Z'), undefined);
        assert.equal((await store.documents.getAt('hosts', 'h', T1))?.version, 1);
        assert.deepEqual((await store.documents.getAt('hosts', 'h', T2))?.doc, { v: 1 });
        assert.equal((await store.documents.getAt('hosts', 'h', T3))?.version, 2);
        assert.deepEqual(await store.documents.getAt('hosts', 'h', '2030-01-01T00:00:00Z'), {
          id: 'h',
          doc: { v: 2 },
          version: 2,
          validFrom: T3,
        });
        assert.equal(await store.documents.getAt('hosts', 'missing', T3), undefined);
      });

      it('history filters by [from, to)', async () => {
        await store.documents.put('hosts', 'h', { v: 1 }, T1);
        await store.documents.put('hosts', 'h', { v: 2 }, T2);
        await store.documents.put('hosts', 'h', { v: 3 }, T3);
        assert.deepEqual(versions(await store.documents.history('hosts', 'h', { from: T2 })), [2, 3]);
        assert.deepEqual(versions(await store.documents.history('hosts', 'h', { to: T2 })), [1]);
        assert.deepEqual(versions(await store.documents.history('hosts', 'h', { from: T2, to: T3 })), [2]);
        assert.deepEqual(versions(await store.documents.history('hosts', 'h', { from: T4 })), []);
        assert.deepEqual(versions(await store.documents.history('hosts', 'h', {})), [1, 2, 3]);
        assert.deepEqual(await store.documents.history('hosts', 'nope'), []);
      });

      it('a late, different observation enters history at its time without becoming current', async () => {
        await store.documents.put('hosts', 'h', { v: 1 }, T1);
        await store.documents.put('hosts', 'h', { v: 3 }, T3);
        const r = await store.documents.put('hosts', 'h', { v: 2 }, T2);
        assert.deepEqual(r, { outcome: 'updated', version: 2 });
        const h = await store.documents.history('hosts', 'h');
        assert.deepEqual(versions(h), [1, 2, 3]);
        assert.deepEqual(times(h), [T1, T2, T3]);
        assert.deepEqual(h.map((d) => d.doc), [{ v: 1 }, { v: 2 }, { v: 3 }]);
        assert.deepEqual(await store.documents.get('hosts', 'h'), { id: 'h', doc: { v: 3 }, version: 3, validFrom: T3 });
        assert.deepEqual((await store.documents.getAt('hosts', 'h', T2))?.doc, { v: 2 });
        // The renumbered current version is the one a newer change builds on.
        assert.deepEqual(await store.documents.put('hosts', 'h', { v: 4 }, T4), { outcome: 'updated', version: 4 });
      });

      it('a late observation before the first version becomes version 1', async () => {
        await store.documents.put('hosts', 'h', { v: 2 }, T2);
        assert.deepEqual(await store.documents.put('hosts', 'h', { v: 1 }, T1), { outcome: 'updated', version: 1 });
        const h = await store.documents.history('hosts', 'h');
        assert.deepEqual(h.map((d) => [d.version, d.validFrom, d.doc]), [
          [1, T1, { v: 1 }],
          [2, T2, { v: 2 }],
        ]);
        assert.equal((await store.documents.get('hosts', 'h'))?.version, 2);
      });

      it('a late observation equal to the state of its time writes nothing', async () => {
        await store.documents.put('hosts', 'h', { v: 1 }, T1);
        await store.documents.put('hosts', 'h', { v: 3 }, T3);
        assert.deepEqual(await store.documents.put('hosts', 'h', { v: 1 }, T2), { outcome: 'unchanged', version: 1 });
        assert.deepEqual(times(await store.documents.history('hosts', 'h')), [T1, T3]);
      });

      it('a late observation equal to the next version moves that version back in time', async () => {
        await store.documents.put('hosts', 'h', { v: 1 }, T1);
        await store.documents.put('hosts', 'h', { v: 3 }, T3);
        assert.deepEqual(await store.documents.put('hosts', 'h', { v: 3 }, T2), { outcome: 'updated', version: 2 });
        assert.deepEqual(times(await store.documents.history('hosts', 'h')), [T1, T2]);
        assert.deepEqual(await store.documents.get('hosts', 'h'), { id: 'h', doc: { v: 3 }, version: 2, validFrom: T2 });
      });

      it('putMany returns results in input order and handles repeated ids', async () => {
        await store.documents.put('hosts', 'old', { v: 1 }, T1);
        const results = await store.documents.putMany('hosts', [
          { id: 'a', doc: { v: 1 }, observedAt: T1 },
          { id: 'old', doc: { v: 1 }, observedAt: T2 },
          { id: 'a', doc: { v: 1 }, observedAt: T2 },
          { id: 'a', doc: { v: 2 }, observedAt: T3 },
          { id: 'old', doc: { v: 2 }, observedAt: T3 },
          { id: 'a', doc: { v: 0 }, observedAt: '2023-01-01T00:00:00.000Z' },
          { id: 'a', doc: { v: 3 }, observedAt: T4 },
        ]);
        assert.deepEqual(results, [
          { outcome: 'created', version: 1 },
          { outcome: 'unchanged', version: 1 },
          { outcome: 'unchanged', version: 1 },
          { outcome: 'updated', version: 2 },
          { outcome: 'updated', version: 2 },
          { outcome: 'updated', version: 1 },
          { outcome: 'updated', version: 4 },
        ]);
        const h = await store.documents.history('hosts', 'a');
        assert.deepEqual(h.map((d) => d.doc), [{ v: 0 }, { v: 1 }, { v: 2 }, { v: 3 }]);
        assert.deepEqual(versions(h), [1, 2, 3, 4]);
        assert.deepEqual(await store.documents.get('hosts', 'a'), { id: 'a', doc: { v: 3 }, version: 4, validFrom: T4 });
        assert.deepEqual((await store.documents.get('hosts', 'old'))?.doc, { v: 2 });
        assert.deepEqual(await store.documents.putMany('hosts', []), []);
      });

      it('putMany stores large batches', async () => {
        const items = Array.from({ length: 1234 }, (_, i) => ({
          id: `10.0.${i >> 8}.${i & 255}`,
          doc: { ip: `10.0.${i >> 8}.${i & 255}`, n: i },
          observedAt: T1,
        }));
        const results = await store.documents.putMany('hosts', items);
        assert.equal(results.length, 1234);
        assert.ok(results.every((r) => r.outcome === 'created' && r.version === 1));
        assert.equal(await store.documents.count('hosts'), 1234);
        const again = await store.documents.putMany(
          'hosts',
          items.map((it) => ({ ...it, doc: { ...it.doc, n: it.doc.n % 2 === 0 ? it.doc.n : -1 }, observedAt: T2 })),
        );
        assert.equal(again.filter((r) => r.outcome === 'unchanged').length, 617);
        assert.equal(again.filter((r) => r.outcome === 'updated').length, 617);
        const got = await store.documents.getMany('hosts', items.map((it) => it.id));
        assert.equal(got.length, 1234);
        assert.equal(got.find((d) => d.id === '10.0.0.1')?.version, 2);
      });

      it('getMany returns the existing documents only', async () => {
        await store.documents.put('hosts', 'a', { v: 'a' }, T1);
        await store.documents.put('hosts', 'b', { v: 'b' }, T1);
        await store.documents.put('hosts', 'b', { v: 'b2' }, T2);
        await store.documents.put('certificates', 'c', { v: 'c' }, T1);
        const got = await store.documents.getMany('hosts', ['b', 'zz', 'a', 'c', 'a']);
        assert.deepEqual(
          got.sort((x, y) => x.id.localeCompare(y.id)),
          [
            { id: 'a', doc: { v: 'a' }, version: 1, validFrom: T1 },
            { id: 'b', doc: { v: 'b2' }, version: 2, validFrom: T2 },
          ],
        );
        assert.deepEqual(await store.documents.getMany('hosts', []), []);
      });

      it('keeps the indexes apart', async () => {
        await store.documents.put('hosts', 'same', { kind: 'host' }, T1);
        await store.documents.put('certificates', 'same', { kind: 'cert' }, T2);
        assert.deepEqual((await store.documents.get('hosts', 'same'))?.doc, { kind: 'host' });
        assert.deepEqual((await store.documents.get('certificates', 'same'))?.doc, { kind: 'cert' });
        assert.equal(await store.documents.count('hosts'), 1);
        assert.equal(await store.documents.count('certificates'), 1);
        assert.equal((await store.documents.history('certificates', 'same')).length, 1);
      });

      it('idsWithPrefix matches literally and case-sensitively, in id order, up to the limit', async () => {
        for (const id of ['1.2.3.4', '1.2.3.4+a.example', '1.2.3.4+B.example', '1.2.3.4+c.example', '1.2.3.45', '1x2']) {
          await store.documents.put('hosts', id, { id }, T1);
        }
        await store.documents.put('hosts', 'p%q', { id: 1 }, T1);
        await store.documents.put('hosts', 'p%r', { id: 2 }, T1);
        await store.documents.put('hosts', 'pxq', { id: 3 }, T1);
        await store.documents.put('hosts', 'a_b', { id: 4 }, T1);
        await store.documents.put('hosts', 'axb', { id: 5 }, T1);
        await store.documents.put('hosts', 'back\\slash', { id: 6 }, T1);
        await store.documents.put('hosts', 'backxslash', { id: 7 }, T1);
        await store.documents.put('certificates', '1.2.3.4+other', { id: 8 }, T1);
        assert.deepEqual(await store.documents.idsWithPrefix('hosts', '1.2.3.4+', 10), [
          '1.2.3.4+B.example',
          '1.2.3.4+a.example',
          '1.2.3.4+c.example',
        ]);
        assert.deepEqual(await store.documents.idsWithPrefix('hosts', '1.2.3.4+', 2), ['1.2.3.4+B.example', '1.2.3.4+a.example']);
        assert.deepEqual(await store.documents.idsWithPrefix('hosts', '1.2.3.4+b', 10), []);
        assert.deepEqual(await store.documents.idsWithPrefix('hosts', '1.2', 10), [
          '1.2.3.4',
          '1.2.3.4+B.example',
          '1.2.3.4+a.example',
          '1.2.3.4+c.example',
          '1.2.3.45',
        ]);
        assert.deepEqual(await store.documents.idsWithPrefix('hosts', 'p%', 10), ['p%q', 'p%r']);
        assert.deepEqual(await store.documents.idsWithPrefix('hosts', 'a_', 10), ['a_b']);
        assert.deepEqual(await store.documents.idsWithPrefix('hosts', 'back\\', 10), ['back\\slash']);
        assert.deepEqual(await store.documents.idsWithPrefix('hosts', '%', 10), []);
        assert.deepEqual(await store.documents.idsWithPrefix('hosts', '1.2.3.4', 0), []);
      });

      it('scan visits every current document once, in id order, in batches', async () => {
        const ids = Array.from({ length: 23 }, (_, i) => `id-${String(i).padStart(2, '0')}`);
        await store.documents.putMany('hosts', ids.map((id) => ({ id, doc: { id }, observedAt: T1 })).reverse());
        await store.documents.put('hosts', 'id-05', { id: 'id-05', changed: true }, T2);
        await store.documents.put('certificates', 'id-00-cert', { c: 1 }, T1);
        const batches: StoredDocument[][] = [];
        for await (const batch of store.documents.scan('hosts', 5)) batches.push(batch);
        assert.deepEqual(batches.map((b) => b.length), [5, 5, 5, 5, 3]);
        assert.deepEqual(batches.flat().map((d) => d.id), ids);
        const changed = batches.flat().find((d) => d.id === 'id-05');
        assert.deepEqual(changed, { id: 'id-05', doc: { id: 'id-05', changed: true }, version: 2, validFrom: T2 });

        const exact: StoredDocument[][] = [];
        for await (const batch of store.documents.scan('certificates', 1)) exact.push(batch);
        assert.deepEqual(exact.map((b) => b.map((d) => d.id)), [['id-00-cert']]);
      });

      it('scan of an empty index yields nothing', async () => {
        let batches = 0;
        for await (const _ of store.documents.scan('certificates', 10)) batches++;
        assert.equal(batches, 0);
      });

      it('orders ids bytewise (upper case before lower case, digits before letters)', async () => {
        const ids = ['b', 'B', 'a', 'A', '1', 'a+Z', 'a+a', 'é'];
        for (const id of ids) await store.documents.put('hosts', id, { id }, T1);
        const seen: string[] = [];
        for await (const batch of store.documents.scan('hosts', 3)) seen.push(...batch.map((d) => d.id));
        assert.deepEqual(seen, ['1', 'A', 'B', 'a', 'a+Z', 'a+a', 'b', 'é']);
      });

      it('count counts current documents, not versions', async () => {
        assert.equal(await store.documents.count('hosts'), 0);
        await store.documents.put('hosts', 'a', { v: 1 }, T1);
        await store.documents.put('hosts', 'a', { v: 2 }, T2);
        await store.documents.put('hosts', 'b', { v: 1 }, T1);
        assert.equal(await store.documents.count('hosts'), 2);
        assert.equal(await store.documents.count('certificates'), 0);
      });

      it('remove deletes the document and its history', async () => {
        await store.documents.put('hosts', 'a', { v: 1 }, T1);
        await store.documents.put('hosts', 'a', { v: 2 }, T2);
        await store.documents.put('hosts', 'b', { v: 1 }, T1);
        assert.equal(await store.documents.remove('certificates', 'a'), false);
        assert.equal(await store.documents.remove('hosts', 'a'), true);
        assert.equal(await store.documents.remove('hosts', 'a'), false);
        assert.equal(await store.documents.get('hosts', 'a'), undefined);
        assert.deepEqual(await store.documents.history('hosts', 'a'), []);
        assert.equal(await store.documents.getAt('hosts', 'a', T3), undefined);
        assert.equal(await store.documents.count('hosts'), 1);
        assert.deepEqual(await store.documents.put('hosts', 'a', { v: 2 }, T3), { outcome: 'created', version: 1 });
      });

      it('concurrent writes to one document neither collide nor lose versions', async () => {
        const times = Array.from({ length: 12 }, (_, i) => `2024-01-01T00:00:${String(i).padStart(2, '0')}.000Z`);
        const results = await Promise.all(
          times.map((t, i) =>
            i % 2 === 0
              ? store.documents.put('hosts', 'c', { i }, t)
              : store.documents.putMany('hosts', [{ id: 'c', doc: { i }, observedAt: t }]).then((r) => r[0]),
          ),
        );
        assert.deepEqual(results.map((r) => r.outcome).sort(), ['created', ...Array(11).fill('updated')]);
        const h = await store.documents.history('hosts', 'c');
        assert.deepEqual(versions(h), Array.from({ length: 12 }, (_, i) => i + 1));
        assert.deepEqual(h.map((d) => d.doc), times.map((_, i) => ({ i })));
      });

      it('round-trips JSON values faithfully', async () => {
        const doc = {
          s: 'tab\tquote"backslash\\ unicode ☃ 𝄞 emoji 🙂',
          n: [0, -1, 1.5, 1e21, 9007199254740991],
          b: [true, false],
          z: null,
          nested: { empty: {}, list: [], deep: [{ a: [{ b: 'c' }] }] },
          headers: JSON.parse('{"__proto__": ["x"], "constructor": "y"}') as unknown,
        };
        await store.documents.put('certificates', 'f'.repeat(64), doc, T1);
        assert.deepEqual((await store.documents.get('certificates', 'f'.repeat(64)))?.doc, doc);
      });
    });

    describe('users and workspaces', () => {
      const newUser = (workspaceId: string, n: number) => ({
        email: `user${n}@example.com`,
        workspaceId,
        role: n === 1 ? ('admin' as const) : ('user' as const),
        apiId: `api-${n}`,
        apiSecretHash: `secret-hash-${n}`,
        asmKeyHash: `asm-hash-${n}`,
        quotaAllowance: 250 * n,
      });

      it('creates, gets and lists workspaces', async () => {
        const a = await store.users.createWorkspace('Alpha');
        const b = await store.users.createWorkspace('Beta');
        assert.notEqual(a.id, b.id);
        assert.match(a.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.deepEqual(await store.users.getWorkspace(a.id), a);
        assert.equal(await store.users.getWorkspace('nope'), undefined);
        assert.deepEqual(
          (await store.users.listWorkspaces()).map((w) => w.name).sort(),
          ['Alpha', 'Beta'],
        );
      });

      it('creates users and finds them by id, API id, ASM key hash and email', async () => {
        const ws = await store.users.createWorkspace('W');
        const u = await store.users.create(newUser(ws.id, 1));
        assert.deepEqual(
          { ...u, id: undefined, createdAt: undefined },
          {
            ...newUser(ws.id, 1),
            id: undefined,
            createdAt: undefined,
            firstLoginAt: null,
            lastLoginAt: null,
          },
        );
        assert.deepEqual(await store.users.get(u.id), u);
        assert.deepEqual(await store.users.byApiId('api-1'), u);
        assert.deepEqual(await store.users.byAsmKeyHash('asm-hash-1'), u);
        assert.deepEqual(await store.users.byEmail('user1@example.com'), u);
        assert.equal(await store.users.byApiId('api-2'), undefined);
        assert.equal(await store.users.byAsmKeyHash('secret-hash-1'), undefined);
        assert.equal(await store.users.byEmail('USER1@example.com'), undefined);
        assert.equal(await store.users.get('nope'), undefined);
        const v = await store.users.create(newUser(ws.id, 2));
        assert.deepEqual((await store.users.list()).map((x) => x.id).sort(), [u.id, v.id].sort());
        assert.equal(v.role, 'user');
        assert.equal(v.quotaAllowance, 500);
      });

      it('rejects a second user with the same email, API id or ASM key', async () => {
        const ws = await store.users.createWorkspace('W');
        await store.users.create(newUser(ws.id, 1));
        await assert.rejects(store.users.create({ ...newUser(ws.id, 2), email: 'user1@example.com' }));
        await assert.rejects(store.users.create({ ...newUser(ws.id, 3), apiId: 'api-1' }));
        await assert.rejects(store.users.create({ ...newUser(ws.id, 4), asmKeyHash: 'asm-hash-1' }));
        assert.equal((await store.users.list()).length, 1);
      });

      it('rejects a user of a workspace that does not exist', async () => {
        await assert.rejects(store.users.create(newUser('no-such-workspace', 1)));
      });

      it('rotates credentials, partially or wholly', async () => {
        const ws = await store.users.createWorkspace('W');
        const u = await store.users.create(newUser(ws.id, 1));
        await store.users.updateCredentials(u.id, { apiSecretHash: 'new-secret' });
        let got = await store.users.get(u.id);
        assert.equal(got?.apiSecretHash, 'new-secret');
        assert.equal(got?.apiId, 'api-1');
        assert.equal(got?.asmKeyHash, 'asm-hash-1');
        await store.users.updateCredentials(u.id, { apiId: 'api-new', asmKeyHash: 'asm-new' });
        assert.equal(await store.users.byApiId('api-1'), undefined);
        assert.equal(await store.users.byAsmKeyHash('asm-hash-1'), undefined);
        got = await store.users.byApiId('api-new');
        assert.equal(got?.id, u.id);
        assert.equal((await store.users.byAsmKeyHash('asm-new'))?.id, u.id);
        await store.users.updateCredentials(u.id, {});
        assert.deepEqual(await store.users.get(u.id), got);
      });

      it('touchLogin sets the first login once and the last login every time', async () => {
        const ws = await store.users.createWorkspace('W');
        const u = await store.users.create(newUser(ws.id, 1));
        await store.users.touchLogin(u.id, T1);
        let got = await store.users.get(u.id);
        assert.equal(got?.firstLoginAt, T1);
        assert.equal(got?.lastLoginAt, T1);
        await store.users.touchLogin(u.id, T2);
        got = await store.users.get(u.id);
        assert.equal(got?.firstLoginAt, T1);
        assert.equal(got?.lastLoginAt, T2);
      });

      it('removes users and their quota usage', async () => {
        const ws = await store.users.createWorkspace('W');
        const u = await store.users.create(newUser(ws.id, 1));
        const v = await store.users.create(newUser(ws.id, 2));
        await store.quota.add(u.id, '2024-01', 5);
        await store.quota.add(v.id, '2024-01', 7);
        assert.equal(await store.users.remove(u.id), true);
        assert.equal(await store.users.remove(u.id), false);
        assert.equal(await store.users.get(u.id), undefined);
        assert.equal(await store.users.byApiId('api-1'), undefined);
        assert.equal(await store.quota.used(u.id, '2024-01'), 0);
        assert.equal(await store.quota.used(v.id, '2024-01'), 7);
        // Its email and keys are free again.
        assert.equal((await store.users.create(newUser(ws.id, 1))).email, 'user1@example.com');
      });
    });

    describe('comments', () => {
      it('adds, lists, gets, updates and removes comments on a document', async () => {
        const before = new Date().toISOString();
        const c1 = await store.comments.add('w1', 'hosts', '1.1.1.1', 'alice', 'first');
        const c2 = await store.comments.add('w1', 'hosts', '1.1.1.1', 'bob', '**second**');
        assert.match(c1.id, /^[1-9][0-9]*$/);
        assert.ok(Number(c2.id) > Number(c1.id));
        assert.deepEqual(
          { ...c1, createdAt: undefined, updatedAt: undefined },
          {
            id: c1.id,
            workspaceId: 'w1',
            index: 'hosts',
            docId: '1.1.1.1',
            authorId: 'alice',
            contents: 'first',
            createdAt: undefined,
            updatedAt: undefined,
          },
        );
        assert.ok(c1.createdAt >= before);
        assert.equal(c1.updatedAt, c1.createdAt);
        assert.deepEqual(await store.comments.list('w1', 'hosts', '1.1.1.1'), [c1, c2]);
        assert.deepEqual(await store.comments.get('w1', 'hosts', '1.1.1.1', c2.id), c2);

        const updated = await store.comments.update('w1', 'hosts', '1.1.1.1', c1.id, 'edited');
        assert.equal(updated?.contents, 'edited');
        assert.equal(updated?.createdAt, c1.createdAt);
        assert.ok(updated!.updatedAt >= c1.updatedAt);
        assert.equal((await store.comments.get('w1', 'hosts', '1.1.1.1', c1.id))?.contents, 'edited');

        assert.equal(await store.comments.remove('w1', 'hosts', '1.1.1.1', c1.id), true);
        assert.equal(await store.comments.remove('w1', 'hosts', '1.1.1.1', c1.id), false);
        assert.deepEqual((await store.comments.list('w1', 'hosts', '1.1.1.1')).map((c) => c.id), [c2.id]);
        assert.equal(await store.comments.update('w1', 'hosts', '1.1.1.1', c1.id, 'again'), undefined);
      });

      it('ids keep increasing after removals', async () => {
        const a = await store.comments.add('w1', 'hosts', 'h', 'u', 'a');
        const b = await store.comments.add('w1', 'hosts', 'h', 'u', 'b');
        await store.comments.remove('w1', 'hosts', 'h', b.id);
        const c = await store.comments.add('w1', 'hosts', 'h', 'u', 'c');
        assert.ok(Number(c.id) > Number(b.id) && Number(b.id) > Number(a.id));
      });

      it("another workspace's comments are not found", async () => {
        const c = await store.comments.add('w1', 'certificates', 'fp', 'alice', 'mine');
        assert.deepEqual(await store.comments.list('w2', 'certificates', 'fp'), []);
        assert.equal(await store.comments.get('w2', 'certificates', 'fp', c.id), undefined);
        assert.equal(await store.comments.update('w2', 'certificates', 'fp', c.id, 'stolen'), undefined);
        assert.equal(await store.comments.remove('w2', 'certificates', 'fp', c.id), false);
        assert.equal((await store.comments.get('w1', 'certificates', 'fp', c.id))?.contents, 'mine');
      });

      it('a comment belongs to one document of one index', async () => {
        const c = await store.comments.add('w1', 'hosts', 'a', 'alice', 'on a');
        assert.equal(await store.comments.get('w1', 'hosts', 'b', c.id), undefined);
        assert.equal(await store.comments.get('w1', 'certificates', 'a', c.id), undefined);
        assert.equal(await store.comments.remove('w1', 'hosts', 'b', c.id), false);
        assert.equal(await store.comments.update('w1', 'certificates', 'a', c.id, 'x'), undefined);
        assert.deepEqual(await store.comments.list('w1', 'hosts', 'b'), []);
        assert.equal((await store.comments.list('w1', 'hosts', 'a')).length, 1);
      });

      it('non-numeric comment ids are not found', async () => {
        await store.comments.add('w1', 'hosts', 'a', 'alice', 'x');
        for (const bad of BAD_IDS) {
          assert.equal(await store.comments.get('w1', 'hosts', 'a', bad), undefined, bad);
          assert.equal(await store.comments.update('w1', 'hosts', 'a', bad, 'y'), undefined, bad);
          assert.equal(await store.comments.remove('w1', 'hosts', 'a', bad), false, bad);
        }
        assert.equal((await store.comments.list('w1', 'hosts', 'a'))[0].contents, 'x');
      });
    });

    describe('tags', () => {
      it('creates, lists, gets and finds tags by name', async () => {
        const a = await store.tags.create('w1', 'is-honeypot', '#ff0000');
        const b = await store.tags.create('w1', 'prod', null);
        assert.ok(a && b);
        assert.match(a.id, /^[1-9][0-9]*$/);
        assert.ok(Number(b.id) > Number(a.id));
        assert.equal(a.workspaceId, 'w1');
        assert.equal(a.color, '#ff0000');
        assert.equal(b.color, null);
        assert.equal(a.createdAt, a.updatedAt);
        assert.deepEqual(await store.tags.list('w1'), [a, b]);
        assert.deepEqual(await store.tags.get('w1', a.id), a);
        assert.deepEqual(await store.tags.byName('w1', 'prod'), b);
        assert.equal(await store.tags.byName('w1', 'PROD'), undefined);
        assert.equal(await store.tags.byName('w1', 'nope'), undefined);
      });

      it('names are unique per workspace, case-sensitively', async () => {
        const a = await store.tags.create('w1', 'dup', null);
        assert.ok(a);
        assert.equal(await store.tags.create('w1', 'dup', '#000000'), undefined);
        assert.ok(await store.tags.create('w1', 'DUP', null));
        assert.ok(await store.tags.create('w2', 'dup', null));
        assert.deepEqual((await store.tags.list('w1')).map((t) => t.name), ['dup', 'DUP']);
        assert.equal((await store.tags.get('w1', a.id))?.color, null);
      });

      it('updates name and color', async () => {
        const a = (await store.tags.create('w1', 'a', '#111111'))!;
        const b = (await store.tags.create('w1', 'b', null))!;
        const u = await store.tags.update('w1', a.id, 'a2', null);
        assert.equal(u?.id, a.id);
        assert.equal(u?.name, 'a2');
        assert.equal(u?.color, null);
        assert.equal(u?.createdAt, a.createdAt);
        assert.ok(u!.updatedAt >= a.updatedAt);
        assert.deepEqual(await store.tags.get('w1', a.id), u);
        assert.equal(await store.tags.byName('w1', 'a'), undefined);
        // Keeping its own name is fine; taking another tag's name is not.
        assert.equal((await store.tags.update('w1', a.id, 'a2', '#222222'))?.color, '#222222');
        assert.equal(await store.tags.update('w1', a.id, 'b', null), undefined);
        assert.equal((await store.tags.get('w1', a.id))?.name, 'a2');
        assert.equal((await store.tags.get('w1', b.id))?.name, 'b');
        assert.equal(await store.tags.update('w1', '999999', 'zz', null), undefined);
      });

      it("another workspace's tags are not found", async () => {
        const t = (await store.tags.create('w1', 'secret', null))!;
        await store.tags.assign('w1', t.id, 'hosts', 'h');
        assert.deepEqual(await store.tags.list('w2'), []);
        assert.equal(await store.tags.get('w2', t.id), undefined);
        assert.equal(await store.tags.byName('w2', 'secret'), undefined);
        assert.equal(await store.tags.update('w2', t.id, 'x', null), undefined);
        assert.equal(await store.tags.remove('w2', t.id), false);
        await store.tags.assign('w2', t.id, 'hosts', 'other');
        assert.deepEqual(await store.tags.documents('w2', t.id, 'hosts'), []);
        assert.deepEqual(await store.tags.tagsOf('w2', 'hosts', 'other'), []);
        assert.deepEqual(await store.tags.tagsOf('w2', 'hosts', 'h'), []);
        assert.equal(await store.tags.unassign('w2', t.id, 'hosts', 'h'), false);
        assert.deepEqual((await store.tags.documents('w1', t.id, 'hosts')).map((d) => d.docId), ['h']);
        assert.equal((await store.tags.get('w1', t.id))?.name, 'secret');
      });

      it('assigns idempotently, per index, and lists both ways', async () => {
        const t = (await store.tags.create('w1', 't', null))!;
        const u = (await store.tags.create('w1', 'u', null))!;
        await store.tags.assign('w1', t.id, 'hosts', '1.1.1.1');
        const first = await store.tags.documents('w1', t.id, 'hosts');
        assert.equal(first.length, 1);
        assert.match(first[0].taggedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        await store.tags.assign('w1', t.id, 'hosts', '1.1.1.1');
        assert.deepEqual(await store.tags.documents('w1', t.id, 'hosts'), first);
        await store.tags.assign('w1', t.id, 'hosts', '2.2.2.2');
        await store.tags.assign('w1', t.id, 'certificates', 'fp1');
        await store.tags.assign('w1', u.id, 'hosts', '1.1.1.1');
        assert.deepEqual(
          (await store.tags.documents('w1', t.id, 'hosts')).map((d) => d.docId).sort(),
          ['1.1.1.1', '2.2.2.2'],
        );
        assert.deepEqual((await store.tags.documents('w1', t.id, 'certificates')).map((d) => d.docId), ['fp1']);
        assert.deepEqual((await store.tags.tagsOf('w1', 'hosts', '1.1.1.1')).map((x) => x.name), ['t', 'u']);
        assert.deepEqual(await store.tags.tagsOf('w1', 'hosts', '1.1.1.1'), [t, u]);
        assert.deepEqual((await store.tags.tagsOf('w1', 'certificates', '1.1.1.1')), []);
        assert.equal(await store.tags.unassign('w1', t.id, 'hosts', '1.1.1.1'), true);
        assert.equal(await store.tags.unassign('w1', t.id, 'hosts', '1.1.1.1'), false);
        assert.deepEqual((await store.tags.tagsOf('w1', 'hosts', '1.1.1.1')).map((x) => x.name), ['u']);
      });

      it('assigning an unknown tag does nothing', async () => {
        await store.tags.assign('w1', '424242', 'hosts', 'h');
        assert.deepEqual(await store.tags.documents('w1', '424242', 'hosts'), []);
        assert.deepEqual(await store.tags.tagsOf('w1', 'hosts', 'h'), []);
      });

      it('removing a tag removes its assignments', async () => {
        const t = (await store.tags.create('w1', 'gone', null))!;
        const keep = (await store.tags.create('w1', 'keep', null))!;
        await store.tags.assign('w1', t.id, 'hosts', 'h');
        await store.tags.assign('w1', t.id, 'certificates', 'c');
        await store.tags.assign('w1', keep.id, 'hosts', 'h');
        assert.equal(await store.tags.remove('w1', t.id), true);
        assert.equal(await store.tags.remove('w1', t.id), false);
        assert.equal(await store.tags.get('w1', t.id), undefined);
        assert.deepEqual(await store.tags.documents('w1', t.id, 'hosts'), []);
        assert.deepEqual((await store.tags.tagsOf('w1', 'hosts', 'h')).map((x) => x.name), ['keep']);
        assert.deepEqual(await store.tags.tagsOf('w1', 'certificates', 'c'), []);
        const again = (await store.tags.create('w1', 'gone', null))!;
        assert.notEqual(again.id, t.id);
        assert.deepEqual(await store.tags.documents('w1', again.id, 'hosts'), []);
      });

      it('non-numeric tag ids are not found', async () => {
        const t = (await store.tags.create('w1', 't', null))!;
        await store.tags.assign('w1', t.id, 'hosts', 'h');
        for (const bad of BAD_IDS) {
          assert.equal(await store.tags.get('w1', bad), undefined, bad);
          assert.equal(await store.tags.update('w1', bad, 'x', null), undefined, bad);
          assert.equal(await store.tags.remove('w1', bad), false, bad);
          await store.tags.assign('w1', bad, 'hosts', 'h2');
          assert.equal(await store.tags.unassign('w1', bad, 'hosts', 'h'), false, bad);
          assert.deepEqual(await store.tags.documents('w1', bad, 'hosts'), [], bad);
        }
        assert.deepEqual(await store.tags.tagsOf('w1', 'hosts', 'h2'), []);
        assert.deepEqual(await store.tags.tagsOf('w1', 'hosts', 'h'), [t]);
      });
    });

    describe('quota', () => {
      it('accumulates per user and period', async () => {
        assert.equal(await store.quota.used('u1', '2024-01'), 0);
        assert.equal(await store.quota.add('u1', '2024-01', 1), 1);
        assert.equal(await store.quota.add('u1', '2024-01', 4), 5);
        assert.equal(await store.quota.add('u1', '2024-02', 2), 2);
        assert.equal(await store.quota.add('u2', '2024-01', 10), 10);
        assert.equal(await store.quota.used('u1', '2024-01'), 5);
        assert.equal(await store.quota.used('u1', '2024-02'), 2);
        assert.equal(await store.quota.used('u2', '2024-01'), 10);
        assert.equal(await store.quota.used('u2', '2024-02'), 0);
      });

      it('loses no increments under concurrency', async () => {
        await Promise.all(Array.from({ length: 20 }, () => store.quota.add('u1', 'p', 1)));
        assert.equal(await store.quota.used('u1', 'p'), 20);
      });
    });

    describe('settings', () => {
      it('gets, sets and overwrites', async () => {
        assert.equal(await store.settings.get('demo'), undefined);
        await store.settings.set('demo', 'loaded');
        await store.settings.set('other', '');
        assert.equal(await store.settings.get('demo'), 'loaded');
        await store.settings.set('demo', 'reloaded');
        assert.equal(await store.settings.get('demo'), 'reloaded');
        assert.equal(await store.settings.get('other'), '');
      });
    });

    describe('asm seeds', () => {
      const T = '2024-05-01T10:00:00.123Z';
      const ip = (value: string, label = '') => ({ type: 'IP_ADDRESS' as const, value, label });

      it('adds new seeds in input order, skips existing ones and duplicates within the input', async () => {
        const added = await store.seeds.add('w1', [ip('1.1.1.1', 'a'), ip('2.2.2.2'), ip('1.1.1.1', 'b')], 'API', T);
        assert.deepEqual(added.map((s) => [s.value, s.label]), [['1.1.1.1', 'a'], ['2.2.2.2', '']]);
        assert.ok(added[0].id < added[1].id);
        assert.deepEqual(added[0], { id: added[0].id, workspaceId: 'w1', type: 'IP_ADDRESS', value: '1.1.1.1', label: 'a', source: 'API', createdOn: T });
        const again = await store.seeds.add('w1', [ip('2.2.2.2', 'c'), { type: 'ASN', value: '13335', label: 'c' }], 'API', T);
        assert.deepEqual(again.map((s) => s.value), ['13335']);
        // Same value, different type: a different seed.
        assert.equal((await store.seeds.add('w1', [{ type: 'DOMAIN_NAME', value: '2.2.2.2', label: '' }], 'API', T)).length, 1);
        assert.equal((await store.seeds.list('w1')).length, 4);
      });

      it('lists by type and label, and keeps workspaces apart', async () => {
        await store.seeds.add('w1', [ip('1.1.1.1', 'x'), { type: 'CIDR', value: '8.8.8.0/24', label: 'x' }, ip('3.3.3.3', 'y')], 'API', T);
        await store.seeds.add('w2', [ip('1.1.1.1', 'x')], 'API', T);
        assert.deepEqual((await store.seeds.list('w1', { label: 'x' })).map((s) => s.value), ['1.1.1.1', '8.8.8.0/24']);
        assert.deepEqual((await store.seeds.list('w1', { type: 'IP_ADDRESS' })).map((s) => s.value), ['1.1.1.1', '3.3.3.3']);
        assert.deepEqual((await store.seeds.list('w1', { type: 'IP_ADDRESS', label: 'y' })).map((s) => s.value), ['3.3.3.3']);
        assert.deepEqual(await store.seeds.list('w1', { type: 'ASN' }), []);
        const theirs = (await store.seeds.list('w2'))[0];
        assert.equal(await store.seeds.get('w1', theirs.id), undefined);
        assert.equal(await store.seeds.remove('w1', theirs.id), undefined);
        assert.deepEqual(await store.seeds.get('w2', theirs.id), theirs);
        assert.deepEqual(await store.seeds.removeByLabel('w1', 'x').then((r) => r.map((s) => s.value)), ['1.1.1.1', '8.8.8.0/24']);
        assert.equal((await store.seeds.list('w2')).length, 1);
      });

      it('gets and removes by id; impossible ids are not found', async () => {
        const [a] = await store.seeds.add('w1', [ip('4.4.4.4')], 'API', T);
        assert.deepEqual(await store.seeds.get('w1', a.id), a);
        for (const bad of [-1, 1.5, Number.NaN, 1e20, Number.MAX_SAFE_INTEGER]) {
          assert.equal(await store.seeds.get('w1', bad), undefined);
          assert.equal(await store.seeds.remove('w1', bad), undefined);
        }
        assert.deepEqual(await store.seeds.remove('w1', a.id), a);
        assert.equal(await store.seeds.get('w1', a.id), undefined);
        assert.equal(await store.seeds.remove('w1', a.id), undefined);
      });

      it('replaces the seeds of a label, leaving other labels and a value kept elsewhere alone', async () => {
        await store.seeds.add('w1', [ip('1.1.1.1', 'L'), ip('2.2.2.2', 'L'), ip('9.9.9.9', 'M')], 'API', T);
        const r = await store.seeds.replaceLabel('w1', 'L', [ip('2.2.2.2', 'ignored'), ip('5.5.5.5'), ip('9.9.9.9'), ip('5.5.5.5')], 'API', T);
        assert.deepEqual(r.removed.map((s) => s.value), ['1.1.1.1']);
        assert.deepEqual(r.added.map((s) => [s.value, s.label]), [['5.5.5.5', 'L']]);
        assert.deepEqual((await store.seeds.list('w1', { label: 'L' })).map((s) => s.value), ['2.2.2.2', '5.5.5.5']);
        assert.deepEqual((await store.seeds.list('w1', { label: 'M' })).map((s) => s.value), ['9.9.9.9']);
        const empty = await store.seeds.replaceLabel('w1', 'L', [], 'API', T);
        assert.deepEqual(empty.removed.map((s) => s.value), ['2.2.2.2', '5.5.5.5']);
        assert.deepEqual(empty.added, []);
      });

      it('adds a large batch at once', async () => {
        const many = Array.from({ length: 1200 }, (_, i) => ip(`100.${i >> 8}.${i & 255}.1`));
        assert.equal((await store.seeds.add('w1', many, 'API', T)).length, 1200);
        assert.equal((await store.seeds.list('w1')).length, 1200);
      });
    });
  });
}
