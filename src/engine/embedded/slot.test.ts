import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Slot } from './slot.ts';

describe('Slot.addUnit', () => {
  it('records each distinct value of a unit once, in document order', () => {
    const slot = new Slot('names');
    const long = 'x'.repeat(200);
    slot.addUnit(0, ['a', 'b', 'a', 1, '1', long, 1]);
    // An equal string built separately is the same value.
    slot.addUnit(1, ['x'.repeat(199) + 'x', 'b', 'b']);
    assert.deepEqual(slot.values, ['a', 'b', 1, '1', long]);
    assert.deepEqual(Array.from(slot.fwdUnit.data.subarray(0, slot.fwdUnit.length)), [0, 0, 0, 0, 0, 1, 1]);
    assert.deepEqual(Array.from(slot.fwdOrd.data.subarray(0, slot.fwdOrd.length)), [0, 1, 2, 3, 4, 4, 1]);
    assert.deepEqual(slot.postings.bitmap(1).toArray(), [0, 1]);
    assert.deepEqual(slot.postings.bitmap(4).toArray(), [0, 1]);
    assert.deepEqual(slot.postings.bitmap(0).toArray(), [0]);
  });
});
