/**
 * The beta endpoints through the real app, in the newest client's request shapes (contract
 * §2B.10): logbook data windows until caught up with every filter family, cloud-connector assets,
 * input assets, asset and country counts, user workspaces, their errors, and workspaces apart.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { asmCaller, isAsmError } from './asm-support.ts';
import type { Asset, AssetType, NewLogbookEvent } from '../../src/model/asm-asset.ts';

let s: TestServer;
const asm = asmCaller(() => s);
let W: string;
let W2: string;
const EVENTS = 2600;

function asset(workspaceId: string, type: AssetType, assetId: string, o: Partial<Asset> = {}): Asset {
  return { workspaceId, type, assetId, isSeed: false, source: 'CENSYS_SCAN', associatedAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z', trail: [], cloud: null, data: {}, ...o };
}

function event(i: number): NewLogbookEvent {
  const timestamp = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
  const ip = `10.0.${Math.floor(i / 250)}.${i % 250}`;
  switch (i % 5) {
    case 0:
      return { type: 'HOST', operation: 'ASSOCIATE', entity: { ipAddress: ip }, timestamp };
    case 1:
      return { type: 'HOST_PORT', operation: i % 2 ? 'ADD' : 'REMOVE', entity: { ipAddress: ip }, data: { port: i % 3 === 0 ? 22 : 443, transportProtocol: 'TCP' }, timestamp };
    case 2:
      return { type: 'DOMAIN', operation: 'ASSOCIATE', entity: { domain: i % 4 === 0 ? `d${i}.example.com` : `d${i}.other.org` }, timestamp };
    case 3:
      return { type: 'CERT', operation: 'ASSOCIATE', entity: { sha256: i.toString(16).padStart(64, '0') }, timestamp };
    default:
      return {
        type: 'HOST_SOFTWARE',
        operation: 'ADD',
        entity: { ipAddress: ip },
        data: { port: 80, softwareVendor: 'f5', softwareProduct: 'nginx', softwareVersion: i % 2 ? '1.18.0' : '1.25.0', softwareUri: 'cpe:2.3:a:f5:nginx' },
        timestamp,
      };
  }
}

before(async () => {
  s = await startTestServer({ hosts: 30, certificates: 2 });
  W = s.admin.user.workspaceId;
  W2 = s.other.user.workspaceId;
  const events = Array.from({ length: EVENTS }, (_, i) => event(i));
  for (let i = 0; i < events.length; i += 500) await s.rt.store.asmLogbook.append(W, events.slice(i, i + 500));
  await s.rt.store.asmLogbook.append(W2, [{ type: 'HOST', operation: 'ASSOCIATE', entity: { ipAddress: '10.9.9.9' }, timestamp: '2025-01-01T00:00:00.000Z' }]);
  await s.rt.store.asmAnnotations.tagAsset(W, 'HOST', '10.0.0.5', 'prod', null, '#000000', '2025-01-01T00:00:00.000Z');
});
after(async () => {
  await s?.close();
});

const LOGBOOK = '/api/beta/logbook/getLogbookData';

/** Windows until an empty one; returns every result. */
async function drain(filters: unknown, key?: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  for (let n = 0; ; n++) {
    assert.ok(n < 20, 'windows end');
    const r = await asm('POST', LOGBOOK, { body: { filters, nextWindowCursor: cursor }, ...(key ? { key } : {}) });
    assert.equal(r.status, 200, r.body);
    assert.equal(typeof r.json.nextWindowCursor, 'string');
    assert.ok(r.json.results.length <= 1000);
    if (r.json.results.length === 0) break;
    out.push(...r.json.results);
    cursor = r.json.nextWindowCursor;
  }
  return out;
}

function assertAsmError(r: { status: number; json: any }, status: number, code: number): void {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.ok(isAsmError(r.json), JSON.stringify(r.json));
  assert.equal(r.json.errorCode, code);
}

