/**
 * Saved inventory queries through the real app, in the request shapes of the newest client and
 * CLI (contract §2B.9): list/add/get/edit/delete, `{}` on delete, syntax checks, the inventory
 * error shape, and workspaces kept apart.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { asmCaller, isAsmError } from './asm-support.ts';

let s: TestServer;
const asm = asmCaller(() => s);

before(async () => {
  s = await startTestServer({ hosts: 10, certificates: 5 });
});
after(async () => {
  await s?.close();
});

function assertInventoryError(r: { status: number; json: any }, status: number): void {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.deepEqual(Object.keys(r.json).sort(), ['details', 'error', 'statusCode']);
  assert.equal(r.json.statusCode, status);
  assert.equal(typeof r.json.error, 'string');
  assert.ok(Array.isArray(r.json.details) && r.json.details.length > 0);
}

const BASE = '/api/inventory/v1/saved-query';

test('add, get, edit, list and delete as the newest CLI does', async () => {
  const added = await asm('POST', BASE, { body: { query: 'domain: foo.com', queryName: 'foo domain' } });
  assert.equal(added.status, 200, added.body);
  const q = added.json.result;
  assert.deepEqual(Object.keys(added.json), ['result']);
  assert.match(q.queryId, /^[0-9]+$/);
  assert.equal(q.queryName, 'foo domain');
  assert.equal(q.query, 'domain: foo.com');
  assert.match(q.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

  const got = await asm('GET', `${BASE}/${q.queryId}`);
  assert.deepEqual(got.json, { result: q });

  const edited = await asm('PUT', `${BASE}/${q.queryId}`, { body: { query: 'host.services.port: 22', queryName: 'ssh' } });
  assert.equal(edited.status, 200, edited.body);
  assert.equal(edited.json.result.queryId, q.queryId);
  assert.equal(edited.json.result.query, 'host.services.port: 22');
  assert.equal(edited.json.result.queryName, 'ssh');
  assert.equal(edited.json.result.createdAt, q.createdAt);

  // execute-saved-query-by-name: pageSize=1&page=1&queryNamePrefix=<name>, then results[0].query.
  const byName = await asm('GET', `${BASE}?queryNamePrefix=ssh&pageSize=1&page=1`);
  assert.equal(byName.status, 200, byName.body);
  assert.equal(byName.json.totalResults, 1);
  assert.equal(byName.json.results[0].query, 'host.services.port: 22');

  const del = await asm('DELETE', `${BASE}/${q.queryId}`);
  assert.equal(del.status, 200);
  assert.equal(del.body, '{}');
  assertInventoryError(await asm('GET', `${BASE}/${q.queryId}`), 404);
  assertInventoryError(await asm('DELETE', `${BASE}/${q.queryId}`), 404);
  assertInventoryError(await asm('PUT', `${BASE}/${q.queryId}`, { body: { query: 'a', queryName: 'b' } }), 404);
});

test('list pages with pageSize and page, filters by prefix and term, and ends with an empty page', async () => {
  const names = ['alpha one', 'Alpha two', 'beta', 'gamma alpha', 'delta'];
  for (const n of names) assert.equal((await asm('POST', BASE, { body: { query: `tags: "${n}"`, queryName: n } })).status, 200);
  const seen: string[] = [];
  for (let page = 1; ; page++) {
    const r = await asm('GET', `${BASE}?pageSize=2&page=${page}`);
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json.totalResults, 5);
    if (r.json.results.length === 0) break;
    seen.push(...r.json.results.map((x: any) => x.queryName));
    assert.ok(page < 10, 'paging ends');
  }
  assert.deepEqual(seen, ['alpha one', 'Alpha two', 'beta', 'delta', 'gamma alpha']);
  const prefixed = await asm('GET', `${BASE}?queryNamePrefix=alpha&pageSize=50&page=1`);
  assert.deepEqual(prefixed.json.results.map((x: any) => x.queryName), ['alpha one', 'Alpha two']);
  const term = await asm('GET', `${BASE}?pageSize=50&page=1&filterTerm=ALPHA`);
  assert.deepEqual(term.json.results.map((x: any) => x.queryName), ['alpha one', 'Alpha two', 'gamma alpha']);
  const defaults = await asm('GET', BASE);
  assert.equal(defaults.json.results.length, 5);
});

test('bad input: syntax errors, missing fields and bad paging, in the inventory error shape', async () => {
  const syntax = await asm('POST', BASE, { body: { query: 'host.services.port: (22', queryName: 'broken' } });
  assertInventoryError(syntax, 400);
  assert.match(syntax.json.error, /Invalid query/);
  const unknown = await asm('POST', BASE, { body: { query: 'host.nope: 1', queryName: 'unknown field' } });
  assertInventoryError(unknown, 400);
  assert.match(unknown.json.error, /Unknown field/);
  assertInventoryError(await asm('POST', BASE, { body: { query: 'domain: a.com' } }), 400);
  assertInventoryError(await asm('POST', BASE, { body: { query: 'domain: a.com', queryName: '  ' } }), 400);
  assertInventoryError(await asm('POST', BASE, { body: { query: 7, queryName: 'n' } }), 400);
  assertInventoryError(await asm('POST', BASE, { body: [1] }), 400);
  assertInventoryError(await asm('POST', BASE, { raw: '{"query":' }), 400);
  assertInventoryError(await asm('GET', `${BASE}?pageSize=0`), 400);
  assertInventoryError(await asm('GET', `${BASE}?pageSize=1001`), 400);
  assertInventoryError(await asm('GET', `${BASE}?page=0`), 400);
  assertInventoryError(await asm('GET', `${BASE}?page=abc`), 400);
  assertInventoryError(await asm('GET', `${BASE}/not-a-number`), 404);
  const edit = (await asm('POST', BASE, { body: { query: '', queryName: 'empty matches all' } })).json.result;
  assertInventoryError(await asm('PUT', `${BASE}/${edit.queryId}`, { body: { query: 'risks: (', queryName: 'x' } }), 400);
  assert.equal((await asm('GET', `${BASE}/${edit.queryId}`)).json.result.query, '');
});

test('the key check keeps the ASM shape; another workspace sees none of these queries', async () => {
  const missing = await asm('GET', BASE, { key: null });
  assert.equal(missing.status, 400);
  assert.ok(isAsmError(missing.json));
  assert.equal(missing.json.errorCode, 10000);
  const mine = (await asm('POST', BASE, { body: { query: 'source: Seed', queryName: 'private' } })).json.result;
  const key = s.other.asmKey;
  assert.deepEqual((await asm('GET', `${BASE}?queryNamePrefix=private`, { key })).json, { results: [], totalResults: 0 });
  assertInventoryError(await asm('GET', `${BASE}/${mine.queryId}`, { key }), 404);
  assertInventoryError(await asm('PUT', `${BASE}/${mine.queryId}`, { key, body: { query: '', queryName: 'taken' } }), 404);
  assertInventoryError(await asm('DELETE', `${BASE}/${mine.queryId}`, { key }), 404);
  assert.equal((await asm('GET', `${BASE}/${mine.queryId}`)).json.result.queryName, 'private');
});
