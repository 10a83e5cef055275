import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sortByteStrings } from './byte-sort.ts';

/** Entries laid out one after another, as sortByteStrings reads them. */
function layout(entries: readonly Uint8Array[]): { bytes: Uint8Array; at: Uint32Array } {
  const at = new Uint32Array(entries.length + 1);
  for (let i = 0; i < entries.length; i++) at[i + 1] = at[i] + entries[i].length;
  const bytes = new Uint8Array(at[entries.length]);
  entries.forEach((e, i) => bytes.set(e, at[i]));
  return { bytes, at };
}

// Few distinct bytes and shared prefixes, so ranges go many positions deep and every partition
// (below, equal, above the pivot; entries ending) is taken.
const suffix = fc.uint8Array({ maxLength: 6 }).map((a) => a.map((b) => [0, 1, 0x7f, 0x80, 0xff][b % 5]));
const entry = fc.oneof(
  fc.tuple(fc.constantFrom(new Uint8Array(0), new Uint8Array(14).fill(0x32), new Uint8Array(60).fill(0xff)), suffix).map(([p, s]) => Uint8Array.from([...p, ...s])),
  fc.uint8Array({ maxLength: 40 }),
);

describe('sortByteStrings', () => {
  it('orders entries as Buffer.compare does, over any range, leaving the rest in place', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 400 }), fc.nat(), fc.nat(), (entries, x, y) => {
        const lo = entries.length === 0 ? 0 : x % entries.length;
        const hi = lo + (entries.length === 0 ? 0 : y % (entries.length - lo + 1));
        const { bytes, at } = layout(entries);
        const order = Uint32Array.from(entries.keys());
        sortByteStrings(bytes, at, order, lo, hi);
        const expected = Array.from(entries.keys());
        const mid = expected.slice(lo, hi).sort((a, b) => Buffer.compare(entries[a], entries[b]));
        // Equal entries may come in any order: compare the bytes, and that the indices are a permutation.
        assert.deepEqual(Array.from(order.subarray(lo, hi), (i) => Buffer.from(entries[i])), mid.map((i) => Buffer.from(entries[i])));
        assert.deepEqual([...order.subarray(lo, hi)].sort((a, b) => a - b), [...mid].sort((a, b) => a - b));
        assert.deepEqual(Array.from(order.subarray(0, lo)), expected.slice(0, lo));
        assert.deepEqual(Array.from(order.subarray(hi)), expected.slice(hi));
      }),
      { numRuns: 300 },
    );
  });

  it('sorts many entries sharing a long prefix, and equal entries, without deep recursion', () => {
    const prefix = 'x'.repeat(20_000);
    const entries = Array.from({ length: 3000 }, (_, i) => Buffer.from(prefix + String((i * 7919) % 1000), 'latin1'));
    const { bytes, at } = layout(entries);
    const order = Uint32Array.from(entries.keys());
    sortByteStrings(bytes, at, order);
    assert.deepEqual(Array.from(order, (i) => entries[i].toString('latin1')), entries.map((e) => e.toString('latin1')).sort());
  });
});
