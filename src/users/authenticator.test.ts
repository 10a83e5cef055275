import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store, User } from '../store/store.ts';
import { Authenticator } from './accounts.ts';
import { hashSecret } from './credentials.ts';

function fakeStore(users: User[]) {
  let lookups = 0;
  const store = {
    users: {
      async byApiId(apiId: string) {
        lookups++;
        return users.find((u) => u.apiId === apiId);
      },
    },
  } as unknown as Store;
  return { store, lookups: () => lookups };
}

const ana = { id: 'u1', apiId: 'id-ana', apiSecretHash: hashSecret('right') } as User;

test('a verified id and secret are remembered; any other secret is checked, and refused', async () => {
  const f = fakeStore([ana]);
  const auth = new Authenticator(f.store);
  assert.equal(await auth.basic('id-ana', 'right'), ana);
  assert.equal(await auth.basic('id-ana', 'right'), ana);
  assert.equal(f.lookups(), 1);
  assert.equal(await auth.basic('id-ana', 'wrong'), undefined);
  assert.equal(await auth.basic('id-ana', 'righ'), undefined);
  assert.equal(await auth.basic('id-bob', 'right'), undefined);
  assert.equal(await auth.basic('id-ana', 'right'), ana);
  assert.equal(f.lookups(), 4);
});

test('forget drops what was remembered of a user; entries expire', async () => {
  const f = fakeStore([ana]);
  const auth = new Authenticator(f.store, 20);
  await auth.basic('id-ana', 'right');
  auth.forget('id-ana');
  await auth.basic('id-ana', 'right');
  assert.equal(f.lookups(), 2);
  await new Promise((r) => setTimeout(r, 30));
  await auth.basic('id-ana', 'right');
  assert.equal(f.lookups(), 3);
});
