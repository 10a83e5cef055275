/**
 * Comments and tags on assets through the real app (contract §2B.3, §5.5): shapes, paging of
 * comments, every comment and tag error code (10025–10037, 10054, 10055, 10099), and the same
 * annotations seen through both subdomain paths.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { asmCaller, isAsmError } from './asm-support.ts';
import { HOST_A, HOST_B, SHA_A, loadFixture } from './asm-assets-fixture.ts';

let s: TestServer;
const asm = asmCaller(() => s);
const BASE = 'http://localhost:80/api';

before(async () => {
  s = await startTestServer({ hosts: 5, certificates: 3 });
  await loadFixture(s.rt.store, s.admin.user.workspaceId);
});
after(async () => {
  await s?.close();
});

function assertAsmError(r: { status: number; json: any }, status: number, errorCode: number, details?: unknown): void {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.ok(isAsmError(r.json), JSON.stringify(r.json));
  assert.equal(r.json.errorCode, errorCode, JSON.stringify(r.json));
  if (details !== undefined) assert.deepEqual(r.json.details, details);
}

describe('comments', () => {
  test('add, get, list (paged), delete on a host', async () => {
    const path = `/api/v1/assets/hosts/${HOST_B}/comments`;
    const empty = await asm('GET', path);
    assert.deepEqual(empty.json, { comments: [], pageNumber: 1, pageSize: 500, totalPages: 0, totalItems: 0 });

    const added = [];
    for (let i = 1; i <= 5; i++) {
      const r = await asm('POST', path, { body: { markdown: `note **${i}**` } });
      assert.equal(r.status, 200, r.body);
      assert.deepEqual(Object.keys(r.json).sort(), ['commentId', 'createdBy', 'createdOn', 'markdown']);
      assert.equal(r.json.markdown, `note **${i}**`);
      assert.equal(r.json.createdBy, 'admin@example.test');
      assert.ok(Number.isInteger(r.json.commentId));
      assert.match(r.json.createdOn, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      added.push(r.json);
    }
    const one = await asm('GET', `${path}/${added[2].commentId}`);
    assert.deepEqual(one.json, { type: 'HOST', ipAddress: HOST_B, ...added[2] });

    // The client's loop: pageNumber + 1 until it passes totalPages.
    const seen: number[] = [];
    let page = 1;
    let total = Infinity;
    while (page <= total) {
      const r = await asm('GET', `${path}?pageNumber=${page}&pageSize=2`);
      assert.equal(r.json.pageNumber, page);
      assert.equal(r.json.totalItems, 5);
      seen.push(...r.json.comments.map((c: any) => c.commentId));
      page = r.json.pageNumber + 1;
      total = r.json.totalPages;
    }
    assert.deepEqual(seen, added.map((c) => c.commentId));
    assertAsmError(await asm('GET', `${path}?pageNumber=4&pageSize=2`), 400, 10051);
    assertAsmError(await asm('GET', `${path}?pageSize=0`), 400, 10050);

    const host = await asm('GET', `/api/v1/assets/hosts/${HOST_B}`);
    assert.deepEqual(host.json.comments, { totalComments: 5, refUrl: `${BASE}/v1/assets/hosts/${HOST_B}/comments` });

    const del = await asm('DELETE', `${path}/${added[0].commentId}`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.json, {});
    assertAsmError(await asm('GET', `${path}/${added[0].commentId}`), 404, 10055);
    assertAsmError(await asm('DELETE', `${path}/${added[0].commentId}`), 404, 10055);
    assert.equal((await asm('GET', path)).json.totalItems, 4);
  });

  test('a comment belongs to its asset: through another asset it is not found', async () => {
    const c = (await asm('POST', `/api/v1/assets/hosts/${HOST_A}/comments`, { body: { markdown: 'on A' } })).json;
    assertAsmError(await asm('GET', `/api/v1/assets/hosts/${HOST_B}/comments/${c.commentId}`), 404, 10055);
    assertAsmError(await asm('DELETE', `/api/v1/assets/hosts/${HOST_B}/comments/${c.commentId}`), 404, 10055);
    assertAsmError(await asm('GET', `/api/v1/assets/hosts/${HOST_A}/comments/99999999`), 404, 10055);
    assertAsmError(await asm('GET', `/api/v1/assets/hosts/${HOST_A}/comments/abc`), 400, 10008);
    assertAsmError(await asm('GET', `/api/v1/assets/hosts/${HOST_A}/comments/${c.commentId}`, { key: s.other.asmKey }), 404, 10018);
  });

  test('each family names its asset in the comment', async () => {
    const cert = await asm('POST', `/api/v1/assets/certificates/${SHA_A}/comments`, { body: { markdown: 'renew' } });
    assert.deepEqual((await asm('GET', `/api/v1/assets/certificates/${SHA_A}/comments/${cert.json.commentId}`)).json.sha256, SHA_A);
    const dom = await asm('POST', '/api/v1/assets/domains/example.com/comments', { body: { markdown: 'ours' } });
    const got = (await asm('GET', `/api/v1/assets/domains/example.com/comments/${dom.json.commentId}`)).json;
    assert.equal(got.type, 'DOMAIN');
    assert.equal(got.domain, 'example.com');
    const web = await asm('POST', '/api/v1/assets/web-entities/www.example.com:443/comments', { body: { markdown: 'site' } });
    assert.equal((await asm('GET', `/api/v1/assets/web-entities/www.example.com:443/comments/${web.json.commentId}`)).json.type, 'WEB_ENTITY');
  });

  test('subdomain comments are the same through the 2.1.9 and newest paths', async () => {
    const old = '/api/v1/assets/domains/example.com/subdomains/www.example.com/comments';
    const neu = '/api/v1/assets/subdomains/www.example.com/comments';
    const a = await asm('POST', old, { body: { markdown: 'via 2.1.9' } });
    const b = await asm('POST', neu, { body: { markdown: 'via newest' } });
    for (const path of [old, neu]) {
      const list = await asm('GET', path);
      assert.deepEqual(list.json.comments.map((c: any) => [c.type, c.subdomain, c.commentId]), [
        ['SUBDOMAIN', 'www.example.com', a.json.commentId],
        ['SUBDOMAIN', 'www.example.com', b.json.commentId],
      ]);
    }
    assertAsmError(await asm('POST', '/api/v1/assets/domains/example.org/subdomains/www.example.com/comments', { body: { markdown: 'x' } }), 404, 10057);
  });

  test('10054 invalid comment, 10099 active HTML', async () => {
    const path = `/api/v1/assets/hosts/${HOST_A}/comments`;
    for (const body of [{}, { markdown: '' }, { markdown: '   \n' }, { markdown: 5 }, { text: 'x' }, { markdown: 'x'.repeat(10_001) }]) {
      assertAsmError(await asm('POST', path, { body }), 400, 10054);
    }
    assertAsmError(await asm('POST', path, { raw: '[1]' }), 400, 10054);
    for (const markdown of ['<script>alert(1)</script>', 'hi <img src=x onerror=alert(1)>', '<a href="javascript:alert(1)">x</a>', '[x](javascript:alert(1))', '<iframe src=//e.example>']) {
      assertAsmError(await asm('POST', path, { body: { markdown } }), 400, 10099);
    }
    // Markdown and harmless inline HTML are fine.
    assert.equal((await asm('POST', path, { body: { markdown: '**bold** <br> [link](https://example.com) `<b>`' } })).status, 200);
    // Malformed JSON is the generic bad-JSON error, not a comment error.
    const bad = await asm('POST', path, { raw: '{"markdown": ' });
    assert.equal(bad.status, 400);
    assert.ok(isAsmError(bad.json));
  });
});

describe('tags', () => {
  test('add with the default colour, recolour, show on the asset, remove by name', async () => {
    const path = `/api/v1/assets/hosts/${HOST_B}/tags`;
    const r = await asm('POST', path, { body: { name: 'my tag' } });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, { name: 'my tag', color: '#ffffff' });
    assert.deepEqual((await asm('GET', `/api/v1/assets/hosts/${HOST_B}`)).json.tags, [{ name: 'my tag', color: '#ffffff' }]);
    assert.deepEqual((await asm('POST', path, { body: { name: 'my tag', color: '#4287F5' } })).json, { name: 'my tag', color: '#4287f5' });
    assert.equal((await asm('POST', path, { body: { name: 'second', color: '#abc' } })).status, 200);
    assert.deepEqual((await asm('GET', `/api/v1/assets/hosts/${HOST_B}`)).json.tags, [
      { name: 'my tag', color: '#4287f5' },
      { name: 'second', color: '#abc' },
    ]);
    // Tag names go raw in the path (requests escapes the space).
    const del = await asm('DELETE', `${path}/my%20tag`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.json, {});
    assert.deepEqual((await asm('GET', `/api/v1/assets/hosts/${HOST_B}`)).json.tags, [{ name: 'second', color: '#abc' }]);
    // Removing a tag the asset does not carry leaves it so, without an error.
    assert.equal((await asm('DELETE', `${path}/never-there`)).status, 200);
  });

  test('subdomain lists show tags as {label, tagId, color}; both paths tag the same asset', async () => {
    assert.equal((await asm('POST', '/api/v1/assets/domains/example.com/subdomains/api.example.com/tags', { body: { name: 'api' } })).status, 200);
    const items = (await asm('GET', '/api/v1/assets/domains/example.com/subdomains')).json.subdomains;
    const api = items.find((x: any) => x.subdomain === 'api.example.com');
    assert.equal(api.tags.length, 1);
    assert.deepEqual(Object.keys(api.tags[0]).sort(), ['color', 'label', 'tagId']);
    assert.equal(api.tags[0].label, 'api');
    assert.equal(typeof api.tags[0].tagId, 'number');
    assert.equal((await asm('DELETE', '/api/v1/assets/subdomains/api.example.com/tags/api')).status, 200);
    assert.deepEqual((await asm('GET', '/api/v1/assets/subdomains/api.example.com')).json.tags, []);
  });

  test('tag rules: 10025, 10026, 10027, 10028, 10034, 10036, 10037, and 10008 without a name', async () => {
    const path = `/api/v1/assets/hosts/${HOST_A}/tags`;
    assertAsmError(await asm('POST', path, { body: { name: ' padded' } }), 400, 10025, { offendingTag: ' padded' });
    assertAsmError(await asm('POST', path, { body: { name: 'padded\t' } }), 400, 10025, { offendingTag: 'padded\t' });
    assertAsmError(await asm('POST', path, { body: { name: '' } }), 400, 10026);
    assertAsmError(await asm('POST', path, { body: { name: '   ' } }), 400, 10026);
    assert.equal((await asm('POST', path, { body: { name: 'Critical' } })).status, 200);
    assertAsmError(await asm('POST', path, { body: { name: 'critical' } }), 400, 10027, { label: 'critical', similarLabels: ['Critical'] });
    assertAsmError(await asm('POST', `/api/v1/assets/certificates/${SHA_A}/tags`, { body: { name: 'CRITICAL' } }), 400, 10027);
    const long = 'x'.repeat(129);
    assertAsmError(await asm('POST', path, { body: { name: long } }), 400, 10028, { maxLength: 128, offendingTag: long });
    assert.equal((await asm('POST', path, { body: { name: 'y'.repeat(128) } })).status, 200);
    assertAsmError(await asm('POST', path, { body: { name: 'c', color: '#ffffff0' } }), 400, 10034, { maxLength: 7, offendingColor: '#ffffff0' });
    assertAsmError(await asm('POST', path, { body: { name: 'c', color: ' #fff' } }), 400, 10036, { offendingColor: ' #fff' });
    assertAsmError(await asm('POST', path, { body: { name: 'c', color: 'red' } }), 400, 10037, { color: 'red' });
    assertAsmError(await asm('POST', path, { body: { name: 'c', color: '#ggg' } }), 400, 10037);
    assertAsmError(await asm('POST', path, { body: { color: '#fff' } }), 400, 10008);
    assertAsmError(await asm('POST', path, { body: { name: 7 } }), 400, 10008);
    // Nothing was created by the refused requests.
    const labels = (await asm('GET', `/api/v1/assets/hosts/${HOST_A}`)).json.tags.map((t: any) => t.name);
    assert.deepEqual(labels, ['Critical', 'y'.repeat(128)]);
  });
});
