/**
 * Inventory search, aggregate and fields through the real app (contract §2B.8), over assets
 * written straight to the asset store so that every expected answer is known: paging until
 * nextCursor disappears (the newest client's loop), previousCursor, sort, fields, the query
 * language on prefixed fields, tags, errors in the inventory shape, and workspaces kept apart.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { asmCaller } from './asm-support.ts';
import type { Asset, AssetType } from '../../src/model/asm-asset.ts';

let s: TestServer;
const asm = asmCaller(() => s);
const AT = '2026-01-02T03:04:05.000Z';

let W: string;
let W2: string;
let hostDocs: Record<string, any>[];
let certIds: string[];

function asset(workspaceId: string, type: AssetType, assetId: string, data: Record<string, unknown> = {}, source = 'CENSYS_SCAN'): Asset {
  return { workspaceId, type, assetId, isSeed: false, source, associatedAt: AT, updatedAt: AT, trail: [], cloud: null, data };
}

before(async () => {
  s = await startTestServer({ hosts: 40, certificates: 10 });
  W = s.admin.user.workspaceId;
  W2 = s.other.user.workspaceId;
  const hosts: Record<string, any>[] = [];
  for await (const batch of s.rt.store.documents.scan('hosts', 100)) for (const d of batch) if (!d.id.includes('+')) hosts.push(d.doc);
  hostDocs = hosts.slice(0, 12);
  const certs: string[] = [];
  for await (const batch of s.rt.store.documents.scan('certificates', 100)) for (const d of batch) certs.push(d.id);
  certIds = certs.slice(0, 2);
  await s.rt.store.asmAssets.apply(
    W,
    {
      upsert: [
        ...hostDocs.map((h) => asset(W, 'HOST', h.ip, { ports: [] })),
        ...certIds.map((c) => asset(W, 'CERT', c)),
        asset(W, 'DOMAIN', 'example.com', { subdomains: ['www.example.com'] }),
        asset(W, 'SUBDOMAIN', 'www.example.com', { domain: 'example.com', resolvedHosts: [hostDocs[0].ip] }),
        asset(W, 'WEB_ENTITY', 'www.example.com:443', { name: 'www.example.com', port: 443, scheme: 'https', hosts: [hostDocs[0].ip] }),
        asset(W, 'STORAGE_BUCKET', 'https://bucket-a.s3.amazonaws.com', { provider: 'Amazon AWS', accountId: '1234' }, 'CLOUD_CONNECTOR'),
      ],
      remove: [],
    },
    [],
  );
  await s.rt.store.asmAssets.apply(W2, { upsert: [asset(W2, 'HOST', hosts[20].ip), asset(W2, 'DOMAIN', 'other.test')], remove: [] }, []);
  await s.rt.store.asmAnnotations.tagAsset(W, 'HOST', hostDocs[0].ip, 'prod', null, '#000000', AT);
  await s.rt.store.asmAnnotations.tagAsset(W2, 'HOST', hosts[20].ip, 'prod', null, '#000000', AT);
});
after(async () => {
  await s?.close();
});

const TOTAL = () => 12 + 2 + 1 + 1 + 1 + 1;

function assertInventoryError(r: { status: number; json: any }, status: number, pattern?: RegExp): void {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.deepEqual(Object.keys(r.json).sort(), ['details', 'error', 'statusCode']);
  assert.equal(r.json.statusCode, status);
  assert.ok(Array.isArray(r.json.details));
  if (pattern) assert.match(r.json.error, pattern);
}

function qs(params: Record<string, string | number | string[] | undefined>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) u.append(k, String(x));
  }
  return u.toString();
}

/** The newest client's loop: same params plus cursor while nextCursor is truthy. */
async function all(params: Record<string, string | number | string[] | undefined>, key?: string): Promise<{ hits: any[]; pages: number; total: number }> {
  const hits: any[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let total = -1;
  for (;;) {
    const r = await asm('GET', `/api/inventory/v1?${qs({ ...params, cursor })}`, key ? { key } : {});
    assert.equal(r.status, 200, r.body);
    pages++;
    assert.ok(pages < 100, 'paging terminates');
    if (total >= 0) assert.equal(r.json.totalHits, total);
    total = r.json.totalHits;
    assert.equal(typeof r.json.queryDurationMillis, 'number');
    hits.push(...r.json.hits);
    if (!r.json.nextCursor) {
      assert.equal('nextCursor' in r.json, false, 'the last page omits nextCursor');
      break;
    }
    cursor = r.json.nextCursor;
  }
  return { hits, pages, total };
}

const ipKey = (ip: string) => ip.split('.').map((p) => p.padStart(3, '0')).join('.');

describe('search', () => {
  test('pages through every asset of the workspace exactly once, hosts first in address order', async () => {
    const { hits, pages, total } = await all({ workspaces: [W], pageSize: 5 });
    assert.equal(total, TOTAL());
    assert.equal(hits.length, TOTAL());
    assert.equal(pages, Math.ceil(TOTAL() / 5));
    const ids = hits.map((h) => h.asset_id);
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(hits.map((h) => h.type), [...Array(12).fill('HOST'), 'DOMAIN', 'DOMAIN', 'CERT', 'CERT', 'WEB_ENTITY', 'STORAGE_BUCKET']);
    const hostIps = hits.slice(0, 12).map((h) => h.host.ip);
    assert.deepEqual(hostIps, [...hostDocs.map((h) => h.ip)].sort((a, b) => (ipKey(a) < ipKey(b) ? -1 : 1)));
    for (const h of hits) {
      assert.deepEqual(h._details, {});
      const key = { HOST: 'host', CERT: 'cert', DOMAIN: 'domain', WEB_ENTITY: 'web_entity', STORAGE_BUCKET: 'storage_bucket' }[h.type as string]!;
      assert.ok(h[key] && typeof h[key] === 'object', `${h.type} hit has ${key}`);
    }
    const host0 = hits.find((h) => h.asset_id === hostDocs[0].ip);
    assert.deepEqual(host0.host.services, hostDocs[0].services);
    assert.deepEqual(host0.tags, ['prod']);
    assert.equal(hits.find((h) => h.type === 'CERT').cert.fingerprint_sha256, certIds[0]);
  });

  test('one page of 50 (the default) holds everything and has no nextCursor', async () => {
    const r = await asm('GET', `/api/inventory/v1?workspaces=${W}`);
    assert.equal(r.status, 200);
    assert.equal(r.json.hits.length, TOTAL());
    assert.equal(r.json.nextCursor, undefined);
    assert.equal(r.json.previousCursor, undefined);
    // Without workspaces the caller's own is searched.
    assert.equal((await asm('GET', '/api/inventory/v1')).json.totalHits, TOTAL());
  });

  test('previousCursor walks back to the page before', async () => {
    const p1 = await asm('GET', `/api/inventory/v1?${qs({ workspaces: W, pageSize: 4 })}`);
    const p2 = await asm('GET', `/api/inventory/v1?${qs({ workspaces: W, pageSize: 4, cursor: p1.json.nextCursor })}`);
    assert.ok(p2.json.previousCursor);
    const back = await asm('GET', `/api/inventory/v1?${qs({ workspaces: W, pageSize: 4, cursor: p2.json.previousCursor })}`);
    assert.deepEqual(back.json.hits.map((h: any) => h.asset_id), p1.json.hits.map((h: any) => h.asset_id));
  });

  test('the query language on prefixed fields', async () => {
    const withSsh = hostDocs.filter((h) => (h.services ?? []).some((x: any) => x.port === 22)).map((h) => h.ip).sort();
    const ssh = await all({ workspaces: [W], query: 'host.services.port: 22' });
    assert.deepEqual(ssh.hits.map((h) => h.asset_id).sort(), withSsh);
    const country = hostDocs[0].location?.country_code;
    if (country) {
      const expected = hostDocs.filter((h) => h.location?.country_code === country).length;
      assert.equal((await all({ workspaces: [W], query: `host.location.country_code: "${country}"` })).total, expected);
    }
    const nested = hostDocs.filter((h) => (h.services ?? []).some((x: any) => x.port === 80 && x.service_name === 'HTTP')).length;
    assert.equal((await all({ query: 'host.services: (port: 80 and service_name: HTTP)' })).total, nested);
    assert.deepEqual((await all({ query: 'domain: example.com' })).hits.map((h) => h.asset_id), ['example.com']);
    assert.deepEqual((await all({ query: 'domain.is_subdomain: true' })).hits.map((h) => h.domain.parent_domain), ['example.com']);
    assert.deepEqual((await all({ query: 'tags: prod' })).hits.map((h) => h.asset_id), [hostDocs[0].ip]);
    assert.deepEqual((await all({ query: 'source: CLOUD_CONNECTOR' })).hits.map((h) => h.storage_bucket.provider), ['Amazon AWS']);
    assert.deepEqual((await all({ query: 'web_entity.port: 443 and type: WEB_ENTITY' })).hits.map((h) => h.asset_id), ['www.example.com:443']);
    assert.equal((await all({ query: `cert.fingerprint_sha256: ${certIds[1]}` })).total, 1);
    assert.equal((await all({ query: 'type: HOST and not tags: prod' })).total, 11);
    assert.equal((await all({ query: 'risks: *' })).total, 0);
  });

  test('sort and fields', async () => {
    const desc = await all({ sort: ['host.ip:desc'], pageSize: 7 });
    assert.deepEqual(desc.hits.slice(0, 12).map((h) => h.asset_id), [...hostDocs.map((h) => h.ip)].sort((a, b) => (ipKey(a) < ipKey(b) ? 1 : -1)));
    assert.equal(desc.hits.length, TOTAL());
    const minus = await all({ sort: ['-host.ip'], pageSize: 7 });
    assert.deepEqual(minus.hits.map((h) => h.asset_id), desc.hits.map((h) => h.asset_id));
    const projected = await asm('GET', `/api/inventory/v1?${qs({ query: 'type: HOST', fields: ['host.ip', 'tags'], pageSize: 2 })}`);
    for (const h of projected.json.hits) {
      assert.deepEqual(Object.keys(h).sort(), h.tags ? ['_details', 'host', 'tags', 'type'] : ['_details', 'host', 'type']);
      assert.deepEqual(Object.keys(h.host), ['ip']);
    }
  });

  test('errors in the inventory shape', async () => {
    assertInventoryError(await asm('GET', `/api/inventory/v1?${qs({ query: 'host.services.port: (22' })}`), 400, /Invalid query/);
    assertInventoryError(await asm('GET', `/api/inventory/v1?${qs({ query: 'services.port: 22' })}`), 400, /Unknown field/);
    assertInventoryError(await asm('GET', `/api/inventory/v1?${qs({ sort: 'host.nope' })}`), 400, /sort field/);
    assertInventoryError(await asm('GET', `/api/inventory/v1?${qs({ fields: ['host.nope'] })}`), 400, /Invalid field/);
    assertInventoryError(await asm('GET', `/api/inventory/v1?pageSize=0`), 400);
    assertInventoryError(await asm('GET', `/api/inventory/v1?pageSize=1001`), 400);
    assertInventoryError(await asm('GET', `/api/inventory/v1?pageSize=x`), 400);
    const p1 = await asm('GET', `/api/inventory/v1?${qs({ pageSize: 2, query: 'type: HOST' })}`);
    const c = p1.json.nextCursor as string;
    const flipped = c.slice(0, 10) + (c[10] === 'A' ? 'B' : 'A') + c.slice(11);
    assertInventoryError(await asm('GET', `/api/inventory/v1?${qs({ pageSize: 2, query: 'type: HOST', cursor: flipped })}`), 400, /cursor/i);
    assertInventoryError(await asm('GET', `/api/inventory/v1?${qs({ pageSize: 2, query: 'type: CERT', cursor: c })}`), 400, /different query/);
    assertInventoryError(await asm('GET', `/api/inventory/v1?${qs({ cursor: 'not a cursor!' })}`), 400, /cursor/i);
  });

  test('workspaces: only the caller’s; another key sees only its own assets', async () => {
    assertInventoryError(await asm('GET', `/api/inventory/v1?${qs({ workspaces: W2 })}`), 403);
    assertInventoryError(await asm('GET', `/api/inventory/v1?${qs({ workspaces: [W, W2] })}`), 403);
    const theirs = await all({ workspaces: [W2] }, s.other.asmKey);
    assert.deepEqual(theirs.hits.map((h) => h.type).sort(), ['DOMAIN', 'HOST']);
    assert.equal((await all({ query: 'domain: other.test' })).total, 0);
    assert.equal((await all({ query: 'tags: prod' }, s.other.asmKey)).total, 1);
    assertInventoryError(await asm('GET', `/api/inventory/v1?${qs({ workspaces: W })}`, { key: s.other.asmKey }), 403);
  });
});

describe('aggregate', () => {
  const agg = (body: unknown, key?: string) => asm('POST', '/api/inventory/v1/aggregate', { body, ...(key ? { key } : {}) });

  test('term over every asset, with the total and omitted counts', async () => {
    const r = await agg({ workspaces: [W], query: null, aggregation: { term: { field: 'type', numberOfBuckets: 2 } } });
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json.totalHits, TOTAL());
    assert.deepEqual(r.json.aggregation, {
      term: { field: 'type', total: TOTAL(), totalOmitted: 4, buckets: [{ key: 'HOST', count: 12 }, { key: 'CERT', count: 2 }] },
    });
  });

  test('nested counts per service, with a term inside, and reverseNested back to hosts', async () => {
    const services = hostDocs.flatMap((h) => h.services ?? []);
    const byName = new Map<string, number>();
    for (const sv of services) byName.set(sv.service_name, (byName.get(sv.service_name) ?? 0) + 1);
    const r = await agg({
      query: 'type: HOST',
      aggregation: {
        nested: { path: 'host.services', aggregation: { term: { field: 'host.services.service_name', numberOfBuckets: 1000, aggregation: { reverseNested: {} } } } },
      },
    });
    assert.equal(r.status, 200, r.body);
    const nested = r.json.aggregation.nested;
    assert.equal(nested.count, services.length);
    const buckets = nested.aggregation.term.buckets as { key: string; count: number; aggregation: any }[];
    assert.deepEqual(new Map(buckets.map((b) => [b.key, b.count])), byName);
    for (const b of buckets) {
      const hostsWith = hostDocs.filter((h) => (h.services ?? []).some((x: any) => x.service_name === b.key)).length;
      assert.equal(b.aggregation.reverseNested.count, hostsWith, b.key);
    }
  });

  test('cardinality, filter, rareTerm, and a child beside the kind', async () => {
    const r = await agg({ aggregation: { filter: { query: 'type: HOST' }, aggregation: { cardinality: { field: 'host.services.port' } } } });
    assert.equal(r.status, 200, r.body);
    const ports = new Set(hostDocs.flatMap((h) => (h.services ?? []).map((x: any) => String(x.port))));
    assert.deepEqual(r.json.aggregation, { filter: { query: 'type: HOST', count: 12, aggregation: { cardinality: { field: 'host.services.port', value: ports.size } } } });
    const rare = await agg({ aggregation: { rareTerm: { field: 'type', maxCount: 1 } } });
    assert.deepEqual(rare.json.aggregation.rareTerm.buckets, [
      { key: 'STORAGE_BUCKET', count: 1 },
      { key: 'WEB_ENTITY', count: 1 },
    ]);
    const none = await agg({ query: 'tags: prod' });
    assert.deepEqual(none.json.aggregation, null);
    assert.equal(none.json.totalHits, 1);
  });

  test('bad aggregations, queries and workspaces', async () => {
    assertInventoryError(await agg({ aggregation: { term: { field: 'host.nope' } } }), 400, /unknown field/);
    assertInventoryError(await agg({ aggregation: { term: { field: 'type', numberOfBuckets: 0 } } }), 400, /numberOfBuckets/);
    assertInventoryError(await agg({ aggregation: { term: { field: 'type' }, cardinality: { field: 'type' } } }), 400, /exactly one/);
    assertInventoryError(await agg({ aggregation: { histogram: {} } }), 400);
    assertInventoryError(await agg({ aggregation: { nested: { path: 'host.location' } } }), 400, /path/);
    assertInventoryError(await agg({ aggregation: { filter: { query: 'a: (' } } }), 400);
    assertInventoryError(await agg({ aggregation: 'term' }), 400);
    assertInventoryError(await agg({ query: 'type: (' }), 400, /Invalid query/);
    assertInventoryError(await agg({ workspaces: [W2] }), 403);
    const deep = { term: { field: 'type', aggregation: { term: { field: 'type', aggregation: { term: { field: 'type', aggregation: { term: { field: 'type', aggregation: { term: { field: 'type', aggregation: { cardinality: { field: 'type' } } } } } } } } } } } };
    assertInventoryError(await agg({ aggregation: deep }), 400, /nest/);
    const theirs = await agg({ aggregation: { term: { field: 'type' } } }, s.other.asmKey);
    assert.deepEqual(theirs.json.aggregation.term.buckets, [{ key: 'DOMAIN', count: 1 }, { key: 'HOST', count: 1 }]);
  });
});

