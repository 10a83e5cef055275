import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDateValue } from './parse-date.ts';

const now = new Date('2024-05-15T12:34:56.789Z'); // a Wednesday
const ms = (iso: string): number => Date.parse(iso);

test('absolute dates name periods, times name instants', () => {
  assert.deepEqual(parseDateValue('2021-03-01', now), { start: ms('2021-03-01T00:00:00Z'), end: ms('2021-03-02T00:00:00Z') });
  assert.deepEqual(parseDateValue('2021-02', now), { start: ms('2021-02-01T00:00:00Z'), end: ms('2021-03-01T00:00:00Z') });
  assert.deepEqual(parseDateValue('2020', now), { start: ms('2020-01-01T00:00:00Z'), end: ms('2021-01-01T00:00:00Z') });
  assert.deepEqual(parseDateValue('2021-03-01T10:20Z', now), { start: ms('2021-03-01T10:20:00Z') });
  assert.deepEqual(parseDateValue('2021-03-01T10:20:30', now), { start: ms('2021-03-01T10:20:30Z') });
  assert.deepEqual(parseDateValue('2021-03-01T10:20:30.123456789Z', now), { start: ms('2021-03-01T10:20:30.123Z') });
  assert.deepEqual(parseDateValue('2021-03-01T10:20:30.5+02:00', now), { start: ms('2021-03-01T08:20:30.500Z') });
  assert.deepEqual(parseDateValue('2021-03-01t10:20:30-0130', now), { start: ms('2021-03-01T11:50:30Z') });
  assert.deepEqual(parseDateValue('2021-03-01 10:20:30Z', now), { start: ms('2021-03-01T10:20:30Z') });
  assert.equal(parseDateValue('0050-01-01', now)?.start, ms('0050-01-01T00:00:00Z'));
});

test('now arithmetic and rounding', () => {
  const t = now.getTime();
  assert.deepEqual(parseDateValue('now', now), { start: t });
  assert.deepEqual(parseDateValue('NOW', now), { start: t });
  assert.deepEqual(parseDateValue('now-24h', now), { start: t - 86_400_000 });
  assert.deepEqual(parseDateValue('now+1d', now), { start: t + 86_400_000 });
  assert.deepEqual(parseDateValue('now-1w', now), { start: t - 7 * 86_400_000 });
  assert.deepEqual(parseDateValue('now-30m+5s', now), { start: t - 30 * 60_000 + 5000 });
  assert.deepEqual(parseDateValue('now-2H', now), { start: t - 2 * 3_600_000 });
  assert.deepEqual(parseDateValue('now-1M', now), { start: ms('2024-04-15T12:34:56.789Z') });
  assert.deepEqual(parseDateValue('now+1y', now), { start: ms('2025-05-15T12:34:56.789Z') });
  assert.deepEqual(parseDateValue('now/d', now), { start: ms('2024-05-15T00:00:00Z'), end: ms('2024-05-16T00:00:00Z') });
  assert.deepEqual(parseDateValue('now-1d/d', now), { start: ms('2024-05-14T00:00:00Z'), end: ms('2024-05-15T00:00:00Z') });
  assert.deepEqual(parseDateValue('now/w', now), { start: ms('2024-05-13T00:00:00Z'), end: ms('2024-05-20T00:00:00Z') });
  assert.deepEqual(parseDateValue('now/M', now), { start: ms('2024-05-01T00:00:00Z'), end: ms('2024-06-01T00:00:00Z') });
  assert.deepEqual(parseDateValue('now/y', now), { start: ms('2024-01-01T00:00:00Z'), end: ms('2025-01-01T00:00:00Z') });
  assert.deepEqual(parseDateValue('now/h', now), { start: ms('2024-05-15T12:00:00Z'), end: ms('2024-05-15T13:00:00Z') });
  assert.deepEqual(parseDateValue('now/m', now), { start: ms('2024-05-15T12:34:00Z'), end: ms('2024-05-15T12:35:00Z') });
  assert.deepEqual(parseDateValue('now/s', now), { start: ms('2024-05-15T12:34:56Z'), end: ms('2024-05-15T12:34:57Z') });
  assert.deepEqual(parseDateValue('2021-01-31||+1d', now), { start: ms('2021-02-01T00:00:00Z'), end: ms('2021-02-02T00:00:00Z') });
  assert.deepEqual(parseDateValue('2021-01-01T05:00:00Z||-5h', now), { start: ms('2021-01-01T00:00:00Z') });
});

test('invalid dates are rejected', () => {
  for (const bad of [
    '',
    'yesterday',
    '2021-13-01',
    '2021-02-30',
    '2021-02-29',
    '2021-03-01T24:00Z',
    '2021-03-01T10:60Z',
    '2021-03-01T10:00:00+25:00',
    '2021-3-1',
    '21-03-01',
    'now-',
    'now-1x',
    'now-h',
    'now/',
    'now/dd',
    'now/d-1d',
    'nowhere',
    '2021-01-01||',
    'now-999999999y',
    '12345',
    '2021-03-01T10:00:00.1234567890Z',
  ]) {
    assert.equal(parseDateValue(bad, now), undefined, bad);
  }
  assert.ok(parseDateValue('2024-02-29', now));
});
