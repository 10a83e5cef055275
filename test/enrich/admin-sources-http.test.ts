/**
 * GET /api/admin/v1/sources through the real app: Bearer ingest token, the sources in use, and
 * the sources recorded by the last ingest run.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { ensureIngestToken } from '../../src/main/admin-account.ts';
import { ENRICH_SOURCES_SETTING } from '../../src/ingest/enrich/index.ts';

let server: TestServer;
let token: string;

before(async () => {
  server = await startTestServer({ hosts: 5, certificates: 2 });
  const t = await ensureIngestToken(server.rt.store, server.dataDir, {});
  assert.ok(t.token);
  token = t.token;
});
after(async () => server?.close());

const get = (auth?: string) => server.app.inject({ method: 'GET', url: '/api/admin/v1/sources', headers: auth ? { authorization: auth } : {} });

test('without the ingest token: 401', async () => {
  assert.equal((await get()).statusCode, 401);
  assert.equal((await get('Bearer wrong')).statusCode, 401);
  assert.equal((await get(server.basic())).statusCode, 401);
});

test('lists the sources in use with versions and build dates; the last ingest records its own', async () => {
  const before = await get(`Bearer ${token}`);
  assert.equal(before.statusCode, 200, before.body);
  const body = before.json();
  const names = body.sources.map((s: { name: string }) => s.name);
  assert.deepEqual(names, ['asn', 'country', 'cloud-asn']);
  const asn = body.sources[0];
  assert.equal(asn.package, '@ip-location-db/asn');
  assert.match(asn.version, /^\d+\.\d+\.\d{10}$/);
  assert.equal(asn.built_from, 'package version');
  assert.ok(!Number.isNaN(Date.parse(asn.built_at)));
  assert.ok(!Number.isNaN(Date.parse(asn.loaded_at)));
  assert.equal(body.sources[1].built_from, 'mmdb build_epoch');
  assert.deepEqual(body.skipped, []);
  assert.equal(body.last_ingest, null);

  const line = JSON.stringify({ ip: '8.8.4.4', data: { http: { status: 'success', protocol: 'http', timestamp: '2026-01-05T10:00:00Z', result: { response: { status_code: 200 } } } } });
  const pushed = await server.app.inject({
    method: 'POST',
    url: '/api/admin/v1/ingest',
    payload: `${line}\n`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
  });
  assert.equal(pushed.statusCode, 200, pushed.body);
  const recorded = JSON.parse((await server.rt.store.settings.get(ENRICH_SOURCES_SETTING))!);
  assert.deepEqual(recorded.sources.map((s: { name: string }) => s.name), names);
  const after = (await get(`Bearer ${token}`)).json();
  assert.ok(!Number.isNaN(Date.parse(after.last_ingest.recorded_at)));
  assert.equal(after.last_ingest.sources[0].version, asn.version);

  // The pushed host carries the cloud provider of its AS.
  const view = await server.app.inject({ method: 'GET', url: '/api/v2/hosts/8.8.4.4', headers: { authorization: server.basic() } });
  assert.equal(view.statusCode, 200);
  assert.deepEqual(view.json().result.cloud, { provider: 'Google Cloud' });
  assert.ok(view.json().result.labels.includes('cloud'));
});
