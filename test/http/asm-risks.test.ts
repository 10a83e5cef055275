/**
 * The risk endpoints through the real app (contract §2B.6, §2B.7): risk events with their cursor
 * paging rules, risk instances (list, get, search, patch one and many), risk types (list with
 * sort and paging, get with `/` raw or `%2F`, patch that reaches instances), `/v1/risks`, the
 * error codes, and workspace isolation. Assets and documents are crafted so every answer is known.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { expiredCertificate } from '../support/expired-certificate.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { asmCaller, isAsmError } from './asm-support.ts';
import { createAsmContext, type AsmContext } from '../../src/asm/index.ts';
import { evaluateChange } from '../../src/asm/risks/index.ts';
import type { Asset } from '../../src/model/asm-asset.ts';

let s: TestServer;
let ctx: AsmContext;
const asm = asmCaller(() => s);
let clock = new Date('2026-11-01T00:00:00.000Z');
const tick = () => (clock = new Date(clock.getTime() + 60_000));

const H1 = '10.9.0.1';
const H2 = '10.9.0.2';
const SHA = 'cd'.repeat(32);

function asset(workspaceId: string, type: Asset['type'], assetId: string, cloud: string | null, data: Record<string, unknown> = {}): Asset {
  const at = clock.toISOString();
  return { workspaceId, type, assetId, isSeed: false, source: 'CENSYS_SCAN', associatedAt: at, updatedAt: at, trail: [], cloud, data };
}

async function putHost(ip: string, services: Record<string, unknown>[]): Promise<void> {
  await s.rt.store.documents.put('hosts', ip, { ip, services }, clock.toISOString());
}

async function evaluate(workspaceId: string, assets: Asset[]): Promise<void> {
  await s.rt.store.asmAssets.apply(workspaceId, { upsert: assets, remove: [] }, []);
  await evaluateChange(ctx, { workspaceId, upserted: assets, removed: [] });
}

const ws = () => s.admin.user.workspaceId;

before(async () => {
  s = await startTestServer({ hosts: 10, certificates: 5 });
  ctx = createAsmContext(s.rt.store, () => clock);
  await putHost(H1, [
    { port: 3389, service_name: 'RDP', transport_protocol: 'TCP' },
    { port: 23, service_name: 'TELNET', transport_protocol: 'TCP' },
  ]);
  await putHost(H2, [{ port: 6379, service_name: 'REDIS', transport_protocol: 'TCP' }]);
  await s.rt.store.documents.put(
    'certificates',
    SHA,
    expiredCertificate(SHA, clock),
    clock.toISOString(),
  );
  await evaluate(ws(), [
    asset(ws(), 'HOST', H1, 'Amazon AWS', { ports: [], names: [] }),
    asset(ws(), 'HOST', H2, null, { ports: [], names: [] }),
    asset(ws(), 'CERT', SHA, null, { hosts: [], names: [] }),
  ]);
});
after(async () => {
  await s?.close();
});

function assertAsmError(r: { status: number; json: any }, status: number, errorCode: number): void {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.ok(isAsmError(r.json), `ASM error shape: ${JSON.stringify(r.json)}`);
  assert.equal(r.json.errorCode, errorCode, JSON.stringify(r.json));
}

const INSTANCE_KEYS = [
  'assetID',
  'assetType',
  'categories',
  'context',
  'detectedSeverity',
  'displayName',
  'evidence',
  'firstComputedAt',
  'id',
  'isSeverityModified',
  'lastComputedAt',
  'lastUpdatedAt',
  'metadata',
  'name',
  'resolvedAt',
  'severity',
  'status',
  'type',
  'typeID',
  'userStatus',
];
const EVENT_KEYS = ['delta', 'id', 'op', 'reason', 'riskID', 'riskType', 'src', 'srcID', 'ts'];
const TYPE_KEYS = [
  'config',
  'contextType',
  'defaultCategories',
  'defaultSeverity',
  'description',
  'enabled',
  'lastDisableReason',
  'lastSeverityChangeReason',
  'lastUpdatedAt',
  'name',
  'recommendedSeverity',
  'remediations',
  'riskCount',
  'subjectType',
  'type',
];

async function instancesByType(): Promise<Map<string, any>> {
  const r = await asm('GET', '/api/v2/risk-instances');
  return new Map(r.json.risks.map((i: any) => [i.typeID, i]));
}

describe('risk instances', () => {
  test('GET /v2/risk-instances lists every instance in the RiskInstance shape', async () => {
    const r = await asm('GET', '/api/v2/risk-instances');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.json), ['risks']);
    assert.deepEqual(r.json.risks.map((i: any) => i.typeID).sort(), [
      'cert.expired',
      'service.database.redis_exposed',
      'service.remote_access.rdp_exposed',
      'service.remote_access.telnet_exposed',
    ]);
    const rdp = r.json.risks.find((i: any) => i.typeID === 'service.remote_access.rdp_exposed');
    assert.deepEqual(Object.keys(rdp).sort(), INSTANCE_KEYS);
    assert.equal(typeof rdp.id, 'number');
    assert.equal(rdp.type, 'service.remote_access.rdp_exposed');
    assert.equal(rdp.name, 'Exposed RDP');
    assert.equal(rdp.displayName, `Exposed RDP on ${H1}:3389`);
    assert.equal(rdp.severity, 'high');
    assert.equal(rdp.status, 'open');
    assert.equal(rdp.userStatus, null);
    assert.deepEqual(rdp.categories, ['Exposure', 'Remote Access']);
    assert.deepEqual(rdp.metadata, [{ src: 'system' }]);
    assert.deepEqual(
      { type: rdp.context.type, cri: rdp.context.cri, ip: rdp.context.ip, port: rdp.context.port, transportProtocol: rdp.context.transportProtocol },
      { type: 'service', cri: `cri:service:${H1}:3389/tcp`, ip: H1, port: 3389, transportProtocol: 'TCP' },
    );
    assert.deepEqual([rdp.assetType, rdp.assetID], ['HOST', H1]);
    assert.equal(rdp.firstComputedAt, '2026-11-01T00:00:00.000Z');
    assert.equal(rdp.resolvedAt, null);
    assert.equal(rdp.events, undefined);
    const cert = r.json.risks.find((i: any) => i.typeID === 'cert.expired');
    assert.deepEqual([cert.assetType, cert.assetID, cert.context.type, cert.context.cri], ['CERT', SHA, 'cert', `cri:cert:${SHA}`]);
  });

  test('includeEvents=True adds each instance its events', async () => {
    const r = await asm('GET', '/api/v2/risk-instances?includeEvents=True');
    for (const i of r.json.risks) {
      assert.ok(Array.isArray(i.events) && i.events.length >= 1, JSON.stringify(i));
      assert.deepEqual(Object.keys(i.events[0]).sort(), EVENT_KEYS);
      assert.equal(i.events[0].op, 'open');
      assert.equal(i.events[0].riskID, i.id);
    }
    const off = await asm('GET', '/api/v2/risk-instances?includeEvents=False');
    assert.ok(off.json.risks.every((i: any) => i.events === undefined));
    assertAsmError(await asm('GET', '/api/v2/risk-instances?includeEvents=maybe'), 400, 10008);
  });

  test('GET /v2/risk-instances/{id}: the instance, or 404 Risk not Found (10073)', async () => {
    const rdp = (await instancesByType()).get('service.remote_access.rdp_exposed');
    const r = await asm('GET', `/api/v2/risk-instances/${rdp.id}`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, rdp);
    const withEvents = await asm('GET', `/api/v2/risk-instances/${rdp.id}?includeEvents=True`);
    assert.equal(withEvents.json.events[0].riskID, rdp.id);
    for (const bad of ['999999', 'abc', '-1', '1.5', '01']) {
      const e = await asm('GET', `/api/v2/risk-instances/${bad}`);
      assertAsmError(e, 404, 10073);
      assert.equal(e.json.message, 'Risk not Found');
    }
    assertAsmError(await asm('PATCH', '/api/v2/risk-instances/999999', { body: { userStatus: 'x' } }), 404, 10073);
  });

  test('PATCH /v2/risk-instances/{id} changes user status, severity, categories and metadata, with counters and a user event', async () => {
    const telnet = (await instancesByType()).get('service.remote_access.telnet_exposed');
    const r = await asm('PATCH', `/api/v2/risk-instances/${telnet.id}`, {
      body: { userStatus: 'in progress', severity: 'accepted', categories: ['Legacy'], metadata: [{ src: 'system' }, { src: 'ticket', id: 'OPS-1' }], reason: 'tracked' },
    });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, { changes: 1, categoriesChanges: 1, metadataAdded: 1, metadataRemoved: 0, severityChanges: 1, skips: 0, userStatusChanges: 1 });
    const got = (await asm('GET', `/api/v2/risk-instances/${telnet.id}?includeEvents=True`)).json;
    assert.equal(got.userStatus, 'in progress');
    assert.equal(got.severity, 'accepted');
    assert.equal(got.detectedSeverity, 'high');
    assert.equal(got.isSeverityModified, true);
    assert.deepEqual(got.categories, ['Legacy']);
    assert.deepEqual(got.metadata, [{ src: 'system' }, { src: 'ticket', id: 'OPS-1' }]);
    const e = got.events.at(-1);
    assert.deepEqual([e.op, e.src, e.srcID, e.reason], ['update', 'user', s.admin.user.id, 'tracked']);
    assert.deepEqual(e.delta, { userStatus: 'in progress', severity: 'accepted', categories: ['Legacy'], metadata_added: [{ src: 'ticket', id: 'OPS-1' }] });
    // The same patch again: nothing to change, one skip.
    const again = await asm('PATCH', `/api/v2/risk-instances/${telnet.id}`, { body: { userStatus: 'in progress', severity: 'accepted' } });
    assert.deepEqual(again.json, { changes: 0, categoriesChanges: 0, metadataAdded: 0, metadataRemoved: 0, severityChanges: 0, skips: 1, userStatusChanges: 0 });
    // The change is in the logbook as a user config change.
    const log = await s.rt.store.asmLogbook.read(ws(), { limit: 1000, types: ['RISK_USER_CONFIG'] });
    assert.deepEqual(log.at(-1)!.entity, { riskId: telnet.id, riskType: telnet.typeID, assetType: 'HOST', assetId: H1 });
  });

  test('PATCH /v2/risk-instances/{id} rejects bad input precisely (10008)', async () => {
    const id = (await instancesByType()).get('service.database.redis_exposed').id;
    for (const body of [{ severity: 'severe' }, { userStatus: 5 }, { categories: 'x' }, { categories: [''] }, { metadata: ['x'] }, { nope: 1 }, [1], 'text']) {
      const r = await asm('PATCH', `/api/v2/risk-instances/${id}`, { body });
      assertAsmError(r, 400, 10008);
      assert.equal(typeof r.json.details, 'string');
    }
  });

  test('bulk PATCH /v2/risk-instances: one patch with id or ids, or a list; unknown ids are skips', async () => {
    const m = await instancesByType();
    const redis = m.get('service.database.redis_exposed').id;
    const cert = m.get('cert.expired').id;
    const one = await asm('PATCH', '/api/v2/risk-instances', { body: { id: redis, categories: ['x'] } });
    assert.deepEqual(one.json, { changes: 1, categoriesChanges: 1, metadataAdded: 0, metadataRemoved: 0, severityChanges: 0, skips: 0, userStatusChanges: 0 });
    const many = await asm('PATCH', '/api/v2/risk-instances', { body: { ids: [redis, cert, 987654], userStatus: 'triaged' } });
    assert.deepEqual(many.json, { changes: 2, categoriesChanges: 0, metadataAdded: 0, metadataRemoved: 0, severityChanges: 0, skips: 1, userStatusChanges: 2 });
    const list = await asm('PATCH', '/api/v2/risk-instances', { body: [{ id: redis, categories: null }, { id: cert, severity: 'low' }] });
    assert.deepEqual(list.json, { changes: 2, categoriesChanges: 1, metadataAdded: 0, metadataRemoved: 0, severityChanges: 1, skips: 0, userStatusChanges: 0 });
    const after = await instancesByType();
    assert.deepEqual(after.get('service.database.redis_exposed').categories, ['Exposure', 'Databases']);
    assert.equal(after.get('cert.expired').severity, 'low');
    assertAsmError(await asm('PATCH', '/api/v2/risk-instances', { body: { userStatus: 'x' } }), 400, 10008);
    assertAsmError(await asm('PATCH', '/api/v2/risk-instances', { body: { ids: 'all', userStatus: 'x' } }), 400, 10008);
  });
});

describe('risk instance search', () => {
  const search = (body: unknown) => asm('POST', '/api/v2/risk-instances/search', { body });

  test('the documented request: fields, limit, page, query, sort', async () => {
    const first = (await instancesByType()).get('service.remote_access.rdp_exposed');
    const r = await search({
      fields: ['id', 'context', 'type', 'metadata', 'events'],
      limit: 1000,
      page: 1,
      query: { field: 'firstComputedAt', operator: '=', value: first.firstComputedAt },
      sort: ['severity', { 'context.type': 'asc' }],
    });
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json.total, 4);
    assert.deepEqual([r.json.page, r.json.limit], [1, 1000]);
    for (const h of r.json.risks) assert.deepEqual(Object.keys(h).sort(), ['context', 'events', 'id', 'metadata', 'type']);
    // Severity ascends (accepted < low < medium < high < critical); ties by context.type, then id.
    const sev = new Map([...(await instancesByType()).values()].map((i: any) => [i.id, i.severity]));
    const rank: Record<string, number> = { accepted: 0, low: 1, medium: 2, high: 3, critical: 4 };
    const order = r.json.risks.map((h: any) => rank[sev.get(h.id)]);
    assert.deepEqual(order, [...order].sort((a: number, b: number) => a - b));
  });

  test('operators, compound conditions, paging and projection of nested fields', async () => {
    const high = await search({ query: { field: 'severity', operator: '>=', value: 'high' }, sort: [{ id: 'asc' }] });
    assert.ok(high.json.risks.every((h: any) => ['high', 'critical'].includes(h.severity)));
    const byPort = await search({ query: { and: [{ field: 'context.port', operator: 'in', value: [3389, 6379] }, { field: 'status', value: 'open' }] }, fields: ['typeID', 'context.port'] });
    assert.deepEqual(byPort.json.risks.map((h: any) => [h.typeID, h.context.port]).sort(), [
      ['service.database.redis_exposed', 6379],
      ['service.remote_access.rdp_exposed', 3389],
    ]);
    const either = await search({ query: { or: [{ field: 'assetType', value: 'CERT' }, { field: 'typeID', operator: 'contains', value: 'telnet' }] } });
    assert.equal(either.json.total, 2);
    const none = await search({ query: { not: { field: 'assetID', operator: 'exists' } } });
    assert.equal(none.json.total, 0);
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(...(await search({ limit: 2, page, sort: ['id:desc'], fields: ['id'] })).json.risks.map((h: any) => h.id));
    const all = [...(await instancesByType()).values()].map((i: any) => i.id).sort((a: number, b: number) => b - a);
    assert.deepEqual(pages, all);
    const empty = await search({});
    assert.equal(empty.json.total, 4);
  });

  test('bad searches are 10008 (10078 for a bad time)', async () => {
    for (const body of [
      { query: { field: 'nope', operator: '=', value: 1 } },
      { query: { field: 'severity', operator: '~', value: 1 } },
      { query: { field: 'severity', operator: 'in', value: 'high' } },
      { query: { and: 'x' } },
      { sort: ['nope'] },
      { sort: [{ severity: 'up' }] },
      { limit: 0 },
      { page: 0 },
      { fields: ['nope'] },
      { other: 1 },
      [1],
    ]) {
      assertAsmError(await search(body), 400, 10008);
    }
    assertAsmError(await search({ query: { field: 'firstComputedAt', operator: '>', value: 'yesterday' } }), 400, 10078);
  });
});

describe('risk types', () => {
  test('GET /v2/risk-types: {type: [RiskType]} with the workspace view of every catalogue type', async () => {
    const r = await asm('GET', '/api/v2/risk-types');
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(r.json.type));
    assert.ok(r.json.type.length >= 40);
    assert.equal(r.json.total, r.json.type.length);
    for (const t of r.json.type) assert.deepEqual(Object.keys(t).sort(), TYPE_KEYS);
    const ids = r.json.type.map((t: any) => t.type);
    assert.deepEqual(ids, [...ids].sort(), 'default order is by type id');
    const redis = r.json.type.find((t: any) => t.type === 'service.database.redis_exposed');
    assert.equal(redis.riskCount, 1);
    assert.equal(redis.enabled, true);
    assert.deepEqual(redis.defaultCategories, [['Exposure'], ['Databases']]);
    assert.equal(redis.lastUpdatedAt, null);
  });

  test('sort (repeated, with directions), page and limit', async () => {
    const r = await asm('GET', '/api/v2/risk-types?sort=severity:desc&sort=type:asc&includeEvents=False&page=1&limit=10000');
    const rank: Record<string, number> = { low: 1, medium: 2, high: 3, critical: 4 };
    const keys = r.json.type.map((t: any) => [-rank[t.defaultSeverity], t.type]);
    assert.deepEqual(keys, [...keys].sort((a: any, b: any) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)));
    const paged: string[] = [];
    for (let page = 1; ; page++) {
      const p = await asm('GET', `/api/v2/risk-types?sort=name&page=${page}&limit=25`);
      assert.equal(p.status, 200);
      if (p.json.type.length === 0) break;
      paged.push(...p.json.type.map((t: any) => t.type));
    }
    const byName = (await asm('GET', '/api/v2/risk-types?sort=name')).json.type.map((t: any) => t.type);
    assert.deepEqual(paged, byName);
    for (const q of ['sort=nope', 'sort=severity:sideways', 'page=0', 'limit=0', 'limit=abc', 'includeEvents=perhaps']) {
      assertAsmError(await asm('GET', `/api/v2/risk-types?${q}`), 400, 10008);
    }
  });

  test('GET /v2/risk-types/{type}; an id with / (raw or %2F) reaches the route and is 10073 when unknown', async () => {
    const r = await asm('GET', '/api/v2/risk-types/service.remote_access.rdp_exposed');
    assert.equal(r.status, 200);
    assert.equal(r.json.type, 'service.remote_access.rdp_exposed');
    assert.equal(r.json.riskCount, 1);
    const raw = await asm('GET', '/api/v2/risk-types/vendor/some-risk');
    assertAsmError(raw, 404, 10073);
    assert.match(raw.json.details, /vendor\/some-risk/);
    const escaped = await asm('GET', '/api/v2/risk-types/vendor%2Fsome-risk?includeEvents=True');
    assertAsmError(escaped, 404, 10073);
    assert.match(escaped.json.details, /vendor\/some-risk/);
    const dotted = await asm('GET', '/api/v2/risk-types/service.database.redis_exposed?includeEvents=True');
    assert.deepEqual(dotted.json.events, []);
  });

  test('PATCH /v2/risk-types/{type}: disabling resolves its instances, re-enabling reopens them, severity reaches them', async () => {
    const type = 'service.database.redis_exposed';
    const id = (await instancesByType()).get(type).id;
    tick();
    const off = await asm('PATCH', `/api/v2/risk-types/${type}`, { body: { type, enabled: false, reason: 'lab only' } });
    assert.equal(off.status, 200, off.body);
    assert.deepEqual(off.json, { changes: 1, configChanges: 0, defaultCategoriesChanges: 0, defaultSeverityChanges: 0, enabledChanges: 1 });
    const t = (await asm('GET', `/api/v2/risk-types/${encodeURIComponent(type)}?includeEvents=True`)).json;
    assert.deepEqual([t.enabled, t.riskCount, t.lastDisableReason], [false, 0, 'lab only']);
    assert.match(t.lastUpdatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(t.events.map((e: any) => [e.op, e.riskID, e.delta]), [['type-update', 0, { enabled: false }]]);
    const i = (await asm('GET', `/api/v2/risk-instances/${id}?includeEvents=True`)).json;
    assert.equal(i.status, 'resolved');
    assert.deepEqual([i.events.at(-1).op, i.events.at(-1).reason], ['resolve', 'risk type disabled']);

    tick();
    const on = await asm('PATCH', `/api/v2/risk-types/${type}`, { body: { enabled: true, severity: 'critical', severityChangeReason: 'prod data', categories: [['Databases'], ['Crown Jewels']], config: 'x=1' } });
    assert.deepEqual(on.json, { changes: 1, configChanges: 1, defaultCategoriesChanges: 1, defaultSeverityChanges: 1, enabledChanges: 1 });
    const back = (await asm('GET', `/api/v2/risk-instances/${id}`)).json;
    assert.deepEqual([back.status, back.severity], ['open', 'critical']);
    // The instance's own categories were restored to the type's earlier; they now follow the type.
    assert.deepEqual(back.categories, ['Databases', 'Crown Jewels']);
    const t2 = (await asm('GET', `/api/v2/risk-types/${type}`)).json;
    assert.deepEqual([t2.defaultSeverity, t2.recommendedSeverity, t2.config, t2.lastSeverityChangeReason], ['critical', 'high', 'x=1', 'prod data']);
    assert.deepEqual(t2.defaultCategories, [['Databases'], ['Crown Jewels']]);
  });

  test('PATCH /v2/risk-types/{type} errors: unknown type 10073, bad body 10008', async () => {
    assertAsmError(await asm('PATCH', '/api/v2/risk-types/vendor/nothing', { body: { enabled: false } }), 404, 10073);
    const type = 'service.remote_access.vnc_exposed';
    for (const body of [{ enabled: 'no' }, { severity: 'severe' }, { categories: [] }, { config: [1] }, { type: 'other.type', enabled: false }, { nope: 1 }, [1]]) {
      assertAsmError(await asm('PATCH', `/api/v2/risk-types/${type}`, { body }), 400, 10008);
    }
  });
});

describe('risk events', () => {
  test('the whole log in id order; the cursor pages until endOfEvents without skipping or repeating', async () => {
    const all = await asm('GET', '/api/v2/risk-events?limit=10000');
    assert.equal(all.status, 200);
    assert.deepEqual(Object.keys(all.json).sort(), ['endOfEvents', 'events', 'next', 'total']);
    assert.equal(all.json.endOfEvents, true);
    assert.equal(all.json.total, all.json.events.length);
    const ids = all.json.events.map((e: any) => e.id);
    assert.ok(ids.length >= 8);
    assert.deepEqual(ids, [...ids].sort((a: number, b: number) => a - b));
    for (const e of all.json.events) assert.deepEqual(Object.keys(e).sort(), EVENT_KEYS);

    const seen: number[] = [];
    let r = await asm('GET', '/api/v2/risk-events?limit=3');
    assert.equal(r.json.total, ids.length);
    let pages = 0;
    for (;;) {
      pages++;
      seen.push(...r.json.events.map((e: any) => e.id));
      assert.ok(r.json.events.length <= 3);
      if (r.json.endOfEvents) break;
      assert.ok(pages < 100, 'paging must end');
      r = await asm('GET', `/api/v2/risk-events?cursor=${encodeURIComponent(r.json.next)}`);
    }
    assert.deepEqual(seen, ids);
    // The cursor decodes to the documented form.
    assert.deepEqual(JSON.parse(Buffer.from(r.json.next, 'base64').toString()), { afterID: ids.at(-1), limit: 3 });
    // Resuming from the last cursor later finds exactly the events written since.
    tick();
    await asm('PATCH', '/api/v2/risk-instances', { body: { ids: ids.length ? [all.json.events[0].riskID] : [], userStatus: `later-${Date.now()}` } });
    const later = await asm('GET', `/api/v2/risk-events?cursor=${encodeURIComponent(r.json.next)}`);
    assert.equal(later.json.events.length, 1);
    assert.equal(later.json.events[0].op, 'update');
    assert.equal(later.json.endOfEvents, true);
  });

  test('paging while events are being written neither skips nor repeats one', async () => {
    const target = (await instancesByType()).get('service.remote_access.rdp_exposed').id;
    const seen: number[] = [];
    let r = await asm('GET', '/api/v2/risk-events?limit=2');
    for (let n = 0; ; n++) {
      seen.push(...r.json.events.map((e: any) => e.id));
      if (r.json.endOfEvents) break;
      assert.ok(n < 500, 'paging must end');
      // One more event per page of two: the walk still catches up.
      await asm('PATCH', `/api/v2/risk-instances/${target}`, { body: { userStatus: `step ${n}` } });
      r = await asm('GET', `/api/v2/risk-events?cursor=${encodeURIComponent(r.json.next)}`);
    }
    const all = (await asm('GET', '/api/v2/risk-events?limit=10000')).json.events.map((e: any) => e.id);
    assert.deepEqual(seen, all);
  });

  test('afterID, limit, start and end', async () => {
    const ids = (await asm('GET', '/api/v2/risk-events?limit=10000')).json.events.map((e: any) => e.id);
    const after = await asm('GET', `/api/v2/risk-events?afterID=${ids[1]}&limit=2`);
    assert.deepEqual(after.json.events.map((e: any) => e.id), ids.slice(2, 4));
    assert.equal(after.json.endOfEvents, ids.length <= 4);
    assert.equal(after.json.total, ids.length - 2);
    const first = await asm('GET', '/api/v2/risk-events?start=2026-11-01T00:00:00Z&end=2026-11-01T00:00:00.000000Z');
    assert.ok(first.json.events.length >= 4);
    assert.ok(first.json.events.every((e: any) => e.ts === '2026-11-01T00:00:00.000Z'));
    const future = await asm('GET', '/api/v2/risk-events?start=2030-01-01T00:00:00Z');
    assert.deepEqual(future.json.events, []);
    assert.equal(future.json.endOfEvents, true);
    assert.equal(future.json.total, 0);
    assert.deepEqual(JSON.parse(Buffer.from(future.json.next, 'base64').toString()), { afterID: 0, limit: 100, start: '2030-01-01T00:00:00.000Z' });
  });

  test('bad parameters: 10078 for times, 10008 otherwise', async () => {
    assertAsmError(await asm('GET', '/api/v2/risk-events?start=yesterday'), 400, 10078);
    assertAsmError(await asm('GET', '/api/v2/risk-events?end=2024-13-45T00:00:00Z'), 400, 10078);
    assertAsmError(await asm('GET', '/api/v2/risk-events?start=2025-01-02T00:00:00Z&end=2025-01-01T00:00:00Z'), 400, 10078);
    for (const q of ['afterID=-1', 'afterID=x', 'limit=0', 'limit=100001', 'cursor=not-a-cursor!', `cursor=${Buffer.from('{"afterID":"x"}').toString('base64')}`, `cursor=${Buffer.from('[]').toString('base64')}`]) {
      assertAsmError(await asm('GET', `/api/v2/risk-events?${q}`), 400, 10008);
    }
  });
});

describe('/v1/risks (2.1.9 Risksv1)', () => {
  test('open risks grouped by type with affected asset counts, under data, paged by page number', async () => {
    const r = await asm('GET', '/api/v1/risks?pageNumber=1&pageSize=100');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.json).sort(), ['data', 'environment', 'pageNumber', 'pageSize', 'totalItems', 'totalPages']);
    assert.equal(r.json.environment, 'ALL');
    const byType = new Map(r.json.data.map((d: any) => [d.type, d]));
    // telnet was accepted by the user earlier: left out unless asked for.
    assert.ok(!byType.has('service.remote_access.telnet_exposed'));
    const rdp: any = byType.get('service.remote_access.rdp_exposed');
    assert.deepEqual(Object.keys(rdp).sort(), ['affectedAssetsCount', 'assetType', 'categories', 'isSeverityModified', 'name', 'riskInfoId', 'severity', 'type']);
    assert.deepEqual([rdp.affectedAssetsCount, rdp.assetType, rdp.severity, rdp.isSeverityModified], [1, 'HOST', 'high', false]);
    assert.equal(typeof rdp.riskInfoId, 'number');
    const redis: any = byType.get('service.database.redis_exposed');
    assert.deepEqual([redis.severity, redis.isSeverityModified], ['critical', true]);
    assert.equal((byType.get('cert.expired') as any).assetType, 'CERT');

    const accepted = await asm('GET', '/api/v1/risks?includeAcceptedRisks=True');
    const t = accepted.json.data.find((d: any) => d.type === 'service.remote_access.telnet_exposed');
    assert.deepEqual([t.severity, t.isSeverityModified, t.affectedAssetsCount], ['accepted', true, 1]);

    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const p = await asm('GET', `/api/v1/risks?pageNumber=${page}&pageSize=1`);
      assert.equal(p.json.pageNumber, page);
      seen.push(...p.json.data.map((d: any) => d.type));
      if (page >= p.json.totalPages) break;
    }
    assert.deepEqual(seen, r.json.data.map((d: any) => d.type));
  });

  test('cloud and environment filters', async () => {
    const aws = await asm('GET', '/api/v1/risks?cloud=Amazon%20AWS');
    assert.deepEqual(aws.json.data.map((d: any) => d.type), ['service.remote_access.rdp_exposed']);
    assert.equal(aws.json.environment, 'Amazon AWS');
    const anyCloud = await asm('GET', '/api/v1/risks?environment=CLOUD');
    assert.deepEqual(anyCloud.json.data.map((d: any) => d.type), ['service.remote_access.rdp_exposed']);
    const other = await asm('GET', '/api/v1/risks?environment=OTHER');
    assert.deepEqual(other.json.data.map((d: any) => d.type).sort(), ['cert.expired', 'service.database.redis_exposed']);
    const otherCloud = await asm('GET', '/api/v1/risks?cloud=otherCloud');
    assert.deepEqual(otherCloud.json.data, []);
    assert.deepEqual([otherCloud.json.pageNumber, otherCloud.json.totalPages, otherCloud.json.totalItems], [1, 0, 0]);
    assertAsmError(await asm('GET', '/api/v1/risks?cloud=ALL'), 400, 10082);
  });

  test('paging errors: 10050 page size, 10051 page number', async () => {
    assertAsmError(await asm('GET', '/api/v1/risks?pageSize=0'), 400, 10050);
    assertAsmError(await asm('GET', '/api/v1/risks?pageSize=5000'), 400, 10050);
    assertAsmError(await asm('GET', '/api/v1/risks?pageNumber=0'), 400, 10051);
    assertAsmError(await asm('GET', '/api/v1/risks?pageNumber=99&pageSize=100'), 400, 10051);
    assertAsmError(await asm('GET', '/api/v1/risks?pageNumber=x'), 400, 10008);
  });
});

describe('isolation and authentication', () => {
  test('another workspace sees none of these risks, events or settings', async () => {
    const key = s.other.asmKey;
    assert.deepEqual((await asm('GET', '/api/v2/risk-instances', { key })).json, { risks: [] });
    const ids = (await instancesByType()).get('service.remote_access.rdp_exposed').id;
    assertAsmError(await asm('GET', `/api/v2/risk-instances/${ids}`, { key }), 404, 10073);
    assertAsmError(await asm('PATCH', `/api/v2/risk-instances/${ids}`, { key, body: { userStatus: 'mine' } }), 404, 10073);
    const bulk = await asm('PATCH', '/api/v2/risk-instances', { key, body: { id: ids, userStatus: 'mine' } });
    assert.equal(bulk.json.skips, 1);
    assert.equal(bulk.json.changes, 0);
    const events = await asm('GET', '/api/v2/risk-events', { key });
    assert.deepEqual(events.json.events, []);
    assert.equal(events.json.endOfEvents, true);
    const redis = (await asm('GET', '/api/v2/risk-types/service.database.redis_exposed', { key })).json;
    assert.deepEqual([redis.enabled, redis.defaultSeverity, redis.riskCount], [true, 'high', 0]);
    const v1 = await asm('GET', '/api/v1/risks', { key });
    assert.deepEqual([v1.json.data, v1.json.pageNumber, v1.json.totalPages], [[], 1, 0]);
    assert.equal((await asm('POST', '/api/v2/risk-instances/search', { key, body: {} })).json.total, 0);
  });

  test('every risk route needs the ASM key', async () => {
    for (const [method, url] of [
      ['GET', '/api/v2/risk-events'],
      ['GET', '/api/v2/risk-instances'],
      ['PATCH', '/api/v2/risk-instances'],
      ['POST', '/api/v2/risk-instances/search'],
      ['GET', '/api/v2/risk-instances/1'],
      ['PATCH', '/api/v2/risk-instances/1'],
      ['GET', '/api/v2/risk-types'],
      ['GET', '/api/v2/risk-types/a/b'],
      ['PATCH', '/api/v2/risk-types/a'],
      ['GET', '/api/v1/risks'],
    ] as const) {
      assertAsmError(await asm(method, url, { key: null, body: {} }), 400, 10000);
    }
  });
});

describe('end to end: seeds, scan data, discovery, risks', () => {
  test('a seeded host with an exposed service gets an open risk; a new scan without it resolves the risk', async () => {
    const key = s.low.asmKey;
    const workspace = s.low.user.workspaceId;
    const ip = '203.0.113.77';
    const observedAt = new Date().toISOString();
    await s.rt.indexer.put('hosts', [{ id: ip, doc: { ip, services: [{ port: 23, service_name: 'TELNET', transport_protocol: 'TCP' }, { port: 22, service_name: 'SSH', transport_protocol: 'TCP' }] }, observedAt }]);
    const add = await asm('POST', '/api/v1/seeds?force=True', { key, body: { seeds: [{ type: 'IP_ADDRESS', value: ip, label: 'e2e' }] } });
    assert.equal(add.json.addedSeeds.length, 1, add.body);
    assert.equal(add.status, 200, add.body);
    await s.rt.discovery.evaluate(workspace);
    const open = (await asm('GET', '/api/v2/risk-instances', { key })).json.risks;
    assert.deepEqual(open.map((i: any) => [i.typeID, i.assetID, i.status]), [['service.remote_access.telnet_exposed', ip, 'open']]);
    const log = await s.rt.store.asmLogbook.read(workspace, { limit: 1000, types: ['HOST_RISK'] });
    assert.deepEqual(log.map((e) => [e.operation, e.entity.ipAddress, e.data?.port]), [['ADD', ip, 23]]);

    await s.rt.indexer.put('hosts', [{ id: ip, doc: { ip, services: [{ port: 22, service_name: 'SSH', transport_protocol: 'TCP' }] }, observedAt: new Date(Date.parse(observedAt) + 1000).toISOString() }]);
    // The indexer's listener starts discovery; evaluating again waits for whatever is queued.
    for (let i = 0; i < 50; i++) {
      await s.rt.discovery.evaluate(workspace);
      if ((await asm('GET', `/api/v2/risk-instances/${open[0].id}`, { key })).json.status === 'resolved') break;
    }
    const after = (await asm('GET', `/api/v2/risk-instances/${open[0].id}?includeEvents=True`, { key })).json;
    assert.equal(after.status, 'resolved');
    assert.deepEqual(after.events.map((e: any) => e.op), ['open', 'resolve']);
    const v1 = await asm('GET', '/api/v1/risks', { key });
    assert.deepEqual(v1.json.data, []);
  });
});