describe('logbook data', () => {
  test('windows of at most 1000 until caught up: every event once, ascending, in the spec shapes', async () => {
    const all = await drain(null);
    assert.equal(all.length, EVENTS);
    for (let i = 1; i < all.length; i++) assert.ok(all[i].id > all[i - 1].id);
    const host = all.find((e) => e.type === 'HOST');
    assert.deepEqual(Object.keys(host).sort(), ['id', 'ip', 'logData', 'logSubType', 'timestamp', 'type']);
    assert.equal(host.logSubType, 'ASSOCIATE');
    assert.deepEqual(all.find((e) => e.type === 'HOST_PORT').logData.port !== undefined, true);
    assert.ok(all.find((e) => e.type === 'CERT').sslHash);
    assert.ok(all.find((e) => e.type === 'DOMAIN').name);
    assert.deepEqual(all.find((e) => e.type === 'HOST_SOFTWARE').logData.vendorProduct, 'f5 nginx');
    // Absent body and an empty one are the same request.
    assert.equal((await asm('POST', LOGBOOK, { raw: '' })).json.results.length, 1000);
    // A caught-up cursor stays valid: new events show up behind it.
    const r1 = await asm('POST', LOGBOOK, { body: { filters: { general: { types: ['HOST'] } } } });
    let cursor = r1.json.nextWindowCursor;
    for (;;) {
      const r = await asm('POST', LOGBOOK, { body: { filters: { general: { types: ['HOST'] } }, nextWindowCursor: cursor } });
      cursor = r.json.nextWindowCursor;
      if (r.json.results.length === 0) break;
    }
    await s.rt.store.asmLogbook.append(W, [{ type: 'HOST', operation: 'DISASSOCIATE', entity: { ipAddress: '10.0.0.1' }, timestamp: '2026-01-01T00:00:00.000Z' }]);
    const later = await asm('POST', LOGBOOK, { body: { filters: { general: { types: ['HOST'] } }, nextWindowCursor: cursor } });
    assert.deepEqual(later.json.results.map((e: any) => [e.ip, e.logSubType]), [['10.0.0.1', 'DISASSOCIATE']]);
  });

  test('filters: types, addresses, domains, hashes, tags, type sections, dates and ids', async () => {
    const all = await drain(null);
    const count = async (filters: unknown) => (await drain(filters)).length;
    assert.equal(await count({ general: { types: ['CERT', 'DOMAIN'] } }), all.filter((e) => e.type === 'CERT' || e.type === 'DOMAIN').length);
    const in00 = all.filter((e) => typeof e.ip === 'string' && e.ip.startsWith('10.0.0.')).length;
    assert.equal(await count({ general: { includedIpCidr: ['10.0.0.0/24'] } }), in00);
    assert.equal(await count({ general: { excludedIpCidr: ['10.0.0.0/24'] } }), all.length - in00);
    const example = all.filter((e) => e.type === 'DOMAIN' && e.name.endsWith('.example.com')).length;
    assert.equal(await count({ general: { domains: { items: ['example.com'] } } }), example);
    assert.equal(await count({ general: { types: ['DOMAIN'], domains: { items: ['example.com'], inverted: true } } }), all.filter((e) => e.type === 'DOMAIN').length - example);
    const cert = all.find((e) => e.type === 'CERT');
    assert.deepEqual((await drain({ general: { includedSslHash: [cert.sslHash.toUpperCase()] } })).map((e) => e.id), [cert.id]);
    assert.deepEqual(
      (await drain({ general: { tags: { items: ['prod'], comparison: 'OVERLAPS' } } })).map((e) => e.ip),
      all.filter((e) => e.ip === '10.0.0.5').map((e) => e.ip),
    );
    const ssh = all.filter((e) => e.type === 'HOST_PORT' && e.logData.port === 22 && e.logSubType === 'ADD').length;
    assert.equal(await count({ hostPort: { includedEventTypes: ['ADD'], ports: { value: [22] } } }), ssh);
    const nginx118 = all.filter((e) => e.type === 'HOST_SOFTWARE' && e.logData.version === '1.18.0').length;
    assert.equal(await count({ hostSoftware: { software: { vendorProduct: 'nginx', version: '1.18.0' } } }), nginx118);
    assert.equal(await count({ host: {}, cert: {} }), all.filter((e) => e.type === 'HOST' || e.type === 'CERT').length);
    const start = all[100].timestamp;
    const end = all[200].timestamp;
    assert.equal(await count({ dateRange: { start, end } }), 100);
    assert.equal(await count({ dateRange: { start, end, excludeStart: true, includeEnd: true } }), 100);
    assert.deepEqual((await drain({ idRange: { start: all[10].id, end: all[13].id, includeEnd: true } })).map((e) => e.id), all.slice(10, 14).map((e) => e.id));
  });

  test('bad filters are 10008; a foreign or tampered cursor is 10040; other workspaces see only theirs', async () => {
    for (const filters of [
      { general: { types: 'HOST' } },
      { general: { includedIpCidr: ['not-an-ip'] } },
      { hostPort: { ports: { value: ['22'] } } },
      { hostPort: { includedEventTypes: ['ASSOCIATE'] } },
      { nope: {} },
      { dateRange: { start: 'yesterday' } },
      { general: { tags: { items: ['x'], comparison: 'SOME' } } },
      [],
    ]) {
      assertAsmError(await asm('POST', LOGBOOK, { body: { filters } }), 400, 10008);
    }
    const r = await asm('POST', LOGBOOK, { body: { filters: { general: { types: ['HOST'] } } } });
    assertAsmError(await asm('POST', LOGBOOK, { body: { filters: { general: { types: ['CERT'] } }, nextWindowCursor: r.json.nextWindowCursor } }), 400, 10040);
    assertAsmError(await asm('POST', LOGBOOK, { body: { nextWindowCursor: 'garbage!' } }), 400, 10040);
    assertAsmError(await asm('POST', LOGBOOK, { body: { nextWindowCursor: 5 } }), 400, 10040);
    const theirs = await drain(null, s.other.asmKey);
    assert.deepEqual(theirs.map((e) => e.ip), ['10.9.9.9']);
    // A cursor of one workspace is not another's.
    assertAsmError(await asm('POST', LOGBOOK, { key: s.other.asmKey, body: { nextWindowCursor: r.json.nextWindowCursor, filters: { general: { types: ['HOST'] } } } }), 400, 10040);
  });
});

