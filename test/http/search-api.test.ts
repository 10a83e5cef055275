/**
 * The Search API through the real app (Fastify inject): shapes, paging, errors, auth, limits.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { projectFields } from '../../src/model/project-fields.ts';
import { DEFAULT_HIT_FIELDS } from '../../src/search/default-fields.ts';
import { defaultHitSpec, flushSavedHits } from '../../src/search/page-hits.ts';
import { createAccount } from '../../src/users/accounts.ts';

let s: TestServer;

before(async () => {
  s = await startTestServer({ hosts: 300, certificates: 80 });
});
after(async () => {
  await s?.close();
});

async function call(method: string, url: string, opts: { body?: unknown; auth?: string | null; headers?: Record<string, string>; raw?: string } = {}) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.auth !== null) headers.authorization = opts.auth ?? s.basic();
  const res = await s.app.inject({
    method: method as 'GET',
    url,
    headers: opts.body !== undefined || opts.raw !== undefined ? { 'content-type': 'application/json', ...headers } : headers,
    ...(opts.body !== undefined ? { payload: JSON.stringify(opts.body) } : opts.raw !== undefined ? { payload: opts.raw } : {}),
  });
  let json: any;
  try {
    json = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json, headers: res.headers, body: res.body };
}

async function allHostIds(): Promise<string[]> {
  const ids: string[] = [];
  for await (const batch of s.rt.store.documents.scan('hosts', 1000)) for (const d of batch) ids.push(d.id);
  return ids;
}

describe('auth', () => {
  test('missing credentials: 401 JSON', async () => {
    const r = await call('GET', '/api/v2/hosts/search?q=ip:*', { auth: null });
    assert.equal(r.status, 401);
    assert.equal(r.json.code, 401);
    assert.match(r.json.error, /API ID and secret/);
  });
  test('wrong secret: 401; v1 endpoints answer 403 in the v1 shape', async () => {
    const bad = `Basic ${Buffer.from(`${s.admin.apiId}:nope`).toString('base64')}`;
    assert.equal((await call('GET', '/api/v1/account', { auth: bad })).status, 401);
    const v1 = await call('POST', '/api/v1/search/certificates', { auth: bad, body: { query: '' } });
    assert.equal(v1.status, 403);
    assert.equal(v1.json.error_type, 'unauthorized');
  });
});

describe('host search', () => {
  test('GET and POST answer the same page in the v2 envelope', async () => {
    const q = 'services.service_name: HTTP';
    const g = await call('GET', `/api/v2/hosts/search?q=${encodeURIComponent(q).replace(/%20/g, '+')}&per_page=7`);
    const p = await call('POST', '/api/v2/hosts/search', { body: { q, per_page: 7 } });
    assert.equal(g.status, 200);
    assert.equal(g.json.code, 200);
    assert.equal(g.json.status, 'OK');
    assert.deepEqual(g.json.result.hits, p.json.result.hits);
    assert.equal(g.json.result.hits.length, 7);
    assert.equal(g.json.result.links.prev, '');
    assert.ok(g.json.result.links.next);
    assert.equal(g.json.result.query, q);
  });

  test('an empty query matches every non-virtual host; paging visits each once', async () => {
    const all = (await allHostIds()).filter((id) => !id.includes('+'));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await call('POST', '/api/v2/hosts/search', { body: { q: '', per_page: 100, ...(cursor ? { cursor } : {}) } });
      assert.equal(r.status, 200);
      assert.equal(r.json.result.total, all.length);
      seen.push(...r.json.result.hits.map((h: any) => h.ip));
      cursor = r.json.result.links.next || undefined;
      pages++;
    } while (cursor && pages < 100);
    assert.equal(new Set(seen).size, seen.length);
    assert.deepEqual([...seen].sort(), [...all].sort());
  });

  test('paging stays exact while documents are written between pages', async () => {
    const q = 'services.port: 22';
    let r = await call('POST', '/api/v2/hosts/search', { body: { q, per_page: 5 } });
    const before = r.json.result.total;
    const seen: string[] = r.json.result.hits.map((h: any) => h.ip);
    // New matching hosts, some ordered before the cursor and some after it.
    const now = new Date().toISOString();
    await s.rt.indexer.put('hosts', [
      { id: '0.0.0.1', doc: { ip: '0.0.0.1', services: [{ port: 22, service_name: 'SSH', transport_protocol: 'TCP' }] }, observedAt: now },
      { id: '223.255.255.1', doc: { ip: '223.255.255.1', services: [{ port: 22, service_name: 'SSH', transport_protocol: 'TCP' }] }, observedAt: now },
    ]);
    let cursor = r.json.result.links.next;
    while (cursor) {
      r = await call('POST', '/api/v2/hosts/search', { body: { q, per_page: 5, cursor } });
      seen.push(...r.json.result.hits.map((h: any) => h.ip));
      cursor = r.json.result.links.next;
    }
    assert.equal(new Set(seen).size, seen.length, 'nothing repeats');
    assert.ok(seen.includes('223.255.255.1'), 'a document added after the cursor position is reached');
    assert.ok(!seen.includes('0.0.0.1'), 'a document added before the cursor position does not shift the pages');
    assert.equal(seen.length, before + 1);
    await s.rt.store.documents.remove('hosts', '0.0.0.1');
    s.rt.engine.remove('hosts', '0.0.0.1');
    await s.rt.store.documents.remove('hosts', '223.255.255.1');
    s.rt.engine.remove('hosts', '223.255.255.1');
  });

  test('links.prev walks back to the previous page', async () => {
    const p1 = await call('POST', '/api/v2/hosts/search', { body: { q: '', per_page: 10 } });
    const p2 = await call('POST', '/api/v2/hosts/search', { body: { q: '', per_page: 10, cursor: p1.json.result.links.next } });
    assert.ok(p2.json.result.links.prev);
    const back = await call('POST', '/api/v2/hosts/search', { body: { q: '', per_page: 10, cursor: p2.json.result.links.prev } });
    assert.deepEqual(back.json.result.hits, p1.json.result.hits);
  });

  test('fields: repeated keys, comma-separated, nested output', async () => {
    const a = await call('GET', '/api/v2/hosts/search?q=services.port:443&per_page=3&fields=ip&fields=services.port');
    const b = await call('GET', '/api/v2/hosts/search?q=services.port:443&per_page=3&fields=ip,services.port');
    assert.equal(a.status, 200);
    assert.deepEqual(a.json.result.hits, b.json.result.hits);
    for (const hit of a.json.result.hits) {
      assert.deepEqual(Object.keys(hit).sort(), ['ip', 'services']);
      for (const svc of hit.services) assert.deepEqual(Object.keys(svc), ['port']);
    }
    const bad = await call('GET', '/api/v2/hosts/search?fields=services.prot');
    assert.equal(bad.status, 400);
    assert.match(bad.json.error, /Did you mean 'services\.port'/);
  });

  test('sort DESCENDING reverses the order', async () => {
    const walk = async (sort: string) => {
      const ips: string[] = [];
      let cursor: string | undefined;
      do {
        const r = await call('POST', '/api/v2/hosts/search', { body: { q: 'services.port: 80', per_page: 100, sort, ...(cursor ? { cursor } : {}) } });
        ips.push(...r.json.result.hits.map((h: any) => h.ip));
        cursor = r.json.result.links.next || undefined;
      } while (cursor);
      return ips;
    };
    const asc = await walk('ASCENDING');
    const desc = await walk('DESCENDING');
    assert.ok(asc.length > 100, 'more than one page');
    assert.deepEqual(desc, [...asc].reverse());
  });

  test('virtual_hosts EXCLUDE, INCLUDE, ONLY', async () => {
    const count = async (vh: string) => (await call('GET', `/api/v2/hosts/search?per_page=1&virtual_hosts=${vh}`)).json.result.total;
    const ex = await count('EXCLUDE');
    const inc = await count('INCLUDE');
    const only = await count('ONLY');
    assert.ok(only > 0);
    assert.equal(ex + only, inc);
    const hit = (await call('GET', '/api/v2/hosts/search?per_page=1&virtual_hosts=ONLY')).json.result.hits[0];
    assert.equal(typeof hit.name, 'string');
    assert.equal((await call('GET', '/api/v2/hosts/search?virtual_hosts=SOMETIMES')).status, 400);
  });

  test('query errors are 400 with the position and a suggestion', async () => {
    const r = await call('GET', '/api/v2/hosts/search?q=services.servce_name%3A+HTTP');
    assert.equal(r.status, 400);
    assert.match(r.json.error, /Invalid search/);
    assert.equal(r.json.details.position, 0);
    assert.equal(r.json.details.suggestion, 'services.service_name');
    const unbalanced = await call('POST', '/api/v2/hosts/search', { body: { q: '(services.port: 22' } });
    assert.equal(unbalanced.status, 400);
    assert.equal(typeof unbalanced.json.details.position, 'number');
  });

  test('per_page is limited to 100; a bad cursor is 422', async () => {
    assert.equal((await call('GET', '/api/v2/hosts/search?per_page=101')).status, 400);
    assert.equal((await call('GET', '/api/v2/hosts/search?per_page=abc')).status, 400);
    const r = await call('GET', '/api/v2/hosts/search?cursor=garbage');
    assert.equal(r.status, 422);
    assert.match(r.json.error, /Invalid cursor/);
    const other = await call('POST', '/api/v2/hosts/search', { body: { q: 'services.port: 80', per_page: 1 } });
    const mismatch = await call('POST', '/api/v2/hosts/search', { body: { q: 'services.port: 22', cursor: other.json.result.links.next } });
    assert.equal(mismatch.status, 422);
  });
});

describe('host view and history', () => {
  test('view, unknown host, invalid address', async () => {
    const [id] = (await allHostIds()).filter((i) => !i.includes('+'));
    const r = await call('GET', `/api/v2/hosts/${id}`);
    assert.equal(r.status, 200);
    assert.equal(r.json.result.ip, id);
    assert.equal((await call('GET', '/api/v2/hosts/192.0.2.200')).status, 404);
    const bad = await call('GET', '/api/v2/hosts/not-an-ip');
    assert.equal(bad.status, 422);
    assert.equal(bad.json.error, 'Invalid ip address');
  });

  test('a virtual host id with a literal +', async () => {
    const vh = (await allHostIds()).find((i) => i.includes('+'))!;
    const r = await call('GET', `/api/v2/hosts/${vh}`);
    assert.equal(r.status, 200);
    assert.equal(`${r.json.result.ip}+${r.json.result.name}`, vh);
  });

  test('at_time answers from history; diff and events follow the versions', async () => {
    let target: string | undefined;
    for await (const batch of s.rt.store.documents.scan('hosts', 1000)) {
      target ??= batch.find((d) => d.version >= 2 && !d.id.includes('+'))?.id;
    }
    assert.ok(target);
    const versions = await s.rt.store.documents.history('hosts', target);
    const between = new Date(Date.parse(versions[1].validFrom) - 1).toISOString();
    const old = await call('GET', `/api/v2/hosts/${target}?at_time=${between}`);
    assert.deepEqual(old.json.result, versions[0].doc);
    const before = await call('GET', `/api/v2/hosts/${target}?at_time=2000-01-01T00:00:00.000000Z`);
    assert.equal(before.status, 404);
    assert.equal((await call('GET', `/api/v2/hosts/${target}?at_time=yesterday`)).status, 422);
    const diff = await call('GET', `/api/v2/hosts/${target}/diff?at_time=${between}`);
    assert.equal(diff.status, 200);
    assert.ok(diff.json.result.patch.length > 0);
    const events = await call('GET', `/api/v2/experimental/hosts/${target}/events?per_page=50&reversed=False`);
    assert.equal(events.status, 200);
    assert.ok(events.json.result.events.length >= versions.length);
    const rev = await call('GET', `/api/v2/experimental/hosts/${target}/events?per_page=50&reversed=True`);
    assert.deepEqual(rev.json.result.events, [...events.json.result.events].reverse());
    const names = await call('GET', `/api/v2/hosts/${target}/names`);
    assert.equal(names.status, 200);
    assert.ok(Array.isArray(names.json.result.names));
  });

  test('host certificates', async () => {
    const hit = (await call('POST', '/api/v2/hosts/search', { body: { q: 'services.certificate: *', per_page: 1 } })).json.result.hits[0];
    const r = await call('GET', `/api/v2/hosts/${hit.ip}/certificates?per_page=100`);
    assert.equal(r.status, 200);
    const fps = hit.services.filter((x: any) => x.certificate).map((x: any) => x.certificate);
    for (const fp of fps) assert.ok(r.json.result.certificates.some((c: any) => c.fingerprint === fp));
  });
});

describe('aggregate', () => {
  test('services.port counts services; keys are strings', async () => {
    const r = await call('GET', '/api/v2/hosts/aggregate?q=services.service_name%3A+HTTP&field=services.port&num_buckets=4');
    assert.equal(r.status, 200);
    const res = r.json.result;
    assert.equal(res.field, 'services.port');
    assert.ok(res.buckets.length <= 4);
    for (const b of res.buckets) assert.equal(typeof b.key, 'string');
    assert.equal(res.potential_deviation, 0);
    assert.equal(res.total, res.buckets.reduce((a: number, b: any) => a + b.count, 0) + res.total_omitted);
  });
  test('errors: unknown field, too many buckets, missing field', async () => {
    const f = await call('GET', '/api/v2/hosts/aggregate?field=services.prot');
    assert.equal(f.status, 400);
    assert.match(f.json.error, /Invalid field: 'services\.prot'\. Did you mean 'services\.port'\?/);
    const b = await call('GET', '/api/v2/hosts/aggregate?field=services.port&num_buckets=1001');
    assert.equal(b.status, 400);
    assert.equal(b.json.error, 'Reports allow for a maximum of 1000 buckets.');
    assert.equal((await call('GET', '/api/v2/hosts/aggregate')).status, 400);
  });
});

describe('certificates', () => {
  test('search, view, bulk, aggregate, hosts, observations', async () => {
    const search = await call('POST', '/api/v2/certificates/search', { body: { q: '', per_page: 5 } });
    assert.equal(search.status, 200);
    const hit = search.json.result.hits[0];
    assert.match(hit.fingerprint_sha256, /^[0-9a-f]{64}$/);
    assert.ok(Array.isArray(hit.names));
    const fp = hit.fingerprint_sha256;
    const view = await call('GET', `/api/v2/certificates/${fp}`);
    assert.equal(view.json.result.fingerprint_sha256, fp);
    assert.equal((await call('GET', `/api/v2/certificates/${'a'.repeat(64)}`)).status, 404);
    assert.equal((await call('GET', '/api/v2/certificates/xyz')).status, 422);
    const bulk = await call('POST', '/api/v2/certificates/bulk', { body: { fingerprints: [fp, 'b'.repeat(64), 'nope'] } });
    assert.equal(bulk.status, 200);
    assert.equal(bulk.json.result.length, 3);
    assert.equal(bulk.json.result[0].fingerprint_sha256, fp);
    assert.ok(!bulk.json.result[0].error);
    assert.match(bulk.json.result[1].error, /not found/);
    assert.match(bulk.json.result[2].error, /Invalid SHA-256/);
    const bulkGet = await call('GET', `/api/v2/certificates/bulk?fingerprints=${fp}`);
    assert.equal(bulkGet.json.result[0].fingerprint_sha256, fp);
    const agg = await call('GET', '/api/v2/certificates/aggregate?field=parsed.issuer.organization&num_buckets=3');
    assert.equal(agg.status, 200);
    assert.ok(agg.json.result.buckets.length > 0);
    const presented = (await call('POST', '/api/v2/hosts/search', { body: { q: 'services.certificate: *', per_page: 1 } })).json.result.hits[0];
    const pfp = presented.services.find((x: any) => x.certificate).certificate;
    const hosts = await call('GET', `/api/v2/certificates/${pfp}/hosts`);
    assert.ok(hosts.json.result.hosts.some((h: any) => h.ip === presented.ip));
    assert.equal(typeof hosts.json.result.links.next, 'string');
    const obs = await call('GET', `/api/v2/certificates/${pfp}/observations?per_page=50`);
    assert.ok(obs.json.result.observations.some((o: any) => o.ip === presented.ip && typeof o.port === 'number'));
  });

  test('sort by a field, descending with a leading -', async () => {
    const r = await call('GET', '/api/v2/certificates/search?per_page=20&sort=-parsed.validity_period.not_after&fields=parsed.validity_period.not_after');
    assert.equal(r.status, 200);
    const dates = r.json.result.hits.map((h: any) => h.parsed.validity_period.not_after);
    assert.deepEqual(dates, [...dates].sort().reverse());
  });
});

describe('comments and tags', () => {
  test('comment lifecycle on a certificate, invisible to another workspace', async () => {
    const fp = (await call('POST', '/api/v2/certificates/search', { body: { per_page: 1 } })).json.result.hits[0].fingerprint_sha256;
    const added = await call('POST', `/api/v2/certificates/${fp}/comments`, { body: { contents: 'hello' } });
    assert.equal(added.status, 200);
    assert.equal(added.json.result.fingerprint, fp);
    const id = added.json.result.id;
    assert.equal((await call('GET', `/api/v2/certificates/${fp}/comments/${id}`)).json.result.contents, 'hello');
    assert.equal((await call('GET', `/api/v2/certificates/${fp}/comments/${id}`, { auth: s.basic(s.other) })).status, 404);
    assert.deepEqual((await call('GET', `/api/v2/certificates/${fp}/comments`, { auth: s.basic(s.other) })).json.result.comments, []);
    const del = await call('DELETE', `/api/v2/certificates/${fp}/comments/${id}`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.json.result.comments, []);
    assert.equal((await call('DELETE', `/api/v2/certificates/${fp}/comments/${id}`)).status, 404);
    assert.equal((await call('POST', `/api/v2/certificates/${fp}/comments`, { body: { contents: '' } })).status, 400);
    assert.equal((await call('POST', `/api/v2/certificates/${'c'.repeat(64)}/comments`, { body: { contents: 'x' } })).status, 404);
  });

  test('tags: create, duplicate, tag with an empty PUT body, listings, delete', async () => {
    const t = await call('POST', '/api/v2/tags', { body: { name: 'honeypot', metadata: { color: '#ff6113' } } });
    assert.equal(t.status, 200);
    assert.match(t.json.result.id, /^\d+$/);
    assert.equal((await call('POST', '/api/v2/tags', { body: { name: 'honeypot' } })).status, 409);
    const ip = (await call('POST', '/api/v2/hosts/search', { body: { per_page: 1 } })).json.result.hits[0].ip;
    const put = await call('PUT', `/api/v2/hosts/${ip}/tags/${t.json.result.id}`, { raw: '' });
    assert.equal(put.status, 204);
    assert.deepEqual((await call('GET', `/api/v2/tags/${t.json.result.id}/hosts`)).json.result.hosts.map((h: any) => h.ip), [ip]);
    assert.equal((await call('GET', `/api/v2/tags/${t.json.result.id}`, { auth: s.basic(s.other) })).status, 404);
    assert.equal((await call('PUT', `/api/v2/hosts/${ip}/tags/${t.json.result.id}`, { auth: s.basic(s.other) })).status, 404);
    assert.equal((await call('DELETE', `/api/v2/tags/${t.json.result.id}`)).status, 204);
    assert.deepEqual((await call('GET', `/api/v2/hosts/${ip}/tags`)).json.result.tags, []);
    assert.equal((await call('GET', '/api/v2/tags/abc')).status, 404);
  });
});

describe('served hits', () => {
  async function expectedHits(ids: readonly string[]): Promise<string[]> {
    const docs = new Map((await s.rt.store.documents.getMany('hosts', ids)).map((d) => [d.id, d.doc]));
    return ids.map((id) => JSON.stringify(projectFields(docs.get(id)!, DEFAULT_HIT_FIELDS.hosts)));
  }

  test('default-field hits are the projected current documents, rendered on the spot or saved', async () => {
    const body = { q: 'services.service_name: HTTP', per_page: 50 };
    const first = await call('POST', '/api/v2/hosts/search', { body });
    const hits = first.json.result.hits as Record<string, unknown>[];
    const ids = hits.map((h) => (h.name ? `${h.ip}+${h.name}` : String(h.ip)));
    // Same values and the same key order as a projection of the stored document.
    assert.deepEqual(hits.map((h) => JSON.stringify(h)), await expectedHits(ids));
    await flushSavedHits(s.rt.store);
    const saved = await s.rt.store.pages.hits('hosts', ids, defaultHitSpec('hosts'));
    assert.deepEqual(new Map(saved.map((r) => [r.id, r.hit])), new Map(ids.map((id, i) => [id, JSON.stringify(hits[i])])));
    const again = await call('POST', '/api/v2/hosts/search', { body });
    assert.deepEqual(again.json.result.hits, hits);

    // A changed document is served as it is now, never from its old rendering.
    const id = ids[3];
    const doc = (await s.rt.store.documents.get('hosts', id))!.doc;
    await s.rt.indexer.put('hosts', [{ id, doc: { ...doc, labels: ['changed-for-test'] }, observedAt: new Date().toISOString() }]);
    const after = await call('POST', '/api/v2/hosts/search', { body });
    const changed = (after.json.result.hits as Record<string, unknown>[]).find((h) => (h.name ? `${h.ip}+${h.name}` : h.ip) === id);
    assert.deepEqual(changed?.labels, ['changed-for-test']);
    assert.deepEqual(
      (after.json.result.hits as Record<string, unknown>[]).map((h) => JSON.stringify(h)),
      await expectedHits((after.json.result.hits as Record<string, unknown>[]).map((h) => (h.name ? `${h.ip}+${h.name}` : String(h.ip)))),
    );
  });

  test('requested fields are projected from the documents; the envelope is JSON', async () => {
    const r = await call('GET', '/api/v2/hosts/search?q=services.port:22&per_page=3&fields=ip,location.country');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    for (const h of r.json.result.hits) assert.deepEqual(Object.keys(h).sort(), Object.keys(h).includes('location') ? ['ip', 'location'] : ['ip']);
  });
});

describe('limits and malformed requests', () => {
  test('quota: concurrent queries are each counted once, and the account shows them at once', async () => {
    const five = await createAccount(s.rt.store, { email: 'five@example.test', quota: 5 });
    const statuses = await Promise.all(
      Array.from({ length: 8 }, () => call('POST', '/api/v2/hosts/search', { auth: s.basic(five), body: { per_page: 1 } }).then((r) => r.status)),
    );
    assert.deepEqual(statuses.sort(), [200, 200, 200, 200, 200, 429, 429, 429]);
    const acct = await call('GET', '/api/v1/account', { auth: s.basic(five) });
    assert.equal(acct.json.quota.used, 5);
    assert.equal(await s.rt.store.quota.used(five.user.id, new Date().toISOString().slice(0, 7)), 5);
  });

  test('quota: the second query of a one-query quota is 429', async () => {
    assert.equal((await call('GET', '/api/v2/hosts/search?per_page=1', { auth: s.basic(s.low) })).status, 200);
    const r = await call('GET', '/api/v2/hosts/search?per_page=1', { auth: s.basic(s.low) });
    assert.equal(r.status, 429);
    assert.match(r.json.error, /quota/);
    const acct = await call('GET', '/api/v1/account', { auth: s.basic(s.low) });
    assert.equal(acct.json.quota.used, 1);
    assert.equal(acct.json.quota.allowance, 1);
  });

  test('malformed JSON is 400; an empty JSON body is no body', async () => {
    const r = await call('POST', '/api/v2/hosts/search', { raw: '{"q": ' });
    assert.equal(r.status, 400);
    assert.match(r.json.error, /Malformed JSON/);
    assert.equal((await call('POST', '/api/v2/hosts/search', { raw: '' })).status, 200);
  });

  test('unknown routes are JSON 404s', async () => {
    const r = await call('GET', '/api/v2/nothing-here');
    assert.equal(r.status, 404);
    assert.equal(r.json.code, 404);
  });

  test('OpenAPI document and docs page', async () => {
    const r = await call('GET', '/api/openapi.json', { auth: null });
    assert.equal(r.status, 200);
    assert.ok(r.json.paths['/v2/hosts/search']);
    assert.ok(r.json.paths['/v2/certificates/{fp}']);
    assert.ok(r.json.paths['/v1/account']);
    assert.ok(r.json.components.securitySchemes.basicAuth);
    assert.deepEqual(r.json.paths['/v1/seeds'].get.security, [{ asmApiKey: [] }]);
    assert.deepEqual(r.json.paths['/admin/v1/ingest'].post.security, [{ ingestToken: [] }]);
    const docs = await s.app.inject({ method: 'GET', url: '/api/docs/' });
    assert.equal(docs.statusCode, 200);
    assert.match(docs.body, /swagger/i);
  });
});
