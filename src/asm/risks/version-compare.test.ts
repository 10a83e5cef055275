import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareVersions, inRange } from './index.ts';

test('versions order numerically with suffixes after their base', () => {
  const sorted = ['1.0.1', '1.0.1f', '1.0.1g', '1.0.2', '1.3.5', '1.3.5a', '1.3.5e', '2.4.9', '2.4.10', '8.5', '8.5p1', '8.9p1', '9.8p1', '10.0'];
  for (let i = 1; i < sorted.length; i++) assert.equal(compareVersions(sorted[i - 1], sorted[i]), -1, `${sorted[i - 1]} < ${sorted[i]}`);
  assert.equal(compareVersions('2.4.49', '2.4.49'), 0);
  assert.equal(compareVersions('10.0', '9.99'), 1);
});

test('ranges: exact values, inclusive start, exclusive end', () => {
  assert.ok(inRange('9.7p1', { from: '8.5p1', below: '9.8p1' }));
  assert.ok(!inRange('9.8p1', { from: '8.5p1', below: '9.8p1' }));
  assert.ok(inRange('8.5p1', { from: '8.5p1', below: '9.8p1' }));
  assert.ok(!inRange('8.4p1', { from: '8.5p1', below: '9.8p1' }));
  assert.ok(inRange('2.4.50', { exact: ['2.4.49', '2.4.50'] }));
  assert.ok(!inRange('2.4.5', { exact: ['2.4.49', '2.4.50'] }));
  assert.ok(inRange('0.1', { below: '1.0' }));
});
