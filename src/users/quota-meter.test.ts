import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { QuotaRepository, Store } from '../store/store.ts';
import { QuotaMeter } from './quota-meter.ts';

/** A quota repository in memory that records its calls, and can be made to fail. */
function fakeStore(initial: Record<string, number> = {}) {
  const used = new Map(Object.entries(initial));
  const calls: string[] = [];
  let failing = false;
  const quota: QuotaRepository = {
    async used(userId, period) {
      calls.push(`used ${userId}`);
      return used.get(`${userId}/${period}`) ?? 0;
    },
    async add(userId, period, n) {
      calls.push(`add ${userId} ${n}`);
      await new Promise((r) => setImmediate(r));
      if (failing) throw new Error('database is locked');
      const total = (used.get(`${userId}/${period}`) ?? 0) + n;
      used.set(`${userId}/${period}`, total);
      return total;
    },
  };
  return { store: { quota } as unknown as Store, used, calls, fail: (f: boolean) => (failing = f) };
}

test('counts in memory from the stored total and writes the sum in one statement', async () => {
  const f = fakeStore({ 'u/2026-11': 7 });
  const m = new QuotaMeter(f.store, 60_000);
  const taken = await Promise.all(Array.from({ length: 5 }, () => m.take('u', '2026-11', 20)));
  assert.deepEqual(taken, [true, true, true, true, true]);
  assert.equal(await m.used('u', '2026-11'), 12);
  assert.deepEqual(f.calls, ['used u']);
  await m.flush('u');
  assert.deepEqual(f.calls, ['used u', 'add u 5']);
  assert.equal(f.used.get('u/2026-11'), 12);
  await m.flush();
  assert.equal(f.calls.length, 2);
});

test('refuses queries past the allowance, counting none of them', async () => {
  const f = fakeStore({ 'u/2026-11': 2 });
  const m = new QuotaMeter(f.store, 60_000);
  const taken = await Promise.all(Array.from({ length: 4 }, () => m.take('u', '2026-11', 3)));
  assert.deepEqual(taken, [true, false, false, false]);
  await m.flush();
  assert.equal(f.used.get('u/2026-11'), 3);
});

test('a failed write keeps its counts for the next one; flushing one user leaves the others', async () => {
  const f = fakeStore();
  const m = new QuotaMeter(f.store, 60_000);
  await m.take('a', 'p', 10);
  await m.take('b', 'p', 10);
  f.fail(true);
  await assert.rejects(m.flush('a'), /locked/);
  assert.equal(await m.used('a', 'p'), 1);
  f.fail(false);
  await m.take('a', 'p', 10);
  await m.flush('a');
  assert.equal(f.used.get('a/p'), 2);
  assert.equal(f.used.get('b/p'), undefined);
  await m.flush();
  assert.equal(f.used.get('b/p'), 1);
});

test('writes on its own after the flush interval', async () => {
  const f = fakeStore();
  const m = new QuotaMeter(f.store, 5);
  await m.take('a', 'p', 10);
  await m.take('a', 'p', 10);
  for (let i = 0; i < 100 && f.used.get('a/p') !== 2; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(f.used.get('a/p'), 2);
});
