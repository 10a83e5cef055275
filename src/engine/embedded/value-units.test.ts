import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Slot } from './slot.ts';
import { ValueUnits } from './value-units.ts';

describe('ValueUnits', () => {
  it('maps value ordinals to the units the posting table gives, as units are added and after compaction', () => {
    fc.assert(
      fc.property(
        // Per unit: its leaves, whether to query after it, which ordinals, and whether to compact.
        fc.array(fc.tuple(fc.array(fc.nat(12), { maxLength: 3 }), fc.boolean(), fc.array(fc.nat(12)), fc.nat(9)), { minLength: 1, maxLength: 40 }),
        (steps) => {
          const slot = new Slot('p');
          steps.forEach(([leaves, query, wanted, compact], unit) => {
            slot.addUnit(unit, leaves.map(String));
            if (compact === 0) {
              const alive = new Uint8Array(unit + 1).fill(1);
              for (let u = 0; u <= unit; u += 3) alive[u] = 0;
              slot.compact(alive);
            }
            if (!query) return;
            const ords = Uint32Array.from(new Set(wanted.filter((v) => v < slot.values.length))).sort();
            const got = Array.from(ValueUnits.unitsOf(slot, ords).toUint32Array());
            assert.deepEqual(got, Array.from(slot.postings.union(ords).toUint32Array()));
          });
        },
      ),
    );
  });
});
