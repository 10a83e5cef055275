/**
 * The asset collections of the ASM API through the real app (contract §2B.3): shapes of every
 * family, page-number paging and its termination rules, tag and source filters, discovery trails,
 * the subdomain paths of both client versions, web-entity instances, object storages, and
 * workspace isolation. Comments and tags are in asm-assets-annotations.test.ts.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { asmCaller, isAsmError } from './asm-support.ts';
import { BUCKET, BULK_HOSTS, HOST_A, HOST_B, SHA_A, SHA_B, loadFixture } from './asm-assets-fixture.ts';

let s: TestServer;
const asm = asmCaller(() => s);
const BASE = 'http://localhost:80/api';

before(async () => {
  s = await startTestServer({ hosts: 5, certificates: 3 });
  await s.rt.store.seeds.add(s.admin.user.workspaceId, [{ type: 'DOMAIN_NAME', value: 'example.com', label: 'fixture' }], 'API', '2026-10-01T00:00:00.000Z');
  await loadFixture(s.rt.store, s.admin.user.workspaceId);
});
after(async () => {
  await s?.close();
});

function assertAsmError(r: { status: number; json: any }, status: number, errorCode: number): void {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.ok(isAsmError(r.json), JSON.stringify(r.json));
  assert.equal(r.json.errorCode, errorCode, JSON.stringify(r.json));
}

/** What the censys-python `_get_page` loop does: next = pageNumber + 1 until it passes totalPages. */
async function walk(path: string, pageSize: number, keyword = 'assets', key = s.admin.asmKey): Promise<{ items: any[]; requests: number }> {
  let page = 1;
  let total = Infinity;
  const items: any[] = [];
  let requests = 0;
  while (page <= total) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await asm('GET', `${path}${sep}pageNumber=${page}&pageSize=${pageSize}`, { key });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    requests++;
    assert.ok(requests < 100, 'the paging loop must end');
    assert.equal(r.json.pageNumber, page, 'pageNumber is echoed');
    assert.equal(r.json.pageSize, pageSize);
    page = Number(r.json.pageNumber) + 1;
    total = Number(r.json.totalPages);
    items.push(...r.json[keyword]);
  }
  return { items, requests };
}

