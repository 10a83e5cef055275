/**
 * The ASM risk repository on every dialect. sqlite.test.ts and postgres.test.ts call
 * runAsmRiskStoreSuite with a function that opens a fresh, empty store; every test gets its own.
 */
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/index.ts';
import type { NewRiskEvent, NewRiskInstance } from '../../src/model/asm-risk.ts';

const T1 = '2024-05-01T10:00:00.000Z';
const T2 = '2024-05-02T10:00:00.000Z';
const T3 = '2024-05-03T10:00:00.000Z';

function instance(identity: string, extra: Partial<NewRiskInstance> = {}): NewRiskInstance {
  return {
    typeId: 'service.remote_access.rdp_exposed',
    identity,
    assetType: 'HOST',
    assetId: '10.0.0.1',
    context: { type: 'service', ip: '10.0.0.1', port: 3389, transportProtocol: 'TCP' },
    title: 'Exposed RDP on 10.0.0.1:3389',
    severity: 'high',
    evidence: { banner: 'a\u0000b', mark: '\uE000' },
    cloud: null,
    status: 'open',
    firstComputedAt: T1,
    lastComputedAt: T1,
    resolvedAt: null,
    ...extra,
  };
}

function event(op: string, extra: Partial<NewRiskEvent> = {}): NewRiskEvent {
  return { ts: T1, op, src: 'system', srcId: 'HOST:10.0.0.1', riskId: null, riskType: 'service.remote_access.rdp_exposed', reason: '', delta: {}, ...extra };
}

