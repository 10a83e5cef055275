import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogueFor } from '../model/field-catalogue.ts';
import type { SearchContext } from './search-context.ts';
import { compile } from './compile.ts';

function context(now: () => Date): SearchContext {
  return { catalogues: { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') }, now } as unknown as SearchContext;
}

test('the same query text compiles once per catalogue and virtual-host mode', () => {
  const ctx = context(() => new Date('2026-01-01T00:00:00Z'));
  const a = compile(ctx, 'hosts', 'services.port: 22', 'EXCLUDE');
  assert.ok(a.ok);
  assert.equal(compile(ctx, 'hosts', 'services.port: 22', 'EXCLUDE'), a);
  assert.notEqual(compile(ctx, 'hosts', 'services.port: 22', 'INCLUDE'), a);
  const bad = compile(ctx, 'hosts', 'services.port: (', 'EXCLUDE');
  assert.equal(bad.ok, false);
  assert.equal(compile(ctx, 'hosts', 'services.port: (', 'EXCLUDE'), bad);
});

test('queries that may mention now follow the clock', () => {
  let now = new Date('2026-01-01T00:00:00Z');
  const ctx = context(() => now);
  const first = compile(ctx, 'hosts', 'last_updated_at: [now-1d TO now]');
  now = new Date('2026-02-01T00:00:00Z');
  const second = compile(ctx, 'hosts', 'last_updated_at: [now-1d TO now]');
  assert.ok(first.ok && second.ok);
  assert.notDeepEqual(first.value, second.value);
});