describe('hosts', () => {
  test('a host with its document: the exact §2B.3 shape', async () => {
    const r = await asm('GET', `/api/v1/assets/hosts/${HOST_A}`);
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(Object.keys(r.json).sort(), ['assetId', 'associatedAt', 'comments', 'data', 'discoveryTrail', 'isSeed', 'risks', 'source', 'tags', 'type']);
    assert.equal(r.json.assetId, HOST_A);
    assert.equal(r.json.type, 'HOST');
    assert.equal(r.json.isSeed, false);
    assert.equal(r.json.source, 'CENSYS_SCAN');
    assert.deepEqual(r.json.risks, []);
    assert.deepEqual(r.json.comments, { totalComments: 0, refUrl: `${BASE}/v1/assets/hosts/${HOST_A}/comments` });
    const d = r.json.data;
    assert.deepEqual(Object.keys(d).sort(), ['asn', 'cdn', 'classifications', 'cloud', 'ipAddress', 'location', 'names', 'protocols']);
    assert.equal(d.ipAddress, HOST_A);
    assert.deepEqual(d.names, {
      forwardDns: [{ name: 'www.example.com', resolvedAt: '2026-10-20T10:00:00.000Z' }],
      reverseDns: [{ name: 'host-a.example.net', resolvedAt: '2026-10-21T10:00:00.000Z' }],
    });
    assert.equal(d.asn, 64500);
    assert.equal(d.cloud, 'Amazon AWS');
    assert.deepEqual(d.location, { countryCode: 'US', province: 'Ohio', latitude: 40.1, longitude: -83.2 });
    assert.deepEqual(d.cdn, []);
    assert.deepEqual(d.classifications, ['remote-access']);
    assert.deepEqual(
      d.protocols.map((p: any) => [p.port, p.transportProtocol, p.protocol]),
      [
        [22, 'TCP', 'SSH'],
        [443, 'TCP', 'HTTPS'],
      ],
    );
    const https = d.protocols[1];
    assert.deepEqual(Object.keys(https).sort(), ['base64EncodedBanner', 'certificates', 'port', 'protocol', 'software', 'transportProtocol']);
    assert.equal(Buffer.from(https.base64EncodedBanner, 'base64').toString(), 'HTTP/1.1 200 OK\r\nServer: nginx/1.18.0\r\n');
    assert.deepEqual(https.certificates, [{ sha256: SHA_A, refUrl: `${BASE}/v1/assets/certificates/${SHA_A}` }]);
    assert.deepEqual(https.software, [
      { name: 'nginx', version: '1.18.0', uri: 'cpe:2.3:a:f5:nginx:1.18.0:*:*:*:*:*:*:*', part: 'a', vendor: 'f5', product: 'nginx', isEol: true },
    ]);
    assert.equal(d.protocols[0].software[0].isEol, false);
    assert.equal(d.protocols[0].base64EncodedBanner, null);
    // A get always carries the trail, with links to the assets it passes through.
    assert.deepEqual(r.json.discoveryTrail, [
      { type: 'DOMAIN_NAME', assetId: 'example.com', isSeed: true, refUrl: `${BASE}/v1/assets/domains/example.com` },
      { type: 'DOMAIN_NAME', assetId: 'www.example.com', isSeed: false, refUrl: `${BASE}/v1/assets/domains/www.example.com` },
    ]);
  });

  test('a host whose document is gone is shown from the facts discovery kept', async () => {
    const r = await asm('GET', '/api/v1/assets/hosts/198.51.100.1');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.data.protocols, [{ transportProtocol: 'TCP', port: 80, protocol: 'HTTP', base64EncodedBanner: null, software: [], certificates: [] }]);
    assert.deepEqual(r.json.data.location, { countryCode: null, province: null, latitude: null, longitude: null });
    assert.equal(r.json.data.asn, null);
  });

  test('not found 10018, not an IP 10021', async () => {
    assertAsmError(await asm('GET', '/api/v1/assets/hosts/192.0.2.99'), 404, 10018);
    assertAsmError(await asm('GET', '/api/v1/assets/hosts/not-an-ip'), 422, 10021);
    assertAsmError(await asm('GET', '/api/v1/assets/hosts/300.1.1.1'), 422, 10021);
    assertAsmError(await asm('GET', '/api/v1/assets/hosts/300.1.1.1/comments'), 422, 10021);
    assertAsmError(await asm('POST', '/api/v1/assets/hosts/192.0.2.99/tags', { body: { name: 'x' } }), 404, 10018);
  });

  test('paging: every host once, across pages, ending on the last page', async () => {
    const { items, requests } = await walk('/api/v1/assets/hosts', 5);
    const total = BULK_HOSTS + 2;
    assert.equal(items.length, total);
    assert.equal(new Set(items.map((a) => a.assetId)).size, total);
    assert.equal(requests, Math.ceil(total / 5));
    // Byte order of ids, as the store lists.
    assert.deepEqual(
      items.map((a) => a.assetId),
      [...items.map((a) => a.assetId)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
    );
    assert.ok(items.every((a) => !('discoveryTrail' in a)), 'no trail unless asked');
    const first = await asm('GET', '/api/v1/assets/hosts?pageNumber=1&pageSize=5');
    assert.deepEqual(
      { ...first.json, assets: undefined },
      { pageNumber: 1, pageSize: 5, totalPages: Math.ceil(total / 5), totalItems: total, assets: undefined },
    );
  });

  test('defaults: page 1 of 500; a float-looking page number is accepted', async () => {
    const r = await asm('GET', '/api/v1/assets/hosts');
    assert.equal(r.json.pageNumber, 1);
    assert.equal(r.json.pageSize, 500);
    assert.equal(r.json.totalPages, 1);
    const f = await asm('GET', '/api/v1/assets/hosts?pageNumber=2.0&pageSize=5');
    assert.equal(f.json.pageNumber, 2);
  });

  test('paging errors: 10050 page size, 10051 out of range, 10008 not a number', async () => {
    for (const size of ['0', '-1', '1001', 'abc', '1.5']) assertAsmError(await asm('GET', `/api/v1/assets/hosts?pageSize=${size}`), 400, 10050);
    assertAsmError(await asm('GET', '/api/v1/assets/hosts?pageNumber=99&pageSize=500'), 400, 10051);
    assertAsmError(await asm('GET', '/api/v1/assets/hosts?pageNumber=0'), 400, 10051);
    assertAsmError(await asm('GET', '/api/v1/assets/hosts?pageNumber=x'), 400, 10008);
  });

  test('discoveryTrail=True adds the trail to list items; False leaves it out', async () => {
    const r = await asm('GET', '/api/v1/assets/hosts?pageSize=3&discoveryTrail=True');
    assert.deepEqual(r.json.assets[0].discoveryTrail, [{ type: 'CIDR', assetId: '198.51.100.0/24', isSeed: true, refUrl: null }]);
    const f = await asm('GET', '/api/v1/assets/hosts?pageSize=3&discoveryTrail=False');
    assert.ok(!('discoveryTrail' in f.json.assets[0]));
    assertAsmError(await asm('GET', '/api/v1/assets/hosts?discoveryTrail=maybe'), 400, 10008);
  });

  test('source filter (repeated key, any casing)', async () => {
    const seeds = await asm('GET', '/api/v1/assets/domains?source=Seed');
    assert.deepEqual(seeds.json.assets.map((a: any) => a.assetId), ['example.com', 'example.org']);
    const both = await asm('GET', '/api/v1/assets/hosts?source=seed&source=censys_scan&pageSize=1');
    assert.equal(both.json.totalItems, BULK_HOSTS + 2);
    const none = await asm('GET', '/api/v1/assets/hosts?source=CLOUD_CONNECTOR');
    assert.deepEqual(none.json, { pageNumber: 1, pageSize: 500, totalPages: 0, totalItems: 0, assets: [] });
  });
});

