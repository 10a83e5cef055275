import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SEGMENT_FORMAT_VERSION, SegmentReader, SegmentWriter } from './segment-codec.ts';
import { Slot } from './slot.ts';

describe('Slot.addUnit', () => {
  it('keeps the values it wrote packed, with the same ordinals, and goes on adding after them', () => {
    const slot = new Slot('p');
    slot.addUnit(0, ['b', 'a', 7]);
    slot.addUnit(1, ['c', 'a']);
    slot.write(new SegmentWriter());
    // Packed now: nothing left in the heap's tail, every value where it was.
    assert.equal(slot.values.tail.length, 0);
    assert.equal(slot.values.baseLength, 4);
    assert.deepEqual(slot.values.slice(0), ['b', 'a', 7, 'c']);
    assert.deepEqual(['b', 'a', 7, 'c', 'd'].map((v) => slot.ordOf(v)), [0, 1, 2, 3, undefined]);
    // A value already packed keeps its ordinal; a new one follows the packed ones.
    slot.addUnit(2, ['c', 'd', 'a']);
    assert.deepEqual(slot.values.slice(0), ['b', 'a', 7, 'c', 'd']);
    assert.deepEqual(Array.from(slot.fwdOrd.data.subarray(0, slot.fwdOrd.length)), [0, 1, 2, 3, 1, 3, 4, 1]);
  });

  it('records each distinct value of a unit once, in document order', () => {
    const slot = new Slot('names');
    const long = 'x'.repeat(200);
    slot.addUnit(0, ['a', 'b', 'a', 1, '1', long, 1]);
    // An equal string built separately is the same value.
    slot.addUnit(1, ['x'.repeat(199) + 'x', 'b', 'b']);
    assert.deepEqual(slot.values.slice(0), ['a', 'b', 1, '1', long]);
    assert.deepEqual(Array.from(slot.fwdUnit.data.subarray(0, slot.fwdUnit.length)), [0, 0, 0, 0, 0, 1, 1]);
    assert.deepEqual(Array.from(slot.fwdOrd.data.subarray(0, slot.fwdOrd.length)), [0, 1, 2, 3, 4, 4, 1]);
    assert.deepEqual(slot.postings.bitmap(1).toArray(), [0, 1]);
    assert.deepEqual(slot.postings.bitmap(4).toArray(), [0, 1]);
    assert.deepEqual(slot.postings.bitmap(0).toArray(), [0]);
  });

  it('keeps the postings caught up with units added after they were read, and after compaction', () => {
    const slot = new Slot('p');
    const want = new Map<string, number[]>();
    const add = (unit: number, leaves: string[]): void => {
      slot.addUnit(unit, leaves);
      for (const v of new Set(leaves)) want.set(v, [...(want.get(v) ?? []), unit]);
    };
    const check = (): void => {
      for (const [v, units] of want) assert.deepEqual(slot.postings.bitmap(slot.ordOf(v)!).toArray(), units, v);
    };
    for (let u = 0; u < 100; u++) add(u, [`v${u % 7}`, `w${u % 60}`]);
    check();
    for (let u = 100; u < 300; u++) add(u, [`v${u % 7}`, `x${u}`]);
    check();
    const alive = new Uint8Array(300).fill(1);
    for (let u = 0; u < 300; u += 2) alive[u] = 0;
    slot.compact(alive);
    assert.equal(slot.values.baseLength, slot.values.length, 'compacted values are packed');
    for (const [v, units] of want) {
      const kept = units.filter((u) => alive[u] === 1);
      if (kept.length === 0) want.delete(v);
      else want.set(v, kept);
    }
    add(300, ['v0', 'y']);
    check();
  });
  it('after a restore, looks values up and adds units as before it was written', () => {
    const slot = new Slot('p');
    for (let u = 0; u < 50; u++) slot.addUnit(u, [`v${u % 7}`, u]);
    const w = new SegmentWriter();
    slot.write(w);
    const restored = new Slot('p');
    restored.restore(SegmentReader.ofBlock(w.take(), SEGMENT_FORMAT_VERSION));
    assert.equal(restored.values.baseLength, slot.values.length, 'restored values are packed');
    for (const s of [slot, restored]) s.addUnit(50, ['v3', 'new', 7]);
    assert.deepEqual(restored.values.slice(0), slot.values.slice(0));
    for (const v of slot.values.slice(0)) assert.equal(restored.ordOf(v), slot.ordOf(v), String(v));
    assert.deepEqual(Array.from(restored.fwdOrd.data.subarray(0, restored.fwdOrd.length)), Array.from(slot.fwdOrd.data.subarray(0, slot.fwdOrd.length)));
    assert.deepEqual(restored.postings.bitmap(restored.ordOf('v3')!).toArray(), slot.postings.bitmap(slot.ordOf('v3')!).toArray());
  });

  it('reads only the first `count` leaves, and repeats of the previous value keep their ordinal across compaction', () => {
    const slot = new Slot('p');
    // Stale entries past `count` (a reused scratch array) are ignored.
    slot.addUnit(0, ['a', 'stale'], 1);
    slot.addUnit(1, ['b', 'b', 'a', 'stale'], 3);
    slot.addUnit(2, ['b'], 1);
    assert.deepEqual(slot.values.slice(0), ['a', 'b']);
    assert.deepEqual(Array.from(slot.fwdOrd.data.subarray(0, slot.fwdOrd.length)), [0, 1, 0, 1]);
    // Compaction renumbers: 'b' becomes ordinal 0, and the last value looked up ('b') must not keep ordinal 1.
    slot.compact(new Uint8Array([0, 0, 1]));
    assert.deepEqual(slot.values.slice(0), ['b']);
    slot.addUnit(3, ['b', 'a'], 2);
    assert.deepEqual(slot.values.slice(0), ['b', 'a']);
    assert.deepEqual(Array.from(slot.fwdOrd.data.subarray(0, slot.fwdOrd.length)), [0, 0, 1]);
    assert.deepEqual(slot.postings.bitmap(0).toArray(), [2, 3]);
    assert.deepEqual(slot.postings.bitmap(1).toArray(), [3]);
    // The same after a restore, where the values are looked up in the packed dictionary.
    const w = new SegmentWriter();
    slot.write(w);
    const restored = new Slot('p');
    restored.restore(SegmentReader.ofBlock(w.take(), SEGMENT_FORMAT_VERSION));
    restored.addUnit(4, ['a', 'c'], 2);
    restored.addUnit(5, ['a'], 1);
    assert.deepEqual(restored.values.slice(0), ['b', 'a', 'c']);
    assert.deepEqual(Array.from(restored.fwdOrd.data.subarray(0, restored.fwdOrd.length)), [0, 0, 1, 1, 2, 1]);
  });
});