describe('fields', () => {
  test('every field, or those named by path or prefix', async () => {
    const r = await asm('GET', '/api/inventory/v1/fields');
    assert.equal(r.status, 200);
    const byPath = new Map<string, any>(r.json.fields.map((f: any) => [f.path, f]));
    for (const f of r.json.fields) assert.deepEqual(Object.keys(f).sort(), ['description', 'path', 'repeated', 'type']);
    assert.deepEqual({ ...byPath.get('host.services.port'), description: '' }, { path: 'host.services.port', type: 'int', description: '', repeated: true });
    assert.equal(byPath.get('host.ip').repeated, false);
    for (const p of ['domain.name', 'cert.fingerprint_sha256', 'web_entity.port', 'storage_bucket.url', 'tags', 'risks', 'source', 'type']) assert.ok(byPath.has(p), p);
    const some = await asm('GET', '/api/inventory/v1/fields?fields=host.services.port&fields=host.location');
    const paths = some.json.fields.map((f: any) => f.path);
    assert.equal(paths[0], 'host.services.port');
    assert.ok(paths.length > 2 && paths.slice(1).every((p: string) => p.startsWith('host.location.')));
    assertInventoryError(await asm('GET', '/api/inventory/v1/fields?fields=host.nope'), 400, /Unknown field/);
  });
});

