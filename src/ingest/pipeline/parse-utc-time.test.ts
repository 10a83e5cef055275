import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTimestamp } from '../../lib/time.ts';
import { parseUtcTime } from './parse-utc-time.ts';

test('parseUtcTime answers as parseTimestamp does', () => {
  const cases = [
    '2026-10-27T16:42:27.396Z', '2026-10-27T16:42:27Z', '2026-10-27T16:42:27.3Z', '2026-10-27T16:42:27.123456789Z',
    '2026-10-27T16:42:27.1234567890Z', '2026-10-27T16:42:27.Z', '2026-10-27T16:42:27,5Z', '2024-02-29T00:00:00Z',
    '2025-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2026-13-01T00:00:00Z', '2026-00-01T00:00:00Z', '2026-01-00T00:00:00Z',
    '2026-01-01T24:00:00Z', '2026-01-01T23:60:00Z', '2026-12-31T23:59:60Z', '0099-01-01T00:00:00Z', '0000-01-01T00:00:00.5Z',
    '2026-01-01t00:00:00Z', '2026-01-01T00:00:00z', '2026-01-01 00:00:00Z', '2026-01-01T00:00:00+02:00', '2026-01-01T00:00Z',
    '2026-01-01', ' 2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z ', '2026-1-01T00:00:00.000Z', '20a6-01-01T00:00:00Z',
    '2026-01-01T00:00:0aZ', '2026-01-01T00:00:00.1a3Z', '', 'Z', '+02026-01-01T00:00:00Z',
  ];
  for (const c of cases) assert.equal(parseUtcTime(c), parseTimestamp(c), c);
  // Random times and random damage to them.
  let seed = 7;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
  for (let i = 0; i < 20_000; i++) {
    let t = new Date(rand(2 ** 31) * 1000 + rand(1000)).toISOString();
    if (i % 3 === 1) t = t.slice(0, 19) + (rand(2) ? 'Z' : '.' + '123456789'.slice(0, 1 + rand(9)) + 'Z');
    if (i % 3 === 2) {
      const at = rand(t.length);
      t = t.slice(0, at) + '0123456789-:.TZ '[rand(16)] + t.slice(at + 1);
    }
    assert.equal(parseUtcTime(t), parseTimestamp(t), t);
  }
});

test('times read back as they were written, years 0-99 included (not as 1900-1999)', () => {
  for (const text of ['0000-02-29T00:00:00.000Z', '0001-01-01T00:00:00.000Z', '0099-12-31T23:59:59.999Z', '0100-03-01T12:00:00.000Z', '1970-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
    const ms = Date.parse(text);
    assert.equal(new Date(ms).toISOString(), text);
    assert.equal(parseTimestamp(text), ms, text);
    assert.equal(parseUtcTime(text), ms, text);
  }
  assert.equal(parseTimestamp('0001-01-01T01:00:00+01:00'), Date.parse('0001-01-01T00:00:00.000Z'));
});
