/**
 * The door of the inventory routes: the rate limit and a wrong key keep the standard ASM shape
 * (clients map 10039 and 10001 by errorCode and retry 10039), while the inventory's own errors
 * use `{error, statusCode, details}`.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { asmCaller, isAsmError } from './asm-support.ts';

let s: TestServer;
const asm = asmCaller(() => s);

before(async () => {
  s = await startTestServer({ hosts: 5, certificates: 2, rateLimit: { requests: 3, windowSeconds: 60 } });
});
after(async () => {
  await s?.close();
});

test('10001 and 10039 in the ASM shape on inventory routes; inventory errors in their own', async () => {
  const wrong = await asm('GET', '/api/inventory/v1/saved-query', { key: 'nope' });
  assert.equal(wrong.status, 401);
  assert.ok(isAsmError(wrong.json));
  assert.equal(wrong.json.errorCode, 10001);
  const bad = await asm('GET', '/api/inventory/v1?query=(');
  assert.equal(bad.status, 400);
  assert.deepEqual(Object.keys(bad.json).sort(), ['details', 'error', 'statusCode']);
  assert.equal((await asm('GET', '/api/inventory/v1/fields?fields=type')).status, 200);
  assert.equal((await asm('GET', '/api/v1/clouds/unknownCounts')).status, 200);
  const limited = await asm('GET', '/api/inventory/v1');
  assert.equal(limited.status, 429);
  assert.ok(isAsmError(limited.json));
  assert.equal(limited.json.errorCode, 10039);
  assert.match(String(limited.headers['retry-after']), /^\d+$/);
});