describe('the newest client and CLI request shapes', () => {
  test('InventorySearch.search(): account first, then pages with the same params plus cursor', async () => {
    const account = await asm('GET', '/api/integrations/v1/account');
    const ws = account.json.workspaceId;
    assert.equal(ws, W);
    // pages=-1: loop while nextCursor; query/sort/fields only when given.
    const { hits, pages, total } = await all({ workspaces: [ws], pageSize: 3, query: 'type: HOST', sort: ['host.ip'], fields: ['host.ip'] });
    assert.equal(total, 12);
    assert.equal(pages, 4);
    assert.deepEqual(hits.map((h) => h.host.ip), [...hostDocs.map((h) => h.ip)].sort((a, b) => (ipKey(a) < ipKey(b) ? -1 : 1)));
  });

  test('asm execute-saved-query-by-name: list by prefix with pageSize=1, then search with results[0].query', async () => {
    const saved = await asm('POST', '/api/inventory/v1/saved-query', { body: { queryName: 'tagged prod', query: 'tags: prod' } });
    assert.equal(saved.status, 200, saved.body);
    const found = await asm('GET', `/api/inventory/v1/saved-query?${qs({ queryNamePrefix: 'tagged prod', pageSize: 1, page: 1 })}`);
    const query = found.json.results[0].query;
    const ws = (await asm('GET', '/api/integrations/v1/account')).json.workspaceId;
    const r = await all({ workspaces: [ws], pageSize: 50, query });
    assert.deepEqual(r.hits.map((h) => h.asset_id), [hostDocs[0].ip]);
    // execute-saved-query-by-id: get, then search.
    const byId = await asm('GET', `/api/inventory/v1/saved-query/${saved.json.result.queryId}`);
    assert.equal((await all({ workspaces: [ws], query: byId.json.result.query })).total, 1);
  });
});