describe('tag filters', () => {
  before(async () => {
    for (const [ip, name] of [
      [HOST_A, 'prod'],
      [HOST_B, 'Production-EU'],
      ['198.51.100.1', 'staging'],
    ] as const) {
      assert.equal((await asm('POST', `/api/v1/assets/hosts/${ip}/tags`, { body: { name } })).status, 200);
    }
  });

  const ids = async (query: string) => (await asm('GET', `/api/v1/assets/hosts?${query}`)).json.assets.map((a: any) => a.assetId);

  test('is (default), is not, contains, not contains; several tags are alternatives', async () => {
    assert.deepEqual(await ids('tag=prod'), [HOST_A]);
    assert.deepEqual(await ids('tag=PROD&tagOperator=is'), [HOST_A]);
    assert.deepEqual(await ids('tag=prod&tag=staging'), ['198.51.100.1', HOST_A]);
    assert.deepEqual(await ids('tag=prod&tagOperator=contains'), [HOST_A, HOST_B]);
    const notProd = await ids('tag=prod&tagOperator=is%20not');
    assert.equal(notProd.length, BULK_HOSTS + 1);
    assert.ok(!notProd.includes(HOST_A));
    const notContains = await ids('tag=prod&tagOperator=not+contains');
    assert.equal(notContains.length, BULK_HOSTS);
    assert.deepEqual(await ids('tag=nothing-like-this'), []);
    // Tags filter per family: the host's tag does not select certificates.
    assert.deepEqual((await asm('GET', '/api/v1/assets/certificates?tag=prod')).json.assets, []);
  });

  test('tags with paging: totals are of the filtered set', async () => {
    const r = await asm('GET', '/api/v1/assets/hosts?tag=prod&tagOperator=not%20contains&pageSize=10&pageNumber=3');
    assert.equal(r.json.totalItems, BULK_HOSTS);
    assert.equal(r.json.totalPages, Math.ceil(BULK_HOSTS / 10));
    assert.equal(r.json.assets.length, BULK_HOSTS - 20);
  });

  test('an unknown operator is 10008', async () => {
    assertAsmError(await asm('GET', '/api/v1/assets/hosts?tag=prod&tagOperator=like'), 400, 10008);
  });
});

