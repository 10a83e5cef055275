import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sortByKey } from './sort-by-key.ts';

describe('sortByKey', () => {
  it('orders pairs by key and keeps the order of equal keys, for keys of any width', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(fc.nat(20), fc.nat(5000), fc.nat(0xffffffff)), fc.nat()), { maxLength: 300 }), (pairs) => {
        // Entries past n (a growable column's spare capacity) are no part of the sort.
        const keys = new Uint32Array(pairs.length + 3).fill(7);
        const values = new Uint32Array(pairs.length + 3).fill(7);
        pairs.forEach(([k], i) => {
          keys[i] = k;
          values[i] = i;
        });
        const [k, v] = sortByKey(keys, values, pairs.length);
        const want = pairs.map(([key], i) => [key, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        assert.deepEqual(Array.from(k.subarray(0, pairs.length)), want.map((p) => p[0]));
        assert.deepEqual(Array.from(v.subarray(0, pairs.length)), want.map((p) => p[1]));
      }),
      { numRuns: 200 },
    );
  });
});