describe('risks', () => {
  test('open risk instances are searchable and aggregatable; resolved ones are not', async () => {
    const base = {
      identity: '',
      assetType: 'HOST' as const,
      context: {},
      title: 't',
      evidence: {},
      cloud: null,
      firstComputedAt: AT,
      lastComputedAt: AT,
    };
    await s.rt.store.asmRisks.write(
      W,
      {
        insert: [
          { ...base, identity: 'a', typeId: 'service.database.mysql_exposed', assetId: hostDocs[1].ip, severity: 'high', status: 'open', resolvedAt: null },
          { ...base, identity: 'b', typeId: 'tls.certificate.expired', assetId: hostDocs[1].ip, severity: 'high', status: 'open', resolvedAt: null },
          { ...base, identity: 'c', typeId: 'service.database.mysql_exposed', assetId: hostDocs[2].ip, severity: 'high', status: 'resolved', resolvedAt: AT },
        ],
        update: [],
      },
      [],
      AT,
    );
    assert.deepEqual((await all({ query: 'risks: service.database.mysql_exposed' })).hits.map((h) => h.asset_id), [hostDocs[1].ip]);
    assert.equal((await all({ query: 'risks.name: "Expired certificate" and risks.severity: high' })).total, 1);
    assert.equal((await all({ query: 'risks.categories: Certificates' })).total, 1);
    const hit = (await all({ query: `host.ip: ${hostDocs[1].ip}` })).hits[0];
    assert.deepEqual(hit.risks.map((r: any) => r.type).sort(), ['service.database.mysql_exposed', 'tls.certificate.expired']);
    const agg = await asm('POST', '/api/inventory/v1/aggregate', { body: { aggregation: { term: { field: 'risks' } } } });
    assert.deepEqual(agg.json.aggregation.term.buckets, [
      { key: 'service.database.mysql_exposed', count: 1 },
      { key: 'tls.certificate.expired', count: 1 },
    ]);
    // Another workspace's risks stay there.
    assert.equal((await all({ query: 'risks: *' }, s.other.asmKey)).total, 0);
  });
});

