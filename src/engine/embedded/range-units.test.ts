import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FieldType } from '../../model/field-def.ts';
import type { Leaf } from '../../model/values-of.ts';
import { RangeUnits, rangeUnits } from './range-units.ts';
import { Slot } from './slot.ts';

/** The units of positions [from, to) of the slot's sorted groups, from the posting table. */
function expected(slot: Slot, type: FieldType, from: number, to: number): number[] {
  const view = slot.view(type);
  const ords: number[] = [];
  for (const g of view.sortedGroups().subarray(from, to)) view.pushOrds(g, ords);
  return Array.from(slot.postings.union(ords).toUint32Array());
}

describe('RangeUnits', () => {
  it('slices the units of a range of sorted groups, from whole blocks and ragged ends, as units are added, values reordered, and after compaction', () => {
    const leaf = fc.oneof(
      fc.nat(40).map((n) => `10.0.${n % 3}.${n}`),
      fc.nat(40).map((n) => `::ffff:10.0.${n % 3}.${n}`),
      fc.constantFrom('2001:db8::1', '::1', 'not an address', 7),
    );
    fc.assert(
      fc.property(
        // Per unit: its leaves, a range to query after it (as fractions of the groups), whether to compact.
        fc.array(fc.tuple(fc.array(leaf, { maxLength: 3 }), fc.option(fc.tuple(fc.nat(100), fc.nat(100))), fc.nat(14)), { minLength: 1, maxLength: 60 }),
        fc.nat(6),
        // Blocks of a few entries, so that slices cover several whole blocks and ragged ends.
        fc.integer({ min: 1, max: 8 }),
        (steps, minTail, blockSize) => {
          const slot = new Slot('ip');
          let units: RangeUnits | undefined;
          steps.forEach(([leaves, range, compact], unit) => {
            slot.addUnit(unit, leaves as Leaf[]);
            if (compact === 0) {
              const alive = new Uint8Array(unit + 1).fill(1);
              for (let u = unit % 2; u <= unit; u += 2) alive[u] = 0;
              slot.compact(alive);
            }
            if (!range) return;
            const view = slot.view('ip');
            if (!units?.fits(slot, view)) units = new RangeUnits(slot.fwdUnit, view, minTail, blockSize);
            const groups = view.sortedGroups().length;
            const [a, b] = range.map((r) => Math.floor((r * groups) / 100)).sort((x, y) => x - y);
            const got = Array.from(units.unitsIn(slot, a, b, unit + 1).toUint32Array());
            assert.deepEqual(got, expected(slot, 'ip', a, b));
          });
        },
      ),
    );
  });

  it('is rebuilt once the tail grows, and started over when the slot is compacted', () => {
    const slot = new Slot('t');
    const n = 20000;
    for (let u = 0; u < n; u++) slot.addUnit(u, [(u * 7919) % n]);
    const view = slot.view('int');
    const first = rangeUnits(slot, view);
    assert.deepEqual(Array.from(first.unitsIn(slot, 100, 5000, n).toUint32Array()), expected(slot, 'int', 100, 5000));
    for (let u = n; u < 2 * n; u++) slot.addUnit(u, [u % 3 === 0 ? u : -u]);
    const grown = slot.view('int');
    assert.equal(rangeUnits(slot, grown), first);
    const groups = grown.sortedGroups().length;
    assert.deepEqual(Array.from(first.unitsIn(slot, 10, groups - 10, 2 * n).toUint32Array()), expected(slot, 'int', 10, groups - 10));
    const alive = new Uint8Array(2 * n).fill(1);
    alive.fill(0, 0, n / 2);
    slot.compact(alive);
    const compacted = rangeUnits(slot, slot.view('int'));
    assert.notEqual(compacted, first);
    assert.deepEqual(Array.from(compacted.unitsIn(slot, 0, 3000, 2 * n).toUint32Array()), expected(slot, 'int', 0, 3000));
  });
});
