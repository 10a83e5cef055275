/** Rate limit and body size limit, on a server configured tightly for the test. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer({ hosts: 20, certificates: 10, rateLimit: { requests: 3, windowSeconds: 30 }, bodyLimit: 2048 });
});
after(async () => {
  await s?.close();
});

test('the per-user rate limit answers 429 with an integer Retry-After', async () => {
  const statuses: number[] = [];
  let retryAfter: string | undefined;
  for (let i = 0; i < 5; i++) {
    const r = await s.app.inject({ method: 'GET', url: '/api/v2/tags', headers: { authorization: s.basic() } });
    statuses.push(r.statusCode);
    if (r.statusCode === 429) {
      retryAfter = String(r.headers['retry-after']);
      assert.equal(JSON.parse(r.body).code, 429);
    }
  }
  assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
  assert.match(retryAfter!, /^\d+$/);
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 30);
  // Another user has a budget of its own.
  const other = await s.app.inject({ method: 'GET', url: '/api/v2/tags', headers: { authorization: s.basic(s.other) } });
  assert.equal(other.statusCode, 200);
});

test('a body over the limit is 413 JSON', async () => {
  const r = await s.app.inject({
    method: 'POST',
    url: '/api/v2/hosts/search',
    headers: { authorization: s.basic(s.other), 'content-type': 'application/json' },
    payload: JSON.stringify({ q: 'x'.repeat(5000) }),
  });
  assert.equal(r.statusCode, 413);
  assert.equal(JSON.parse(r.body).code, 413);
});
