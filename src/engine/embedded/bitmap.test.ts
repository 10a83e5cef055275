import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RoaringBitmap32, unionMany } from './bitmap.ts';

describe('unionMany', () => {
  it('equals orMany for few and many bitmaps, empty ones and ids up to 2^32 - 1, leaving its inputs as they were', () => {
    const ids = fc.oneof(fc.nat(5000), fc.integer({ min: 2 ** 32 - 70_000, max: 2 ** 32 - 1 }), fc.nat(2 ** 20));
    const bitmap = fc.oneof(fc.array(ids, { maxLength: 60 }), fc.constant([] as number[])).map((a) => RoaringBitmap32.from(a));
    fc.assert(
      fc.property(fc.oneof(fc.array(bitmap, { maxLength: 5 }), fc.array(bitmap, { minLength: 30, maxLength: 90 })), (bitmaps) => {
        const before = bitmaps.map((b) => b.toArray());
        const got = unionMany(bitmaps);
        assert.deepEqual(got.toArray(), RoaringBitmap32.orMany(bitmaps).toArray());
        assert.deepEqual(bitmaps.map((b) => b.toArray()), before);
        // A new bitmap: writing it leaves the inputs alone.
        got.add(4242);
        assert.deepEqual(bitmaps.map((b) => b.toArray()), before);
      }),
      { numRuns: 200 },
    );
  });

  it('unions dense spans into normalised containers (arrays where they are small)', () => {
    const bitmaps = Array.from({ length: 64 }, (_, i) => RoaringBitmap32.fromRange(i * 1000, i * 1000 + 40));
    const got = unionMany(bitmaps);
    assert.equal(got.size, 64 * 40);
    assert.equal(got.statistics().bitsetContainers, 0);
  });
});