describe('certificates', () => {
  test('the certificate shape from its document and its hosts', async () => {
    const r = await asm('GET', `/api/v1/assets/certificates/${SHA_A.toUpperCase()}`);
    assert.equal(r.status, 200, r.body);
    // The spec's certificate schema has neither source nor associatedAt.
    assert.deepEqual(Object.keys(r.json).sort(), ['assetId', 'comments', 'data', 'discoveryTrail', 'isSeed', 'risks', 'tags', 'type']);
    assert.equal(r.json.assetId, SHA_A);
    assert.equal(r.json.type, 'CERT');
    assert.deepEqual(r.json.data, {
      certId: parseInt(SHA_A.slice(0, 12), 16),
      sha256: SHA_A,
      isInUse: true,
      ownershipStatus: 'OWNED_BY',
      isValid: true,
      isSelfSigned: false,
      issuerName: 'Example Trust',
      hostsPresentingCert: [{ assetId: HOST_A, port: 443, refUrl: `${BASE}/v1/assets/hosts/${HOST_A}`, lastSeenAt: '2026-10-25T08:00:00.000Z' }],
      expirationDate: '2030-01-01T00:00:00Z',
      namesListedOnCert: ['example.com', 'www.example.com'],
      publicKey: { algorithmName: 'RSA', length: 2048, exponent: 65537, curve: null },
      browserTrust: { apple: true, google: true, microsoft: true, publicKeyType: 'RSA', subjectDn: 'CN=www.example.com' },
    });
  });

  test('a certificate without its document, and the list', async () => {
    const b = await asm('GET', `/api/v1/assets/certificates/${SHA_B}`);
    assert.equal(b.json.data.isInUse, false);
    assert.equal(b.json.data.ownershipStatus, 'OWNED_BY');
    assert.deepEqual(b.json.data.namesListedOnCert, ['old.example.com']);
    const list = await asm('GET', '/api/v1/assets/certificates');
    assert.deepEqual(list.json.assets.map((a: any) => a.assetId), [SHA_A, SHA_B]);
    assert.equal(list.json.totalItems, 2);
  });

  test('not found, and ids that are no SHA-256: 10020', async () => {
    assertAsmError(await asm('GET', `/api/v1/assets/certificates/${'c'.repeat(64)}`), 404, 10020);
    assertAsmError(await asm('GET', '/api/v1/assets/certificates/xyz'), 404, 10020);
  });
});

describe('domains and subdomains', () => {
  test('a domain', async () => {
    const r = await asm('GET', '/api/v1/assets/domains/Example.COM');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.json).sort(), ['assetId', 'comments', 'data', 'discoveryTrail', 'isSeed', 'risks', 'source', 'tags', 'type']);
    assert.equal(r.json.isSeed, true);
    assert.equal(r.json.source, 'Seed');
    assert.deepEqual(r.json.data, { domain: 'example.com', nameServers: [], mailServers: [], registration: {} });
    assert.deepEqual(r.json.discoveryTrail, []);
    assertAsmError(await asm('GET', '/api/v1/assets/domains/nope.example'), 404, 10019);
    assertAsmError(await asm('GET', '/api/v1/assets/domains/bad_domain!'), 404, 10019);
  });

  test("2.1.9: a domain's subdomains, paged, in the list-item shape", async () => {
    const { items } = await walk('/api/v1/assets/domains/example.com/subdomains', 1, 'subdomains');
    assert.deepEqual(items.map((x) => x.subdomain), ['api.example.com', 'www.example.com']);
    const www = items[1];
    assert.deepEqual(Object.keys(www).sort(), ['resolvedHosts', 'subdomain', 'tags']);
    assert.deepEqual(www.resolvedHosts, [{ ipAddress: HOST_A, resolvedAt: '2026-10-20T10:00:00.000Z', refUrl: `${BASE}/v1/assets/hosts/${HOST_A}` }]);
    const trail = await asm('GET', '/api/v1/assets/domains/example.com/subdomains?discoveryTrail=True');
    assert.ok(trail.json.subdomains.every((x: any) => Array.isArray(x.discoveryTrail)));
    const empty = await asm('GET', '/api/v1/assets/domains/example.org/subdomains?pageNumber=1&pageSize=500');
    assert.deepEqual(empty.json, { pageNumber: 1, pageSize: 500, totalPages: 1, totalItems: 1, subdomains: empty.json.subdomains });
    assert.deepEqual(empty.json.subdomains.map((x: any) => x.subdomain), ['mail.example.org']);
    assertAsmError(await asm('GET', '/api/v1/assets/domains/nope.example/subdomains'), 404, 10019);
  });

  test('2.1.9: one subdomain under its domain; under another domain it is not found', async () => {
    const r = await asm('GET', '/api/v1/assets/domains/example.com/subdomains/www.example.com');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.json).sort(), ['assetId', 'associatedAt', 'comments', 'data', 'discoveryTrail', 'isSeed', 'tags', 'type']);
    assert.deepEqual(r.json.data, {
      domain: 'example.com',
      subdomain: 'www.example.com',
      resolvedHosts: [{ ipAddress: HOST_A, resolvedAt: '2026-10-20T10:00:00.000Z', refUrl: `${BASE}/v1/assets/hosts/${HOST_A}` }],
    });
    assert.equal(r.json.comments.refUrl, `${BASE}/v1/assets/domains/example.com/subdomains/www.example.com/comments`);
    assertAsmError(await asm('GET', '/api/v1/assets/domains/example.org/subdomains/www.example.com'), 404, 10057);
    assertAsmError(await asm('GET', '/api/v1/assets/domains/example.com/subdomains/zzz.example.com'), 404, 10057);
    assertAsmError(await asm('GET', '/api/v1/assets/domains/nope.example/subdomains/www.example.com'), 404, 10019);
  });

  test('newest: /v1/assets/subdomains lists every subdomain under `subdomains`, and gets one', async () => {
    const { items } = await walk('/api/v1/assets/subdomains', 2, 'subdomains');
    assert.deepEqual(items.map((x) => x.subdomain), ['api.example.com', 'mail.example.org', 'www.example.com']);
    const one = await asm('GET', '/api/v1/assets/subdomains/www.example.com');
    assert.equal(one.json.assetId, 'www.example.com');
    assert.equal(one.json.comments.refUrl, `${BASE}/v1/assets/subdomains/www.example.com/comments`);
    assertAsmError(await asm('GET', '/api/v1/assets/subdomains/nope.example.com'), 404, 10057);
  });
});