describe('cloud connector', () => {
  const ADD = '/api/beta/cloudConnector/addCloudAssets';

  test('adds object storage as STORAGE_BUCKET assets with OBJECT_STORAGE events; repeats change nothing', async () => {
    const body = {
      cloudConnectorUid: 'conn-1',
      cloudAssets: [
        { type: 'OBJECT_STORAGE', value: 'arn:aws:s3:::my-bucket', cspLabel: 'AWS', scanData: '' },
        { type: 'OBJECT_STORAGE', value: 'gs://media-bucket', cspLabel: 'GCP', scanData: '{"public":false}' },
        { type: 'OBJECT_STORAGE', value: 'https://acct01.blob.core.windows.net/photos', cspLabel: 'AZURE', scanData: '' },
      ],
    };
    const r = await asm('POST', ADD, { body });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, {
      addedAssets: ['https://my-bucket.s3.amazonaws.com', 'https://media-bucket.storage.googleapis.com', 'https://acct01.blob.core.windows.net/photos'],
      removedAssets: [],
      updatedAssets: [],
    });
    assert.deepEqual((await asm('POST', ADD, { body })).json, { addedAssets: [], removedAssets: [], updatedAssets: [] });
    const changed = await asm('POST', ADD, { body: { cloudConnectorUid: 'conn-1', cloudAssets: [{ ...body.cloudAssets[1], scanData: '{"public":true}' }] } });
    assert.deepEqual(changed.json.updatedAssets, ['https://media-bucket.storage.googleapis.com']);
    const bucket = await s.rt.store.asmAssets.get(W, 'STORAGE_BUCKET', 'https://my-bucket.s3.amazonaws.com');
    assert.equal(bucket?.source, 'CLOUD_CONNECTOR');
    assert.equal(bucket?.cloud, 'Amazon AWS');
    const events = await s.rt.store.asmLogbook.read(W, { types: ['OBJECT_STORAGE'], limit: 10 });
    assert.deepEqual(events.map((e) => [e.operation, e.entity.bucketUrl]), r.json.addedAssets.map((u: string) => ['ASSOCIATE', u]));
    const counts = await asm('GET', '/api/v1/clouds/objectStoreCounts/2000-01-01?source=CLOUD_CONNECTOR');
    assert.equal(counts.json.totalAssetCount, 3);
    const inv = await asm('GET', `/api/inventory/v1?query=${encodeURIComponent('storage_bucket.provider: "Google Cloud"')}`);
    assert.deepEqual(inv.json.hits.map((h: any) => h.storage_bucket.name), ['media-bucket']);
    assert.equal((await asm('GET', '/api/v1/clouds/objectStoreCounts/2000-01-01', { key: s.other.asmKey })).json.totalAssetCount, 0);
  });

  test('invalid data: 10059 with every error listed', async () => {
    const r = await asm('POST', ADD, {
      body: {
        cloudConnectorUid: 'c',
        cloudAssets: [
          { type: 'HOST', value: 'x', cspLabel: 'AWS', scanData: '' },
          { type: 'OBJECT_STORAGE', value: 'Bad_Name!', cspLabel: 'AWS', scanData: '' },
          { type: 'OBJECT_STORAGE', value: 'ok-bucket', cspLabel: 'IBM', scanData: '' },
          { type: 'OBJECT_STORAGE', value: 'ok-bucket', cspLabel: 'GCP' },
        ],
      },
    });
    assertAsmError(r, 400, 10059);
    assert.equal(r.json.message, 'Invalid Cloud Asset Data');
    assert.equal(r.json.details.errors.length, 4);
    assertAsmError(await asm('POST', ADD, { body: { cloudAssets: [] } }), 400, 10059);
    assertAsmError(await asm('POST', ADD, { body: [] }), 400, 10059);
    assertAsmError(await asm('POST', ADD, { body: { cloudConnectorUid: 'c', cloudAssets: [{ type: 'OBJECT_STORAGE', value: 'https://example.com/x', cspLabel: 'AWS', scanData: '' }] } }), 400, 10059);
  });
});

