import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newSecret, hashSecret, verifySecret } from './credentials.ts';

test('secrets are 32 base64url characters that a command line never reads as an option', () => {
  // One in 64 started with '-' before: 10,000 would have shown it.
  for (let i = 0; i < 10_000; i++) {
    const s = newSecret();
    assert.match(s, /^[A-Za-z0-9_][A-Za-z0-9_-]{31}$/);
  }
  const s = newSecret();
  assert.ok(verifySecret(s, hashSecret(s)));
});