describe('web entities', () => {
  test('get a web entity by name:port', async () => {
    const r = await asm('GET', '/api/v1/assets/web-entities/WWW.example.com:443');
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json.assetId, 'www.example.com:443');
    assert.equal(r.json.type, 'WEB_ENTITY');
    assert.deepEqual(r.json.data, {
      name: 'www.example.com',
      port: 443,
      scheme: 'https',
      hosts: [HOST_A, HOST_B].map((ip) => ({ ipAddress: ip, refUrl: `${BASE}/v1/assets/hosts/${ip}` })),
    });
    assertAsmError(await asm('GET', '/api/v1/assets/web-entities/www.example.com:8443'), 404, 10086);
    const list = await asm('GET', '/api/v1/assets/web-entities');
    assert.deepEqual(list.json.assets.map((a: any) => a.assetId), ['www.example.com:443']);
    assertAsmError(await asm('GET', '/api/v1/assets/web-entities/no-port'), 404, 10086);
  });

  test('instances page by cursor; the last page has a null cursor', async () => {
    const first = await asm('GET', '/api/v1/assets/web-entities/www.example.com:443/instances?pageSize=1');
    assert.equal(first.status, 200, first.body);
    assert.equal(first.json.instances.length, 1);
    assert.equal(first.json.instances[0].ipAddress, HOST_A);
    assert.deepEqual(first.json.instances[0].http, { statusCode: 200, title: 'Example', server: 'nginx/1.18.0' });
    assert.equal(first.json.instances[0].url, 'https://www.example.com:443/');
    assert.equal(typeof first.json.cursor, 'string');
    const second = await asm('GET', `/api/v1/assets/web-entities/www.example.com:443/instances?pageSize=1&cursor=${first.json.cursor}`);
    assert.deepEqual(second.json.instances.map((i: any) => i.ipAddress), [HOST_B]);
    assert.equal(second.json.cursor, null);
    const all = await asm('GET', '/api/v1/assets/web-entities/www.example.com:443/instances');
    assert.equal(all.json.instances.length, 2);
    assert.equal(all.json.cursor, null);
    assertAsmError(await asm('GET', '/api/v1/assets/web-entities/www.example.com:443/instances?cursor=garbage!'), 400, 10008);
    assertAsmError(await asm('GET', '/api/v1/assets/web-entities/www.example.com:443/instances?pageSize=0'), 400, 10050);
  });
});

