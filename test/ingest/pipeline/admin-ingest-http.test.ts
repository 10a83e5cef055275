/**
 * POST /api/admin/v1/ingest through the real app: bearer token, formats, gzip bodies, dry runs,
 * and the ingested hosts searchable and viewable straight away.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { ensureIngestToken } from '../../../src/main/admin-account.ts';

let server: TestServer;
let token: string;

before(async () => {
  server = await startTestServer({ hosts: 20, certificates: 5 });
  const t = await ensureIngestToken(server.rt.store, server.dataDir, {});
  assert.ok(t.created && t.token);
  token = t.token;
});
after(async () => server?.close());

const line = (ip: string, status = 200) =>
  JSON.stringify({
    ip,
    data: { http: { status: 'success', protocol: 'http', timestamp: '2026-01-05T10:00:00Z', result: { response: { status_code: status, body: '<title>Pushed</title>' } } } },
  });
const BODY = `${line('203.0.113.77')}\n${line('203.0.113.78', 404)}\nnot json\n`;

function post(url: string, payload: string | Buffer, auth: string | undefined = `Bearer ${token}`, contentType = 'application/x-ndjson') {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (auth) headers.authorization = auth;
  return server.app.inject({ method: 'POST', url, payload, headers });
}

test('the token is generated once and written next to the admin credentials', async () => {
  const file = JSON.parse(readFileSync(join(server.dataDir, 'credentials.json'), 'utf8'));
  assert.equal(file.ingestToken, token);
  const again = await ensureIngestToken(server.rt.store, server.dataDir, {});
  assert.deepEqual(again, { token, created: false });
});

test('a wrong or missing token is 401; an unknown format is 400', async () => {
  assert.equal((await post('/api/admin/v1/ingest', BODY, '')).statusCode, 401);
  assert.equal((await post('/api/admin/v1/ingest', BODY, 'Bearer nope')).statusCode, 401);
  assert.equal((await post('/api/admin/v1/ingest', BODY, server.basic())).statusCode, 401, 'Search API credentials are not the ingest token');
  const r = await post('/api/admin/v1/ingest?format=nope', BODY);
  assert.equal(r.statusCode, 400);
  assert.match(r.json().error, /unknown format 'nope'/);
  const unknown = await post('/api/admin/v1/ingest', 'just some words\n');
  assert.equal(unknown.statusCode, 400);
});

test('a dry run answers the summary and writes nothing', async () => {
  const r = await post('/api/admin/v1/ingest?dry_run=true', BODY);
  assert.equal(r.statusCode, 200, r.body);
  const s = r.json();
  assert.equal(s.dry_run, true);
  assert.equal(s.format, 'zgrab2');
  assert.equal(s.hosts.created, 2);
  assert.equal(await server.rt.store.documents.get('hosts', '203.0.113.77'), undefined);
});

test('a gzip body is ingested; the hosts are searchable and viewable at once', async () => {
  const r = await post('/api/admin/v1/ingest?format=auto', gzipSync(BODY), `Bearer ${token}`, 'application/octet-stream');
  assert.equal(r.statusCode, 200, r.body);
  const s = r.json();
  assert.equal(s.records, 3);
  assert.deepEqual(s.hosts, { created: 2, updated: 0, unchanged: 0, history_updated: 0 });
  assert.deepEqual(s.services, { added: 2, changed: 0, removed: 0 });
  assert.equal(s.rejected.count, 1);
  assert.equal(s.rejected.records[0].position, 'line 3');

  const view = await server.app.inject({ method: 'GET', url: '/api/v2/hosts/203.0.113.77', headers: { authorization: server.basic() } });
  assert.equal(view.statusCode, 200);
  assert.equal(view.json().result.services[0].http.response.html_title, 'Pushed');
  const search = await server.app.inject({
    method: 'GET',
    url: `/api/v2/hosts/search?q=${encodeURIComponent('services.http.response.html_title: Pushed')}`,
    headers: { authorization: server.basic() },
  });
  assert.equal(search.statusCode, 200);
  assert.deepEqual(search.json().result.hits.map((h: { ip: string }) => h.ip).sort(), ['203.0.113.77', '203.0.113.78']);

  const again = await post('/api/admin/v1/ingest', BODY, `Bearer ${token}`, 'text/plain');
  assert.equal(again.json().hosts.unchanged, 2);
});

test('bodies beyond the API-wide 1 MiB limit are accepted', async () => {
  const big = `${line('203.0.113.90')}\n${'\n'.repeat(2 * 1024 * 1024)}`;
  const r = await post('/api/admin/v1/ingest?format=zgrab2', big);
  assert.equal(r.statusCode, 200, r.body);
  assert.equal(r.json().hosts.created, 1);
});
