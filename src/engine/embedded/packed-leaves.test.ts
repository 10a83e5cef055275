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

  it('keeps its values sorted by code unit within each kind, and tells a list of terms', () => {
    fc.assert(
      fc.property(distinctLeaves, (values) => {
        const p = roundTrip(PackedLeaves.of(values));
        assert.equal(p.allStrings(), values.every((v) => typeof v === 'string'));
        // Strings in code-unit order (Latin-1 ones first), then numbers in numeric order, then booleans.
        const kind = (v: Leaf): number => (typeof v === 'string' ? (/[^\u0000-\u00ff]/.test(v) ? 1 : 0) : typeof v === 'number' ? 2 : v ? 4 : 3);
        const sorted = [...values].sort((a, b) => kind(a) - kind(b) || (a < b ? -1 : a > b ? 1 : Object.is(a, -0) ? -1 : Object.is(b, -0) ? 1 : 0));
        assert.deepEqual(p.sortedValues(), sorted);
      }),
    );
    const p = PackedLeaves.of(['b', 'a\u0100', 'ab', 'a', 2, -1, 0.5, true, false, '\u00ff']);
    assert.deepEqual(p.sortedValues(), ['a', 'ab', 'b', '\u00ff', 'a\u0100', -1, 0.5, 2, false, true]);
  });

  it('finds values in lists of every size (block boundaries, shared prefixes)', () => {
    for (const n of [1, 2, 15, 16, 17, 31, 32, 33, 1000]) {
      const values = Array.from({ length: n }, (_, i) => `HTTP/1.1 200 OK\r\nServer: nginx/1.${(i * 7919) % n}`);
      const p = roundTrip(PackedLeaves.of(values));
      for (let v = 0; v < n; v++) {
        assert.equal(p.indexOf(values[v]), v);
        assert.equal(p.at(v), values[v]);
      }
      for (const probe of ['', 'HTTP', 'HTTP/1.1 200 OK\r\nServer: nginx/1.', 'HTTP/1.1 200 OK\r\nServer: nginx/1.00', 'zzz', values[0] + ' ']) {
        assert.equal(p.indexOf(probe), values.indexOf(probe), probe);
      }
    }
  });

  it('walks every value, and the strings with a prefix, with their ordinals', () => {
    const prefixes = fc.oneof(fc.constant('a'), fc.constant('\u00e9'), fc.constant('\ud800'), fc.string({ maxLength: 2 }).filter((p) => p !== ''), fc.string({ unit: 'binary', minLength: 1, maxLength: 2 }));
    fc.assert(
      fc.property(distinctLeaves, fc.nat(), prefixes, (values, at, prefix) => {
        const cut = values.length === 0 ? 0 : at % values.length;
        const leaves = new SlotLeaves(roundTrip(PackedLeaves.of(values.slice(0, cut))), values.slice(cut));
        const all = new Map<number, Leaf>();
        leaves.forEach((ord, v) => all.set(ord, v));
        assert.equal(all.size, values.length);
        for (const [ord, v] of all) assert.ok(Object.is(v, values[ord]));
        const got: number[] = [];
        leaves.forEachWithPrefix(prefix, (ord, v) => {
          assert.equal(v, values[ord]);
          got.push(ord);
        });
        const want = values.flatMap((v, i) => (typeof v === 'string' && v.startsWith(prefix) ? [i] : []));
        assert.deepEqual(got.sort((a, b) => a - b), want);
      }),
      { numRuns: 300 },
    );
    const names = Array.from({ length: 100 }, (_, i) => `host-${String(i).padStart(3, '0')}.example.com`);
    const p = PackedLeaves.of([...names].reverse());
    const got: string[] = [];
    p.forEachWithPrefix('host-04', (_, v) => got.push(v));
    assert.deepEqual(got, names.slice(40, 50));
  });

  it('merges a tail into the packed values, keeping every ordinal', () => {
    fc.assert(
      fc.property(distinctLeaves, fc.nat(), (values, at) => {
        const cut = values.length === 0 ? 0 : at % values.length;
        const joined = new SlotLeaves(PackedLeaves.of(values.slice(0, cut)), values.slice(cut));
        assert.equal(joined.length, values.length);
        assert.deepEqual(joined.slice(0), values);
        const packed = roundTrip(joined.packed());
        for (let v = 0; v < values.length; v++) {
          assert.ok(Object.is(packed.at(v), values[v]));
          assert.equal(packed.indexOf(values[v]), v);
        }
        // Merged or packed at once, the bytes are the same.
        assert.deepEqual(new SlotLeaves(undefined, values).packed().bytes, packed.bytes);
      }),
    );
  });

  it('reads format 5 (values in ordinal order, offsets) and gives the same answers', () => {
    fc.assert(
      fc.property(distinctLeaves, (values) => {
        const w = new SegmentWriter();
        writeV5(w, values);
        const p = PackedLeaves.readV5(SegmentReader.ofBlock(w.take(), 5));
        for (let v = 0; v < values.length; v++) {
          assert.ok(Object.is(p.at(v), values[v]));
          assert.equal(p.indexOf(values[v]), v);
        }
      }),
    );
  });

  it('rejects bytes that are not a packed list instead of reading past them', () => {
    const good = new SegmentWriter();
    PackedLeaves.of(['abc', 'abd', 5, true]).write(good);
    const bytes = good.take();
    assert.equal(PackedLeaves.read(SegmentReader.ofBlock(bytes, SEGMENT_FORMAT_VERSION)).at(1), 'abd');
    const bad = (mutate: (b: Buffer) => void): void => {
      const b = Buffer.from(bytes);
      mutate(b);
      assert.throws(() => PackedLeaves.read(SegmentReader.ofBlock(b, SEGMENT_FORMAT_VERSION)), CorruptSegmentError);
    };
    // Layout: u32 byte length, 4 ordinals (rank -> ordinal: 0, 1, 2, 3) at 4; u32 byte length,
    // 2 block starts (0, 23) at 24; u32 byte length, then at 36 the entries (shared, rest,
    // bytes): [0, 4, tag 0, 'abc'] [3, 1, 'd'] [0, 9, tag 2, 8 bytes] [0, 1, tag 4].
    bad((b) => b.writeUInt32LE(0, 8)); // an ordinal twice
    bad((b) => b.writeUInt32LE(9, 16)); // an ordinal out of range
    bad((b) => b.writeUInt32LE(22, 28)); // the blocks do not end at the byte count
    bad((b) => (b[42] = 5)); // shares more than the entry before it has
    bad((b) => (b[36] = 1)); // a block's first entry shares bytes
    bad((b) => (b[38] = 7)); // an unknown tag
    bad((b) => (b[46] = 8)); // a number of 8 bytes
    bad((b) => (b[57] = 2)); // true of 2 bytes
    bad((b) => (b[58] = 1)); // a string after a number: tags out of order
    // An entry sharing the first entry's tag after one with a later tag: [0, 9, number 1.5],
    // [0, 1, false], then [1, 0] (the number's tag again).
    const number = Buffer.alloc(8);
    number.writeDoubleBE(1.5);
    number[0] ^= 0x80;
    const crafted = new SegmentWriter();
    crafted.u32s(new Uint32Array([0, 1, 2]));
    const entries = Buffer.from([0, 9, 2, ...number, 0, 1, 3, 1, 0]);
    crafted.u32s(new Uint32Array([0, entries.length]));
    crafted.bytes(entries);
    assert.throws(() => PackedLeaves.read(SegmentReader.ofBlock(crafted.take(), SEGMENT_FORMAT_VERSION)), CorruptSegmentError);
    // Ordinals are whole numbers.
    assert.equal(PackedLeaves.of(['a', 'b']).at(0.5), undefined);
  });
});

/** Format 5's layout, as it was written: offsets, then each value's tag and little-endian payload. */
function writeV5(w: SegmentWriter, values: Leaf[]): void {
  const parts: Buffer[] = [];
  const offsets = new Uint32Array(values.length + 1);
  let pos = 0;
  values.forEach((v, i) => {
    offsets[i] = pos;
    let b: Buffer;
    if (typeof v === 'string') {
      const latin1 = !/[^\u0000-\u00ff]/.test(v);
      b = Buffer.concat([Buffer.from([latin1 ? 0 : 1]), Buffer.from(v, latin1 ? 'latin1' : 'utf16le')]);
    } else if (typeof v === 'number') {
      b = Buffer.alloc(9);
      b[0] = 2;
      b.writeDoubleLE(v, 1);
    } else b = Buffer.from([v ? 4 : 3]);
    parts.push(b);
    pos += b.length;
  });
  offsets[values.length] = pos;
  w.u32s(offsets);
  w.bytes(Buffer.concat(parts));
}
