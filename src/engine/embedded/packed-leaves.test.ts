import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Leaf } from '../../model/values-of.ts';
import { PackedLeaves, SlotLeaves } from './packed-leaves.ts';
import { CorruptSegmentError, SegmentReader, SegmentWriter, SEGMENT_FORMAT_VERSION } from './segment-codec.ts';

/** Strings of every kind of code unit: ASCII, Latin-1, BMP, astral pairs and lone surrogates. */
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) }),
  fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) }),
  fc.string({ minLength: 20, maxLength: 300 }),
);
const leaf: fc.Arbitrary<Leaf> = fc.oneof(anyString, fc.double({ noNaN: true }), fc.integer(), fc.boolean(), fc.constant(-0));
/** Distinct under SameValueZero, as a slot's dictionary is. */
const distinctLeaves = fc.uniqueArray(leaf, { selector: (v) => (typeof v === 'number' && v === 0 ? 0 : v), comparator: 'SameValueZero', maxLength: 200 });

function roundTrip(p: PackedLeaves): PackedLeaves {
  const w = new SegmentWriter();
  p.write(w);
  return PackedLeaves.read(SegmentReader.ofBlock(w.take(), SEGMENT_FORMAT_VERSION));
}

describe('PackedLeaves', () => {
  it('gives back every value with its type and code units, before and after a segment round trip', () => {
    fc.assert(
      fc.property(distinctLeaves, (values) => {
        for (const p of [PackedLeaves.of(values), roundTrip(PackedLeaves.of(values))]) {
          assert.equal(p.length, values.length);
          for (let v = 0; v < values.length; v++) assert.ok(Object.is(p.at(v), values[v]), `value ${v}`);
          assert.equal(p.at(values.length), undefined);
          assert.equal(p.at(-1), undefined);
        }
      }),
    );
  });

  it('finds each value by SameValueZero, and nothing else', () => {
    fc.assert(
      fc.property(distinctLeaves, fc.array(leaf, { maxLength: 30 }), (values, probes) => {
        const p = roundTrip(PackedLeaves.of(values));
        const map = new Map<Leaf, number>(values.map((v, i) => [v, i]));
        for (let v = 0; v < values.length; v++) assert.equal(p.indexOf(values[v]), v);
        for (const probe of probes) assert.equal(p.indexOf(probe), map.get(probe) ?? -1, String(probe));
      }),
    );
    const p = PackedLeaves.of(['1', 1, true, 'true', '\u00e9', '\u00e9\u0100', '\ud800']);
    assert.equal(p.indexOf(1), 1);
    assert.equal(p.indexOf('1'), 0);
    assert.equal(p.indexOf(-0), -1);
    assert.equal(p.indexOf(false), -1);
    assert.equal(p.indexOf('\ud800'), 6);
    assert.equal(p.indexOf('\udc00'), -1);
    assert.equal(PackedLeaves.of([-0]).indexOf(0), 0);
  });

  it('builds its lookup table in slices (the warm-up) with the same answers, and tells a list of terms', () => {
    fc.assert(
      fc.property(distinctLeaves, fc.integer({ min: 1, max: 50 }), (values, budget) => {
        const p = PackedLeaves.of(values);
        let slices = 0;
        while (!p.prepareLookups(budget)) slices++;
        assert.ok(slices <= Math.ceil(values.length / budget));
        for (let v = 0; v < values.length; v++) assert.equal(p.indexOf(values[v]), v);
        assert.equal(p.allStrings(), values.every((v) => typeof v === 'string'));
      }),
    );
    // A lookup before the slices are done finishes the table itself.
    const p = PackedLeaves.of(['a', 'b', 'c', 'd']);
    assert.equal(p.prepareLookups(2), false);
    assert.equal(p.indexOf('d'), 3);
    assert.equal(p.prepareLookups(1), true);
  });

  it('concatenates a tail after the packed values, copying them as they are', () => {
    fc.assert(
      fc.property(distinctLeaves, (values) => {
        const cut = Math.floor(values.length / 2);
        const joined = new SlotLeaves(PackedLeaves.of(values.slice(0, cut)), values.slice(cut));
        assert.equal(joined.length, values.length);
        assert.deepEqual(joined.slice(0), values);
        const packed = roundTrip(joined.packed());
        for (let v = 0; v < values.length; v++) assert.ok(Object.is(packed.at(v), values[v]));
        assert.deepEqual(new SlotLeaves(undefined, values).packed().bytes, packed.bytes);
      }),
    );
  });

  it('rejects bytes that are not a packed list instead of reading past them', () => {
    const good = new SegmentWriter();
    PackedLeaves.of(['abc', 5, true]).write(good);
    const bytes = good.take();
    const bad = (mutate: (b: Buffer) => void): void => {
      const b = Buffer.from(bytes);
      mutate(b);
      assert.throws(() => PackedLeaves.read(SegmentReader.ofBlock(b, SEGMENT_FORMAT_VERSION)), CorruptSegmentError);
    };
    // Layout: u32 byte length of the offsets, 4 offsets (0, 4, 13, 14), u32 byte length of the
    // bytes, then 'abc' (tag and 3 bytes), 5 (tag and 8 bytes), true (tag).
    bad((b) => b.writeUInt32LE(20, 8)); // an offset past the next one
    bad((b) => b.writeUInt32LE(99, 16)); // the last offset is not the byte count
    bad((b) => (b[24] = 7)); // an unknown tag
    bad((b) => (b[24] = 2)); // a number of 3 bytes
    bad((b) => (b[28] = 4)); // true of 9 bytes
  });
});
