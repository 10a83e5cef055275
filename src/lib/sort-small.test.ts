import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sortSmall, sortStrings } from './sort-small.ts';

test('sortStrings orders as Array.prototype.sort, short arrays and long', () => {
  // Code units that sort differently from code points (surrogates against U+FFxx), digits, '_' and capitals.
  const text = fc.string({ unit: fc.constantFrom('a', 'B', '_', '1', '\uffef', '\ud83d', '\ude00', 'é'), maxLength: 4 });
  fc.assert(
    fc.property(fc.array(text, { maxLength: 60 }), (a) => {
      const expected = [...a].sort();
      const copy = [...a];
      assert.equal(sortStrings(copy), copy);
      assert.deepEqual(copy, expected);
    }),
    { numRuns: 2000 },
  );
});

test('sortSmall is the stable sort of Array.prototype.sort with the same comparator', () => {
  fc.assert(
    fc.property(fc.array(fc.record({ key: fc.integer({ min: 0, max: 5 }), tag: fc.nat() }), { maxLength: 60 }), (a) => {
      const byKey = (x: { key: number }, y: { key: number }) => x.key - y.key;
      const copy = [...a];
      assert.equal(sortSmall(copy, byKey), copy);
      assert.deepEqual(copy, [...a].sort(byKey));
    }),
    { numRuns: 2000 },
  );
});
