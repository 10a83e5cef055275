/**
 * The bench's pure helpers (options, statistics, the correctness gate). Not discovered by
 * `npm test` (it scans src/ and test/); run with `node --import tsx --test bench/*.test.ts`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOptions } from './parse-options.ts';
import { geomean, percentile, summarize } from './timing.ts';
import { compareBuckets, compareSearch } from './check-agreement.ts';

test('parseOptions: defaults and flags', () => {
  const d = parseOptions([]);
  assert.ok(d.ok);
  assert.equal(d.options.hosts, 1_000_000);
  assert.deepEqual(d.options.engines, ['periscope', 'duckdb', 'postgres', 'sqlite']);
  const o = parseOptions(['--hosts', '20_000', '--engines', 'duckdb,sqlite', '--runs', '5', '--http', '--out', 'x.json']);
  assert.ok(o.ok);
  assert.equal(o.options.hosts, 20000);
  // Periscope is the gate's reference, so it is always loaded.
  assert.deepEqual(o.options.engines, ['periscope', 'duckdb', 'sqlite']);
  assert.equal(o.options.runs, 5);
  assert.equal(o.options.http, true);
  assert.equal(o.options.out, 'x.json');
  assert.equal(o.options.dataDir, undefined);
  const kept = parseOptions(['--http', '--data-dir', '/tmp/kept']);
  assert.ok(kept.ok);
  assert.equal(kept.options.dataDir, '/tmp/kept');
});

test('parseOptions: errors are values', () => {
  assert.equal(parseOptions(['--engines', 'mysql']).ok, false);
  assert.equal(parseOptions(['--hosts', '0']).ok, false);
  assert.equal(parseOptions(['--hosts', 'many']).ok, false);
  assert.equal(parseOptions(['--frobnicate']).ok, false);
  assert.equal(parseOptions(['--http', '--data-dir']).ok, false);
});

test('percentile is nearest-rank; summarize and geomean', () => {
  const s = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentile(s, 50), 50);
  assert.equal(percentile(s, 99), 99);
  assert.equal(percentile([1, 2, 3], 99), 3);
  const t = summarize([5, 1, 3]);
  assert.deepEqual([t.runs, t.p50, t.min, t.max], [3, 3, 1, 5]);
  assert.ok(Math.abs(geomean([1, 100]) - 10) < 1e-9);
  assert.ok(Number.isNaN(geomean([])));
});

test('the gate reports count, id and bucket differences', () => {
  assert.deepEqual(compareSearch('q', 'e', { count: 2, ids: ['a', 'b'] }, { count: 2, ids: ['a', 'b'] }), []);
  const m = compareSearch('q', 'e', { count: 2, ids: ['a', 'b'] }, { count: 3, ids: ['a', 'c'] });
  assert.equal(m.length, 2);
  assert.match(m[0]!.detail, /count 3, periscope 2/);
  assert.match(m[1]!.detail, /id #2 is c, periscope b/);
  assert.deepEqual(compareBuckets('a', 'e', [{ key: '80', count: 3 }], [{ key: '80', count: 3 }]), []);
  assert.match(compareBuckets('a', 'e', [{ key: '80', count: 3 }], [{ key: '80', count: 2 }])[0]!.detail, /bucket #1 is 80=2, periscope 80=3/);
  assert.match(compareBuckets('a', 'e', [{ key: '80', count: 3 }], [])[0]!.detail, /\(none\)/);
});