describe('object storages (beta)', () => {
  const encoded = encodeURIComponent(BUCKET);

  test('list and get by the URL-encoded bucket URL', async () => {
    const list = await asm('GET', '/api/beta/assets/object-storages?pageNumber=1&pageSize=500');
    assert.equal(list.status, 200);
    assert.deepEqual(list.json.assets.map((a: any) => [a.assetId, a.type, a.data]), [[BUCKET, 'STORAGE_BUCKET', { accountId: '123456789012' }]]);
    assert.equal(list.json.assets[0].comments.refUrl, `${BASE}/beta/assets/object-storages/${encoded}/comments`);
    assert.deepEqual(Object.keys(list.json.assets[0]).sort(), ['assetId', 'associatedAt', 'comments', 'data', 'isSeed', 'risks', 'tags', 'type']);
    const r = await asm('GET', `/api/beta/assets/object-storages/${encoded}`);
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json.access, { editableSettings: null, readableObjects: true, writableObjects: false });
    assert.equal(r.json.source, 'CENSYS_SCAN');
    assert.deepEqual(r.json.tags, []);
    assert.ok(Array.isArray(r.json.discoveryTrail));
  });

  test('10060 for an id that is no bucket URL, 10061 for an unknown bucket', async () => {
    assertAsmError(await asm('GET', '/api/beta/assets/object-storages/not-a-url'), 400, 10060);
    assertAsmError(await asm('GET', `/api/beta/assets/object-storages/${encodeURIComponent('https://other.s3.amazonaws.com/')}`), 404, 10061);
  });

  test('comments and tags on a bucket, through the encoded id', async () => {
    const c = await asm('POST', `/api/beta/assets/object-storages/${encoded}/comments`, { body: { markdown: 'public bucket' } });
    assert.equal(c.status, 200, c.body);
    const list = await asm('GET', `/api/beta/assets/object-storages/${encoded}/comments`);
    assert.deepEqual(list.json.comments.map((x: any) => [x.type, x.objectStorageName, x.markdown]), [['OBJECT_STORAGE', BUCKET, 'public bucket']]);
    assert.equal((await asm('POST', `/api/beta/assets/object-storages/${encoded}/tags`, { body: { name: 'exposed', color: '#f00' } })).status, 200);
    const r = await asm('GET', `/api/beta/assets/object-storages/${encoded}`);
    assert.deepEqual(r.json.tags.map((t: any) => [t.label, t.color]), [['exposed', '#f00']]);
    assert.equal(r.json.comments.totalComments, 1);
    assert.equal((await asm('DELETE', `/api/beta/assets/object-storages/${encoded}/tags/exposed`)).status, 200);
  });
});

describe('OpenAPI', () => {
  test('the asset routes are in the OpenAPI document with the key credential', async () => {
    const r = await s.app.inject({ method: 'GET', url: '/api/openapi.json' });
    assert.equal(r.statusCode, 200);
    const doc = JSON.parse(r.body);
    for (const path of ['/v1/assets/hosts', '/v1/assets/hosts/{id}/comments/{commentId}', '/v1/assets/domains/{domain}/subdomains/{id}/tags/{name}', '/beta/assets/object-storages/{id}', '/v1/assets/web-entities/{id}/instances']) {
      assert.ok(doc.paths[path], path);
    }
    assert.deepEqual(doc.paths['/v1/assets/hosts'].get.security, [{ asmApiKey: [] }]);
  });
});

describe('workspaces', () => {
  test("another workspace sees none of these assets, and can't annotate them", async () => {
    const key = s.other.asmKey;
    for (const path of ['/api/v1/assets/hosts', '/api/v1/assets/certificates', '/api/v1/assets/domains', '/api/beta/assets/object-storages']) {
      const r = await asm('GET', path, { key });
      assert.deepEqual(r.json, { pageNumber: 1, pageSize: 500, totalPages: 0, totalItems: 0, assets: [] }, path);
    }
    assert.deepEqual((await asm('GET', '/api/v1/assets/subdomains', { key })).json.subdomains, []);
    assertAsmError(await asm('GET', `/api/v1/assets/hosts/${HOST_A}`, { key }), 404, 10018);
    assertAsmError(await asm('GET', `/api/v1/assets/certificates/${SHA_A}`, { key }), 404, 10020);
    assertAsmError(await asm('GET', '/api/v1/assets/domains/example.com/subdomains', { key }), 404, 10019);
    assertAsmError(await asm('POST', `/api/v1/assets/hosts/${HOST_A}/comments`, { key, body: { markdown: 'x' } }), 404, 10018);
    assertAsmError(await asm('POST', `/api/v1/assets/hosts/${HOST_A}/tags`, { key, body: { name: 'x' } }), 404, 10018);
    assertAsmError(await asm('GET', '/api/v1/assets/web-entities/www.example.com:443/instances', { key }), 404, 10086);
    // Page 2 of nothing is out of range; page 1 of nothing is not an error.
    assertAsmError(await asm('GET', '/api/v1/assets/hosts?pageNumber=2', { key }), 400, 10051);
  });

  test('no key: 10000 before anything else', async () => {
    assertAsmError(await asm('GET', '/api/v1/assets/hosts', { key: null }), 400, 10000);
    assertAsmError(await asm('GET', `/api/v1/assets/hosts/${HOST_A}`, { key: 'wrong' }), 401, 10001);
  });
});