export function runAsmRiskStoreSuite(name: string, open: () => Promise<Store>): void {
  describe(name, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    it('inserts instances with their events, filling the new ids into events that name them', async () => {
      const a = instance('host:10.0.0.1|service.remote_access.rdp_exposed|3389/TCP');
      const b = instance('host:10.0.0.1|service.remote_access.telnet_exposed|23/TCP', { typeId: 'service.remote_access.telnet_exposed' });
      const r = await store.asmRisks.write(
        'w1',
        { insert: [a, b], update: [] },
        [event('open', { riskIdentity: a.identity, delta: { severity: 'high' } }), event('open', { riskIdentity: b.identity, riskType: b.typeId })],
        T1,
      );
      assert.equal(r.inserted.length, 2);
      const [ia, ib] = r.inserted;
      assert.ok(ib.id > ia.id);
      assert.deepEqual(r.events.map((e) => e.riskId), [ia.id, ib.id]);
      assert.ok(r.events[1].id > r.events[0].id);
      assert.deepEqual(r.events[0].delta, { severity: 'high' });
      const got = await store.asmRisks.getInstance('w1', ia.id);
      assert.deepEqual(got, ia);
      assert.deepEqual(got!.evidence, a.evidence);
      assert.equal(got!.severityOverride, null);
      assert.equal(got!.userStatus, null);
      assert.equal(got!.categories, null);
      assert.deepEqual(got!.metadata, []);
      assert.equal(got!.updatedAt, T1);
    });

    it('keeps one instance per identity and workspace', async () => {
      const a = instance('same');
      await store.asmRisks.write('w1', { insert: [a], update: [] }, [], T1);
      await assert.rejects(store.asmRisks.write('w1', { insert: [a], update: [] }, [event('open')], T1));
      // The failed write left no event behind.
      assert.equal(await store.asmRisks.countEvents('w1', {}), 0);
      const other = await store.asmRisks.write('w2', { insert: [a], update: [] }, [], T1);
      assert.equal(other.inserted.length, 1);
    });

    it('updates only the given fields', async () => {
      const { inserted } = await store.asmRisks.write('w1', { insert: [instance('x')], update: [] }, [], T1);
      const id = inserted[0].id;
      await store.asmRisks.write(
        'w1',
        { insert: [], update: [{ id, status: 'resolved', resolvedAt: T2, lastComputedAt: T2 }] },
        [event('resolve', { riskId: id, ts: T2 })],
        T2,
      );
      let got = (await store.asmRisks.getInstance('w1', id))!;
      assert.equal(got.status, 'resolved');
      assert.equal(got.resolvedAt, T2);
      assert.equal(got.title, inserted[0].title);
      assert.equal(got.firstComputedAt, T1);
      await store.asmRisks.write(
        'w1',
        { insert: [], update: [{ id, severityOverride: 'accepted', userStatus: 'in progress', categories: ['a', 'b'], metadata: [{ src: 'user', note: 'x' }] }] },
        [],
        T3,
      );
      got = (await store.asmRisks.getInstance('w1', id))!;
      assert.equal(got.severityOverride, 'accepted');
      assert.equal(got.userStatus, 'in progress');
      assert.deepEqual(got.categories, ['a', 'b']);
      assert.deepEqual(got.metadata, [{ src: 'user', note: 'x' }]);
      assert.equal(got.updatedAt, T3);
      await store.asmRisks.write('w1', { insert: [], update: [{ id, categories: null, userStatus: null, severityOverride: null }] }, [], T3);
      got = (await store.asmRisks.getInstance('w1', id))!;
      assert.equal(got.categories, null);
      assert.equal(got.userStatus, null);
      assert.equal(got.severityOverride, null);
    });

    it('touches instances found again: only lastComputedAt moves', async () => {
      const { inserted } = await store.asmRisks.write('w1', { insert: [instance('t1'), instance('t2'), instance('t3')], update: [] }, [], T1);
      await store.asmRisks.write('w2', { insert: [instance('t1')], update: [] }, [], T1);
      const ids = inserted.map((i) => i.id);
      await store.asmRisks.write('w1', { insert: [], update: [], touch: [ids[0], ids[2], -1] }, [], T2);
      const got = await store.asmRisks.listInstances('w1');
      assert.deepEqual(got.map((i) => i.lastComputedAt), [T2, T1, T2]);
      assert.ok(got.every((i) => i.updatedAt === T1 && i.title === inserted[0].title));
      // Another workspace's instance with the same id is not touched.
      await store.asmRisks.write('w2', { insert: [], update: [], touch: ids }, [], T3);
      assert.deepEqual((await store.asmRisks.listInstances('w1')).map((i) => i.lastComputedAt), [T2, T1, T2]);
    });

    it('lists by id with filters, and never across workspaces', async () => {
      await store.asmRisks.write(
        'w1',
        {
          insert: [
            instance('a'),
            instance('b', { assetId: '10.0.0.2', typeId: 'cert.expired', assetType: 'CERT' }),
            instance('c', { assetId: '10.0.0.3', status: 'resolved', resolvedAt: T1 }),
          ],
          update: [],
        },
        [],
        T1,
      );
      await store.asmRisks.write('w2', { insert: [instance('a')], update: [] }, [], T1);
      const all = await store.asmRisks.listInstances('w1');
      assert.deepEqual(all.map((r) => r.identity), ['a', 'b', 'c']);
      assert.deepEqual((await store.asmRisks.listInstances('w1', { status: 'open' })).map((r) => r.identity), ['a', 'b']);
      assert.deepEqual((await store.asmRisks.listInstances('w1', { typeId: 'cert.expired' })).map((r) => r.identity), ['b']);
      assert.deepEqual((await store.asmRisks.listInstances('w1', { assetType: 'HOST', assetIds: ['10.0.0.3', '10.0.0.2'] })).map((r) => r.identity), ['c']);
      assert.deepEqual((await store.asmRisks.listInstances('w1', { assetIds: [] })), []);
      assert.deepEqual((await store.asmRisks.listInstances('w1', { ids: [all[1].id, -1, 1.5] })).map((r) => r.identity), ['b']);
      assert.deepEqual(await store.asmRisks.listInstances('w1', { ids: [-1] }), []);
      const w2 = await store.asmRisks.listInstances('w2');
      assert.equal(w2.length, 1);
      assert.equal(await store.asmRisks.getInstance('w2', all[0].id), undefined);
      for (const bad of [-1, 1.5, Number.NaN, 1e20]) assert.equal(await store.asmRisks.getInstance('w1', bad), undefined);
    });

    it('reads events by id, time, risk and type, with a limit and a count', async () => {
      const { inserted } = await store.asmRisks.write('w1', { insert: [instance('a'), instance('b')], update: [] }, [], T1);
      const [a, b] = inserted;
      const written = [
        ...(await store.asmRisks.write('w1', { insert: [], update: [] }, [event('open', { riskId: a.id, ts: T1 }), event('open', { riskId: b.id, ts: T2 })], T1)).events,
        ...(await store.asmRisks.write('w1', { insert: [], update: [] }, [event('resolve', { riskId: a.id, ts: T3, riskType: 'other' })], T3)).events,
      ];
      await store.asmRisks.write('w2', { insert: [], update: [] }, [event('open', { ts: T1 })], T1);
      const ids = written.map((e) => e.id);
      assert.deepEqual((await store.asmRisks.readEvents('w1', {})).map((e) => e.id), ids);
      assert.deepEqual((await store.asmRisks.readEvents('w1', { afterId: ids[0] })).map((e) => e.id), ids.slice(1));
      assert.deepEqual((await store.asmRisks.readEvents('w1', { limit: 2 })).map((e) => e.id), ids.slice(0, 2));
      assert.deepEqual((await store.asmRisks.readEvents('w1', { start: T2 })).map((e) => e.id), ids.slice(1));
      assert.deepEqual((await store.asmRisks.readEvents('w1', { end: T2 })).map((e) => e.id), ids.slice(0, 2));
      assert.deepEqual((await store.asmRisks.readEvents('w1', { riskIds: [a.id] })).map((e) => e.id), [ids[0], ids[2]]);
      assert.deepEqual((await store.asmRisks.readEvents('w1', { riskType: 'other' })).map((e) => e.id), [ids[2]]);
      assert.deepEqual(await store.asmRisks.readEvents('w1', { afterId: 1e20 }), []);
      assert.deepEqual(await store.asmRisks.readEvents('w1', { limit: 0 }), []);
      assert.equal(await store.asmRisks.countEvents('w1', {}), 3);
      assert.equal(await store.asmRisks.countEvents('w1', { afterId: ids[1] }), 1);
      assert.equal(await store.asmRisks.countEvents('w2', {}), 1);
      const e = (await store.asmRisks.readEvents('w1', { limit: 1 }))[0];
      assert.deepEqual(e, { ...written[0] });
      assert.equal(e.workspaceId, 'w1');
    });

    it('event ids ascend across concurrent writers', async () => {
      const writes = Array.from({ length: 8 }, (_, i) =>
        store.asmRisks.write(`w${i % 2}`, { insert: [], update: [] }, [event('open'), event('open')], T1),
      );
      const results = await Promise.all(writes);
      const all = results.flatMap((r) => r.events.map((e) => e.id));
      assert.equal(new Set(all).size, 16);
      const w0 = await store.asmRisks.readEvents('w0', {});
      assert.deepEqual(w0.map((e) => e.id), [...w0.map((e) => e.id)].sort((x, y) => x - y));
      assert.equal(w0.length, 8);
    });

    it('keeps one setting per type and workspace, with its events', async () => {
      assert.deepEqual(await store.asmRisks.typeSettings('w1'), []);
      const s1 = {
        type: 'cert.expired',
        enabled: false,
        severity: null,
        categories: null,
        config: null,
        lastDisableReason: 'noise',
        lastSeverityChangeReason: null,
        updatedAt: T1,
      } as const;
      const events = await store.asmRisks.putTypeSetting('w1', s1, [event('type-update', { riskType: 'cert.expired', src: 'user', delta: { enabled: false } })]);
      assert.equal(events.length, 1);
      assert.equal(events[0].riskId, null);
      assert.deepEqual(await store.asmRisks.typeSettings('w1'), [s1]);
      const s2 = { ...s1, enabled: true, severity: 'low', categories: ['x'], config: 'days=10', lastSeverityChangeReason: 'why', updatedAt: T2 } as const;
      await store.asmRisks.putTypeSetting('w1', s2, []);
      assert.deepEqual(await store.asmRisks.typeSettings('w1'), [s2]);
      assert.deepEqual(await store.asmRisks.typeSettings('w2'), []);
    });
  });
}