describe('input assets, counts and workspaces', () => {
  test('input assets: seeds then cloud-connector inputs, paged by pageNumber and pageSize', async () => {
    const added = await asm('POST', '/api/v1/seeds', { body: { seeds: [{ type: 'IP_ADDRESS', value: '93.184.1.7', label: 'a' }, { type: 'DOMAIN_NAME', value: 'periscope-test.net', label: '' }, { type: 'ASN', value: 13335 }] } });
    assert.equal(added.status, 200, added.body);
    assert.equal(added.json.addedSeeds.length, 3, added.body);
    const seen: any[] = [];
    let total = 0;
    for (let page = 1; ; page++) {
      const r = await asm('GET', `/api/beta/assets/inputAssets?pageNumber=${page}&pageSize=2`);
      assert.equal(r.status, 200, r.body);
      assert.equal(r.json.pageNumber, page);
      assert.equal(r.json.pageSize, 2);
      total = r.json.totalItems;
      seen.push(...r.json.assets);
      if (page >= r.json.totalPages) break;
    }
    assert.equal(seen.length, total);
    assert.deepEqual(seen.slice(0, 3).map((a) => [a.type, a.value, a.source]), [
      ['IP_ADDRESS', '93.184.1.7', 'API'],
      ['DOMAIN_NAME', 'periscope-test.net', 'API'],
      ['ASN', '13335', 'API'],
    ]);
    assert.ok(seen.slice(3).every((a) => a.type === 'OBJECT_STORAGE' && a.source === 'CLOUD_CONNECTOR' && a.label === 'conn-1'));
    const beyond = await asm('GET', '/api/beta/assets/inputAssets?pageNumber=99&pageSize=2');
    assert.deepEqual(beyond.json.assets, []);
    assertAsmError(await asm('GET', '/api/beta/assets/inputAssets?pageSize=0'), 400, 10050);
    assertAsmError(await asm('GET', '/api/beta/assets/inputAssets?pageNumber=0'), 400, 10051);
    const theirs = await asm('GET', '/api/beta/assets/inputAssets', { key: s.other.asmKey });
    assert.deepEqual([theirs.json.totalItems, theirs.json.totalPages, theirs.json.assets], [0, 0, []]);
  });

  test('asset counts and host counts by country, per environment', async () => {
    const hosts: Record<string, any>[] = [];
    for await (const batch of s.rt.store.documents.scan('hosts', 100)) for (const d of batch) if (!d.id.includes('+') && (d.doc as any).location?.country_code) hosts.push(d.doc);
    const chosen = hosts.slice(0, 6);
    await s.rt.store.asmAssets.apply(
      W,
      {
        upsert: chosen.map((h, i) =>
          asset(W, 'HOST', h.ip, {
            cloud: i < 2 ? 'Amazon AWS' : null,
            associatedAt: i % 2 ? '2025-06-01T00:00:00.000Z' : '2024-01-01T00:00:00.000Z',
            data: { ports: [{ port: 80, transportProtocol: 'TCP', protocol: 'HTTP', software: i < 3 ? ['cpe:2.3:a:f5:nginx:1.18.0'] : [], certificates: [] }] },
          }),
        ),
        remove: [],
      },
      [],
    );
    const all = await asm('GET', '/api/beta/assets/counts?since=2025-01-01&environment=ALL&assetType=HOST');
    assert.equal(all.status, 200, all.body);
    assert.equal(all.json.environment, 'ALL');
    assert.equal(all.json.newAssetsSince, '2025-01-01T00:00:00.000Z');
    assert.equal(all.json.totalCount, 6);
    assert.equal(all.json.totalNewCount, 3);
    assert.deepEqual(all.json.totalCountsBySubEnvironment, [
      { environment: 'CLOUD', totalCount: 2, totalNewCount: 1 },
      { environment: 'OTHER', totalCount: 4, totalNewCount: 2 },
      { environment: 'SHARED', totalCount: 0, totalNewCount: 0 },
    ]);
    const cloud = await asm('GET', '/api/beta/assets/counts?since=2025-01-01T00:00:00Z&environment=CLOUD&assetType=HOST');
    assert.deepEqual(cloud.json.totalCountsBySubEnvironment, [{ environment: 'Amazon AWS', totalCount: 2, totalNewCount: 1 }]);
    const software = await asm('GET', '/api/beta/assets/counts?assetType=SOFTWARE');
    assert.equal(software.json.totalCount, 2);
    const buckets = await asm('GET', '/api/beta/assets/counts?assetType=STORAGE_BUCKET&environment=CLOUD');
    assert.equal(buckets.json.totalCount, 3);
    assertAsmError(await asm('GET', '/api/beta/assets/counts?assetType=NOPE'), 400, 10008);
    assertAsmError(await asm('GET', '/api/beta/assets/counts?assetType=HOST&environment=MOON'), 400, 10008);
    assertAsmError(await asm('GET', '/api/beta/assets/counts?assetType=HOST&since=2025-02-30'), 400, 10078);

    const byCountry = await asm('GET', '/api/beta/assets/hostCountsByCountry?since=2025-01-01&environment=ALL');
    assert.equal(byCountry.status, 200, byCountry.body);
    assert.equal(byCountry.json.totalCount, 6);
    const flat = byCountry.json.totalCountsBySubEnvironment.flatMap((e: any) => e.totalCountsByCountry);
    assert.equal(flat.reduce((n: number, c: any) => n + c.totalCount, 0), 6);
    const expected = new Map<string, number>();
    for (const h of chosen) expected.set(h.location.country_code, (expected.get(h.location.country_code) ?? 0) + 1);
    const got = new Map<string, number>();
    for (const c of flat) got.set(c.countryCode, (got.get(c.countryCode) ?? 0) + c.totalCount);
    assert.deepEqual(got, expected);
    const theirs = await asm('GET', '/api/beta/assets/hostCountsByCountry', { key: s.other.asmKey });
    assert.equal(theirs.json.totalCount, 0);
  });

  test('user workspaces: a bare array; yourself, or anyone for an admin', async () => {
    const own = await asm('GET', `/api/beta/users/${s.other.user.id}/workspaces`, { key: s.other.asmKey });
    assert.equal(own.status, 200, own.body);
    assert.deepEqual(own.json, [{ workspace: W2, roles: ['user'] }]);
    assertAsmError(await asm('GET', `/api/beta/users/${s.admin.user.id}/workspaces`, { key: s.other.asmKey }), 403, 10006);
    assert.deepEqual((await asm('GET', `/api/beta/users/${s.other.user.id}/workspaces`)).json, [{ workspace: W2, roles: ['user'] }]);
    assert.deepEqual((await asm('GET', '/api/beta/users/no-such-user/workspaces')).json, []);
  });
});