describe('freshness', () => {
  test('a new search sees writes made while another loop pages; the loop still sees every asset once', async () => {
    const p1 = await asm('GET', `/api/inventory/v1?${qs({ pageSize: 5 })}`);
    await s.rt.store.asmAnnotations.tagAsset(W, 'HOST', hostDocs[5].ip, 'late', null, '#000000', AT);
    assert.deepEqual((await all({ query: 'tags: late' })).hits.map((h) => h.asset_id), [hostDocs[5].ip]);
    const rest: string[] = [];
    let cursor = p1.json.nextCursor;
    while (cursor) {
      const r = await asm('GET', `/api/inventory/v1?${qs({ pageSize: 5, cursor })}`);
      rest.push(...r.json.hits.map((h: any) => h.asset_id));
      cursor = r.json.nextCursor;
    }
    const ids = [...p1.json.hits.map((h: any) => h.asset_id), ...rest];
    assert.equal(ids.length, TOTAL());
    assert.equal(new Set(ids).size, TOTAL());
  });
});

describe('OpenAPI', () => {
  test('inventory, saved-query, clouds and beta routes are documented with the key credential', async () => {
    const r = await s.app.inject({ method: 'GET', url: '/api/openapi.json' });
    assert.equal(r.statusCode, 200);
    const doc = JSON.parse(r.body);
    for (const path of [
      '/inventory/v1',
      '/inventory/v1/aggregate',
      '/inventory/v1/fields',
      '/inventory/v1/saved-query',
      '/inventory/v1/saved-query/{queryId}',
      '/v1/clouds/hostCounts/{since}',
      '/v1/clouds/unknownCounts',
      '/beta/logbook/getLogbookData',
      '/beta/cloudConnector/addCloudAssets',
      '/beta/assets/inputAssets',
      '/beta/assets/counts',
      '/beta/assets/hostCountsByCountry',
      '/beta/users/{userUuid}/workspaces',
    ]) {
      assert.ok(doc.paths[path], path);
    }
    assert.deepEqual(doc.paths['/inventory/v1'].get.security, [{ asmApiKey: [] }]);
  });

  test('aggregate accepts null workspaces, query and aggregation (2.1.9 sends them)', async () => {
    const r = await asm('POST', '/api/inventory/v1/aggregate', { body: { workspaces: null, query: null, aggregation: null } });
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json.aggregation, null);
  });
});
