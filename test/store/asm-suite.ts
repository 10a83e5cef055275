/**
 * The ASM asset and logbook repositories, on every dialect. sqlite.test.ts and postgres.test.ts
 * call runAsmStoreSuite with a function that opens a fresh, empty store; every test gets its own.
 */
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/index.ts';
import type { Asset, AssetType, NewLogbookEvent } from '../../src/model/asm-asset.ts';

const T1 = '2024-05-01T10:00:00.000Z';
const T2 = '2024-05-02T10:00:00.000Z';
const T3 = '2024-05-03T10:00:00.000Z';

function host(workspaceId: string, ip: string, extra: Partial<Asset> = {}): Asset {
  return {
    workspaceId,
    type: 'HOST',
    assetId: ip,
    isSeed: false,
    source: 'CENSYS_SCAN',
    associatedAt: T1,
    updatedAt: T1,
    trail: [{ type: 'CIDR', assetId: '10.0.0.0/24', isSeed: true }],
    cloud: null,
    data: { ports: [{ port: 443, transportProtocol: 'TCP', protocol: 'HTTP', software: [], certificates: [] }], names: [] },
    ...extra,
  };
}

const associate = (type: NewLogbookEvent['type'], entity: Record<string, unknown>, timestamp = T1): NewLogbookEvent => ({
  type,
  operation: 'ASSOCIATE',
  entity,
  timestamp,
});

