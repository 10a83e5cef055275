import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { radixSorted } from './radix-sort.ts';

describe('radixSorted', () => {
  it('sorts ids below any bound like a numeric sort, leaving the input as it was', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 5000 }), fc.integer({ min: 2 ** 22 - 3, max: 2 ** 23 }), fc.constant(2 ** 32)),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { maxLength: 300 }),
        (bound, fractions) => {
          const ids = Uint32Array.from(fractions, (f) => Math.floor(f * bound));
          const before = Array.from(ids);
          const got = Array.from(radixSorted(ids, bound));
          assert.deepEqual(got, [...before].sort((a, b) => a - b));
          assert.deepEqual(Array.from(ids), before);
        },
      ),
    );
  });
});
