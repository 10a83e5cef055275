import { test } from 'node:test';
import assert from 'node:assert/strict';
import { derToPem, pemToDer } from './pem.ts';

const a = Uint8Array.from([0x30, 0x03, 0x02, 0x01, 0x05]);
const b = Uint8Array.from(Array.from({ length: 200 }, (_, i) => i));

test('every certificate block of a bundle, text around and between ignored', () => {
  const text = `subject=CN = one\nissuer=CN = one\n${derToPem(a)}\nsome comment\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\r\n${derToPem(b).replace(/\n/g, '\r\n')}trailing`;
  const r = pemToDer(text);
  assert.ok(r.ok);
  assert.deepEqual(r.ders.map((d) => Array.from(d)), [Array.from(a), Array.from(b)]);
});

test('derToPem wraps base64 at 64 columns', () => {
  const lines = derToPem(b).trim().split('\n');
  assert.equal(lines[0], '-----BEGIN CERTIFICATE-----');
  assert.equal(lines.at(-1), '-----END CERTIFICATE-----');
  assert.ok(lines.slice(1, -1).every((l) => l.length <= 64));
  assert.equal(lines[1].length, 64);
});

test('no blocks → empty list; legacy labels accepted', () => {
  assert.deepEqual(pemToDer('nothing here'), { ok: true, ders: [] });
  const r = pemToDer(derToPem(a).replace(/CERTIFICATE/g, 'TRUSTED CERTIFICATE'));
  assert.ok(r.ok && r.ders.length === 1);
});

test('malformed PEM gives an error naming the block', () => {
  const unterminated = pemToDer('-----BEGIN CERTIFICATE-----\nMAMCAQU=\n');
  assert.equal(unterminated.ok, false);
  if (!unterminated.ok) assert.match(unterminated.error, /no END line/);
  const bad = pemToDer('x\n-----BEGIN CERTIFICATE-----\nMAM*AQU=\n-----END CERTIFICATE-----\n');
  assert.equal(bad.ok, false);
  if (!bad.ok) assert.match(bad.error, /line 2.*base64/);
  const empty = pemToDer('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n');
  assert.equal(empty.ok, false);
  const mismatched = pemToDer('-----BEGIN CERTIFICATE-----\nMAMCAQU=\n-----END PRIVATE KEY-----\n');
  assert.equal(mismatched.ok, false);
});