export function runAsmStoreSuite(name: string, open: () => Promise<Store>): void {
  describe(name, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    describe('asm assets', () => {
      it('upserts, reads back exactly, and lists in byte order with totals', async () => {
        const a = host('w1', '10.0.0.2', { cloud: 'Amazon AWS', isSeed: true, source: 'Seed', data: { nul: 'a\u0000b', mark: '\uE000' } });
        const b = host('w1', '10.0.0.10');
        const c = host('w1', '9.0.0.1');
        const events = await store.asmAssets.apply('w1', { upsert: [a, b, c], remove: [] }, [associate('HOST', { ipAddress: '10.0.0.2' })]);
        assert.equal(events.length, 1);
        assert.deepEqual(await store.asmAssets.get('w1', 'HOST', '10.0.0.2'), a);
        assert.equal(await store.asmAssets.get('w1', 'CERT', '10.0.0.2'), undefined);
        assert.equal(await store.asmAssets.get('w2', 'HOST', '10.0.0.2'), undefined);
        const all = await store.asmAssets.list('w1', 'HOST', { offset: 0, limit: 10 });
        assert.equal(all.total, 3);
        assert.deepEqual(all.items.map((x) => x.assetId), ['10.0.0.10', '10.0.0.2', '9.0.0.1']);
        const page2 = await store.asmAssets.list('w1', 'HOST', { offset: 2, limit: 2 });
        assert.deepEqual([page2.total, page2.items.map((x) => x.assetId)], [3, ['9.0.0.1']]);
        assert.deepEqual((await store.asmAssets.list('w1', 'HOST', { offset: 5, limit: 2 })).items, []);
        assert.deepEqual(await store.asmAssets.ids('w1', 'HOST'), ['10.0.0.10', '10.0.0.2', '9.0.0.1']);
        assert.equal(await store.asmAssets.count('w1', 'HOST'), 3);
        assert.equal(await store.asmAssets.count('w1', 'CERT'), 0);
        assert.deepEqual((await store.asmAssets.getMany('w1', 'HOST', ['9.0.0.1', 'nope', '10.0.0.2', '9.0.0.1'])).map((x) => x.assetId), ['10.0.0.2', '9.0.0.1']);
      });

      it('replaces a row whole on upsert and removes by type and id', async () => {
        await store.asmAssets.apply('w1', { upsert: [host('w1', '1.1.1.1'), { ...host('w1', 'x.example.com'), type: 'SUBDOMAIN' }], remove: [] }, []);
        const changed = host('w1', '1.1.1.1', { updatedAt: T2, data: { ports: [] }, trail: [], cloud: 'Google Cloud' });
        await store.asmAssets.apply('w1', { upsert: [changed], remove: [] }, []);
        assert.deepEqual(await store.asmAssets.get('w1', 'HOST', '1.1.1.1'), changed);
        // Same id, other family: untouched by a HOST removal.
        await store.asmAssets.apply('w1', { upsert: [], remove: [{ type: 'HOST', assetId: '1.1.1.1' }, { type: 'HOST', assetId: 'x.example.com' }] }, []);
        assert.equal(await store.asmAssets.count('w1', 'HOST'), 0);
        assert.equal(await store.asmAssets.count('w1', 'SUBDOMAIN'), 1);
      });

      it('filters lists by ids, excluded ids and sources', async () => {
        const hosts = ['1.0.0.1', '1.0.0.2', '1.0.0.3', '1.0.0.4'].map((ip, i) => host('w1', ip, { source: i % 2 ? 'Seed' : 'CENSYS_SCAN' }));
        await store.asmAssets.apply('w1', { upsert: hosts, remove: [] }, []);
        const ids = (f: Parameters<Store['asmAssets']['list']>[3]) =>
          store.asmAssets.list('w1', 'HOST', { offset: 0, limit: 10 }, f).then((r) => [r.total, r.items.map((x) => x.assetId)]);
        assert.deepEqual(await ids({ assetIds: ['1.0.0.2', '1.0.0.3', '9.9.9.9'] }), [2, ['1.0.0.2', '1.0.0.3']]);
        assert.deepEqual(await ids({ excludeIds: ['1.0.0.1'] }), [3, ['1.0.0.2', '1.0.0.3', '1.0.0.4']]);
        assert.deepEqual(await ids({ sources: ['Seed'] }), [2, ['1.0.0.2', '1.0.0.4']]);
        assert.deepEqual(await ids({ assetIds: [] }), [0, []]);
        assert.deepEqual(await ids({ sources: ['Seed'], excludeIds: ['1.0.0.2'] }), [1, ['1.0.0.4']]);
        // Large id lists take the in-memory path and must agree.
        const many = Array.from({ length: 1500 }, (_, i) => `2.0.${i >> 8}.${i & 255}`).concat(['1.0.0.3']);
        assert.deepEqual(await ids({ assetIds: many, sources: ['CENSYS_SCAN'] }), [1, ['1.0.0.3']]);
        assert.deepEqual(await ids({ excludeIds: many }), [3, ['1.0.0.1', '1.0.0.2', '1.0.0.4']]);
      });

      it('keeps workspaces apart', async () => {
        await store.asmAssets.apply('w1', { upsert: [host('w1', '1.1.1.1')], remove: [] }, [associate('HOST', { ipAddress: '1.1.1.1' })]);
        await store.asmAssets.apply('w2', { upsert: [host('w2', '1.1.1.1', { cloud: 'x' })], remove: [] }, [associate('HOST', { ipAddress: '1.1.1.1' })]);
        await store.asmAssets.apply('w2', { upsert: [], remove: [{ type: 'HOST', assetId: '1.1.1.1' }] }, []);
        assert.equal((await store.asmAssets.get('w1', 'HOST', '1.1.1.1'))?.cloud, null);
        assert.equal(await store.asmAssets.count('w2', 'HOST'), 0);
        assert.equal((await store.asmLogbook.read('w1', { limit: 10 })).length, 1);
        assert.equal((await store.asmLogbook.read('w2', { limit: 10 })).length, 1);
      });

      it('writes many assets and events in one apply', async () => {
        const hosts = Array.from({ length: 1300 }, (_, i) => host('w1', `10.${i >> 8}.${i & 255}.1`));
        const events = hosts.map((h) => associate('HOST', { ipAddress: h.assetId }));
        const written = await store.asmAssets.apply('w1', { upsert: hosts, remove: [] }, events);
        assert.equal(written.length, 1300);
        assert.deepEqual(written.map((e) => e.entity.ipAddress), hosts.map((h) => h.assetId));
        for (let i = 1; i < written.length; i++) assert.ok(written[i].id > written[i - 1].id);
        assert.equal(await store.asmAssets.count('w1', 'HOST'), 1300);
        await store.asmAssets.apply('w1', { upsert: [], remove: hosts.map((h) => ({ type: 'HOST' as AssetType, assetId: h.assetId })) }, []);
        assert.equal(await store.asmAssets.count('w1', 'HOST'), 0);
      });
    });

    describe('asm logbook', () => {
      it('appends with ascending ids and reads by id, date and type', async () => {
        assert.equal(await store.asmLogbook.lastId('w1'), 0);
        const a = await store.asmLogbook.append('w1', [
          associate('HOST', { ipAddress: '1.1.1.1' }, T1),
          { type: 'HOST_PORT', operation: 'ADD', entity: { ipAddress: '1.1.1.1' }, data: { port: 443 }, timestamp: '2024-05-02T12:00:00+02:00' },
          associate('CERT', { sha256: 'ab'.repeat(32) }, T3),
        ]);
        assert.equal(a.length, 3);
        assert.ok(a[0].id < a[1].id && a[1].id < a[2].id);
        assert.deepEqual(a[1], { id: a[1].id, workspaceId: 'w1', type: 'HOST_PORT', operation: 'ADD', entity: { ipAddress: '1.1.1.1' }, data: { port: 443 }, timestamp: T2 });
        assert.equal('data' in a[0], false);
        assert.equal(await store.asmLogbook.lastId('w1'), a[2].id);
        assert.equal(await store.asmLogbook.lastId('w2'), 0);
        assert.deepEqual(await store.asmLogbook.read('w1', { limit: 10 }), a);
        assert.deepEqual(await store.asmLogbook.read('w1', { limit: 2 }), a.slice(0, 2));
        assert.deepEqual(await store.asmLogbook.read('w1', { idFrom: a[1].id, limit: 10 }), a.slice(1));
        assert.deepEqual(await store.asmLogbook.read('w1', { dateFrom: T2, limit: 10 }), a.slice(1));
        assert.deepEqual(await store.asmLogbook.read('w1', { dateFrom: '2024-05-02T10:00:00Z', limit: 10 }), a.slice(1));
        assert.deepEqual(await store.asmLogbook.read('w1', { types: ['CERT', 'HOST'], limit: 10 }), [a[0], a[2]]);
        assert.deepEqual(await store.asmLogbook.read('w1', { types: [], limit: 10 }), []);
        assert.deepEqual(await store.asmLogbook.read('w1', { idFrom: 1e20, limit: 10 }), []);
        assert.deepEqual(await store.asmLogbook.read('w1', { idFrom: -5, limit: 1 }), a.slice(0, 1));
        assert.deepEqual(await store.asmLogbook.read('w2', { limit: 10 }), []);
        assert.deepEqual(await store.asmLogbook.append('w1', []), []);
      });

      it('keeps ids ascending in commit order with concurrent writers', async () => {
        // Several writers at once (several pooled connections on PostgreSQL). A reader that pages
        // by id while they write must see every event exactly once.
        // Big batches span several insert statements, so without serialisation one writer's ids
        // interleave with another's and commit out of order.
        const writers = 6;
        const rounds = 3;
        const batch = 1100;
        const seen: number[] = [];
        let done = false;
        const reader = (async () => {
          let next = 0;
          while (true) {
            const finished = done;
            const page = await store.asmLogbook.read('w1', { idFrom: next, limit: 700 });
            for (const e of page) seen.push(e.id);
            if (page.length > 0) next = page[page.length - 1].id + 1;
            else if (finished) return;
            else await new Promise((r) => setImmediate(r));
          }
        })();
        const written = await Promise.all(
          Array.from({ length: writers }, async (_, w) => {
            const ids: number[] = [];
            for (let i = 0; i < rounds; i++) {
              const ev = Array.from({ length: batch }, (_, k) => associate('HOST', { ipAddress: `10.${w}.${i}.${k & 255}`, k }));
              const r =
                i % 2 === 0
                  ? await store.asmLogbook.append('w1', ev)
                  : await store.asmAssets.apply('w1', { upsert: [host('w1', `10.0.${w}.${i}`)], remove: [] }, ev);
              ids.push(...r.map((e) => e.id));
            }
            return ids;
          }),
        );
        done = true;
        await reader;
        const all = written.flat().sort((x, y) => x - y);
        assert.equal(all.length, writers * rounds * batch);
        assert.deepEqual(seen, all, 'the reader saw every event once, in id order');
      });
    });
  });
}
