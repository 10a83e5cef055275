import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import type { SearchEngine } from '../../engine/search-engine.ts';
import { registerEngineWarmer } from './warm-engine.ts';
import { startTestServer } from '../../../test/support/test-server.ts';

test('the engine warm-up starts when the server is ready and is stopped and awaited on close', async () => {
  const events: string[] = [];
  let signal: AbortSignal | undefined;
  const engine = {
    warm(s: AbortSignal) {
      signal = s;
      events.push('warm');
      // Warms until told to stop, a turn at a time, as the embedded engine does.
      return new Promise<void>((resolve) => s.addEventListener('abort', () => setImmediate(() => (events.push('stopped'), resolve()))));
    },
  } as unknown as SearchEngine;
  const app = Fastify({ logger: false });
  registerEngineWarmer(app, engine);
  assert.deepEqual(events, []);
  await app.ready();
  assert.deepEqual(events, ['warm']);
  assert.equal(signal?.aborted, false);
  await app.close();
  assert.deepEqual(events, ['warm', 'stopped']);
  await app.engineWarming();
});

test('an engine without warm-up is left alone', async () => {
  const app = Fastify({ logger: false });
  registerEngineWarmer(app, {} as SearchEngine);
  await app.ready();
  await app.engineWarming();
  await app.close();
});

test('a served app warms its engine at ready and answers while and after it does', { timeout: 120_000 }, async () => {
  const server = await startTestServer({ hosts: 60, certificates: 10 });
  try {
    const search = () =>
      server.app.inject({ method: 'GET', url: '/api/v2/hosts/search?q=' + encodeURIComponent('services.banner: "nginx"'), headers: { authorization: server.basic() } });
    await server.app.ready();
    const during = await search();
    await server.app.engineWarming();
    const after = await search();
    assert.equal(during.statusCode, 200, during.body);
    const hits = (r: typeof during) => ({ total: r.json().result.total, hits: r.json().result.hits });
    assert.deepEqual(hits(after), hits(during));
    assert.ok(hits(after).total > 0);
  } finally {
    await server.close();
  }
});
