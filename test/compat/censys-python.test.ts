/**
 * The real censys-python 2.1.9 client (Debian python3-censys) against a live server: every call
 * goes over HTTP exactly as the client sends it. The Python side records what it saw; this side
 * checks it against the store.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { assertPython, listen, runPython } from './run-python.ts';

let server: TestServer;
let out: Record<string, any>;
let expected: { ids: string[]; historyIp: string; historyAt: string; oldDoc: Record<string, unknown>; domain: string };

before(async () => {
  assertPython();
  server = await startTestServer({ hosts: 600, certificates: 150 });
  const url = await listen(server);
  const store = server.rt.store;

  // What the query should return, computed from the store, not from the engine under test.
  const ids: string[] = [];
  let historyIp = '';
  let historyAt = '';
  let oldDoc: Record<string, unknown> = {};
  const domains = new Map<string, number>();
  for await (const batch of store.documents.scan('hosts', 1000)) {
    for (const d of batch) {
      const doc = d.doc as any;
      const http = (doc.services ?? []).some((s: any) => s.service_name === 'HTTP');
      if (!doc.name && http && doc.location?.country === 'Germany') ids.push(d.id);
      if (!historyIp && !doc.name && d.version > 1) {
        const versions = await store.documents.history('hosts', d.id);
        historyIp = d.id;
        oldDoc = versions[0].doc;
        historyAt = new Date(Date.parse(versions[1].validFrom) - 1000).toISOString().replace('Z', '000Z');
      }
    }
  }
  for await (const batch of store.documents.scan('certificates', 1000)) {
    for (const d of batch) for (const n of (d.doc.names as string[]) ?? []) {
      const base = n.split('.').slice(-2).join('.');
      domains.set(base, (domains.get(base) ?? 0) + 1);
    }
  }
  const domain = [...domains.entries()].sort((a, b) => b[1] - a[1])[0][0];
  assert.ok(ids.length > 10, `the demo data should have more than one page of German HTTP hosts, has ${ids.length}`);
  assert.ok(historyIp, 'the demo data should have hosts with history');
  expected = { ids, historyIp, historyAt, oldDoc, domain };

  out = await runPython('test/compat/censys_2_1_9.py', {
    PERISCOPE_URL: url,
    PERISCOPE_API_ID: server.admin.apiId,
    PERISCOPE_API_SECRET: server.admin.apiSecret,
    PERISCOPE_LOW_ID: server.low.apiId,
    PERISCOPE_LOW_SECRET: server.low.apiSecret,
    PERISCOPE_OTHER_ID: server.other.apiId,
    PERISCOPE_OTHER_SECRET: server.other.apiSecret,
    PERISCOPE_HISTORY_IP: historyIp,
    PERISCOPE_HISTORY_AT: historyAt,
    PERISCOPE_DOMAIN: domain,
  });
});

after(async () => {
  await server?.close();
});

test('it is the 2.1.9 client', () => {
  assert.equal(out.client_version, '2.1.9');
});

test('account and quota', () => {
  assert.equal(out.account.email, 'admin@example.test');
  assert.ok(out.account.quota.allowance > 0);
  assert.ok(out.account.quota.used >= 0);
  assert.match(out.account.last_login, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/);
  assert.deepEqual(Object.keys(out.quota).sort(), ['allowance', 'resets_at', 'used']);
});

test('paging through a multi-page query returns every matching host exactly once', () => {
  const got: string[] = out.paging.ids;
  assert.equal(new Set(got).size, got.length, 'no host repeats across pages');
  assert.deepEqual([...got].sort(), [...expected.ids].sort());
  assert.equal(out.paging.pages, Math.ceil(expected.ids.length / 10));
  assert.equal(out.total, expected.ids.length);
  for (const hit of out.paging.first_page) {
    assert.equal(hit.location.country, 'Germany');
    assert.ok(hit.services.some((s: any) => s.service_name === 'HTTP'));
  }
});

test('fields and virtual hosts', () => {
  assert.deepEqual(Object.keys(out.fields_hit).sort(), ['ip', 'services']);
  for (const s of out.fields_hit.services) assert.deepEqual(Object.keys(s), ['port']);
  assert.ok(out.vhost_hits.length > 0, 'the demo has virtual hosts');
  for (const hit of out.vhost_hits) assert.equal(typeof hit.name, 'string');
  assert.equal(out.view_vhost.name, out.vhost_hits[0].name);
});

test('view now and at a past time (from stored history), names, diff, events', () => {
  assert.equal(out.view.ip, out.paging.ids[0]);
  assert.equal(out.view.location.country, 'Germany');
  assert.deepEqual(out.view_at, expected.oldDoc);
  assert.notDeepEqual(out.view_at, out.view_now);
  assert.ok(Array.isArray(out.names));
  assert.ok(out.diff.patch.length > 0);
  assert.equal(out.diff.a.ip, expected.historyIp);
  assert.ok(Array.isArray(out.events) && out.events.length > 0);
  assert.ok(out.events.every((e: any) => typeof e.timestamp === 'string' && e[e._event] !== undefined));
  assert.ok(out.metadata.services.includes('HTTP'));
  assert.equal(out.bulk_view.length, 3);
});

test('aggregate', () => {
  const a = out.aggregate;
  assert.equal(a.field, 'services.port');
  assert.ok(a.buckets.length > 0 && a.buckets.length <= 5);
  for (const b of a.buckets) assert.equal(typeof b.key, 'string');
  const counts = a.buckets.map((b: any) => b.count);
  assert.deepEqual(counts, [...counts].sort((x: number, y: number) => y - x));
  assert.equal(a.total, a.buckets.reduce((s: number, b: any) => s + b.count, 0) + a.total_omitted);
});

test('comments', () => {
  assert.equal(out.comment_added.contents, '**first** comment');
  assert.equal(out.comments.length, 1);
  assert.equal(out.comments[0].contents, 'edited');
  assert.equal(out.comments_after_delete.length, 0);
});

test('tags', () => {
  assert.match(out.tag_created.id, /^\d+$/);
  assert.deepEqual(out.tag_created.metadata, { color: '#ff0000' });
  assert.deepEqual(out.tags_on_host.map((t: any) => t.id), [out.tag_created.id]);
  assert.deepEqual(out.hosts_with_tag, [out.view.ip]);
  assert.equal(out.tag_updated.name, 'compat-tag-2');
  assert.equal(out.tag_get.metadata.color, '#00ff00');
  assert.ok(out.all_tags.some((t: any) => t.id === out.tag_created.id));
  assert.deepEqual(out.tags_after_untag, []);
});

test('certificates: hosts presenting one, tags, comments, and the v1 endpoints', async () => {
  // 2.1.9 returns (result.hosts, result.links).
  const [hosts, links] = out.hosts_by_cert;
  assert.ok(hosts.length > 0 && hosts.every((h: any) => typeof h.ip === 'string'));
  assert.equal(typeof links.next, 'string');
  assert.deepEqual(out.certs_with_tag, [out.cert_fp]);
  assert.equal(out.cert_comments[0].contents, 'cert comment');
  assert.ok(out.v1_search.length > 0);
  for (const r of out.v1_search) {
    assert.ok(r['parsed.names'].some((n: string) => n === expected.domain || n.endsWith('.' + expected.domain)));
    assert.match(r['parsed.fingerprint_sha256'], /^[0-9a-f]{64}$/);
  }
  assert.equal(out.v1_metadata.count, out.v1_search.length);
  const certCount = await server.rt.store.documents.count('certificates');
  assert.ok(certCount > 100, 'more than one v1 page of certificates');
  assert.equal(out.v1_all.length, certCount);
  assert.equal(new Set(out.v1_all).size, certCount);
  assert.equal(out.v1_view.fingerprint_sha256, out.cert_fp);
  assert.ok(out.v1_report.results.length > 0);
  assert.equal(out.v1_bulk[out.cert_fp].fingerprint_sha256, out.cert_fp);
  assert.equal(out.v1_bulk['0'.repeat(64)].error_type, 'unknown');
});

test('errors map to the client exception classes', () => {
  assert.equal(out.err_401.raised, 'CensysUnauthorizedException');
  assert.equal(out.err_401.status, 401);
  assert.equal(out.err_404.raised, 'CensysNotFoundException');
  assert.equal(out.err_422.raised, 'CensysSearchException');
  assert.equal(out.err_422.status, 422);
  assert.equal(out.err_400.status, 400);
  assert.match(out.err_400.text, /Did you mean 'services\.service_name'/);
  assert.equal(out.err_429.raised, 'CensysRateLimitExceededException');
  assert.equal(out.err_429.status, 429);
});

test('workspaces do not see each other', () => {
  assert.deepEqual(out.other_tags, []);
  assert.deepEqual(out.other_cert_comments, []);
});
