import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RoaringBitmap32 } from './bitmap.ts';
import { maskOf, PostingTable } from './posting-table.ts';

describe('PostingTable', () => {
  it('holds exactly the ids added, through every representation and with reads in between', () => {
    fc.assert(
      fc.property(
        // Per step: which ordinals the next id goes to (ids ascend), and whether to read now.
        fc.array(fc.tuple(fc.uniqueArray(fc.nat(5), { maxLength: 3 }), fc.nat(3), fc.boolean()), { maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        (steps, stride) => {
          const table = new PostingTable();
          const model = new Map<number, number[]>();
          let id = 0;
          const check = (): void => {
            for (let ord = 0; ord < 6; ord++) {
              const want = model.get(ord) ?? [];
              assert.deepEqual(table.bitmap(ord).toArray(), want);
              assert.equal(table.has(ord), want.length > 0);
              const within = RoaringBitmap32.from(want.filter((x) => x % 3 === 0));
              assert.equal(table.countIn(ord, within, maskOf(within, id + 1)), within.size);
            }
          };
          for (const [ords, repeat, read] of steps) {
            // Many ids per step so lists cross the promotion and flush thresholds.
            for (let k = 0; k < stride * 20; k++, id++) {
              for (const ord of ords) {
                for (let r = 0; r <= repeat; r++) table.add(ord, id);
                const list = model.get(ord) ?? [];
                list.push(id);
                model.set(ord, list);
              }
            }
            if (read) check();
          }
          check();
          assert.deepEqual(table.union([0, 1, 2, 3, 4, 5]).toArray(), [...new Set([...model.values()].flat())].sort((a, b) => a - b));
        },
      ),
      { numRuns: 60 },
    );
  });
});
