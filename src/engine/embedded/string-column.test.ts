import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readStringList, StringColumn, writeStringList } from './string-column.ts';
import { CorruptSegmentError, SegmentReader, SegmentWriter, SEGMENT_FORMAT_VERSION } from './segment-codec.ts';

/** Strings of every kind of code unit: ASCII, Latin-1, BMP, astral pairs, lone surrogates, and long ones (read natively). */
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) }),
  fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) }),
  fc.string({ unit: fc.integer({ min: 0xe000, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  fc.string({ minLength: 17, maxLength: 300 }),
  fc.string({ unit: 'binary', minLength: 17, maxLength: 100 }),
);

const columnOf = (list: readonly string[]): StringColumn => {
  const c = new StringColumn(4);
  for (const s of list) c.push(s);
  return c;
};

function roundTrip(c: StringColumn): StringColumn {
  const w = new SegmentWriter();
  c.write(w);
  return StringColumn.read(SegmentReader.ofBlock(w.take(), SEGMENT_FORMAT_VERSION));
}

describe('StringColumn', () => {
  it('gives back every string with its code units, before and after a segment round trip', () => {
    fc.assert(
      fc.property(fc.array(anyString, { maxLength: 60 }), (list) => {
        for (const c of [columnOf(list), roundTrip(columnOf(list))]) {
          assert.equal(c.length, list.length);
          list.forEach((s, i) => assert.equal(c.at(i), s));
        }
      }),
    );
  });

  it('writes a list from an index on (a delta) and reads it back', () => {
    fc.assert(
      fc.property(fc.array(anyString, { maxLength: 30 }), fc.array(anyString, { maxLength: 30 }), (saved, added) => {
        const w = new SegmentWriter();
        writeStringList(w, [...saved, ...added], saved.length);
        assert.deepEqual(readStringList(SegmentReader.ofBlock(w.take(), SEGMENT_FORMAT_VERSION)), added);
      }),
    );
  });

  it('rejects a damaged column as a corrupt segment', () => {
    const w = new SegmentWriter();
    columnOf(['a', 'bc']).write(w);
    const good = w.take();
    // Count, then the end offsets' length prefix and offsets [1+1, 2+1+2]: claim a longer last entry.
    const bad = Buffer.from(good);
    bad.writeUInt32LE(9, 12);
    assert.throws(() => StringColumn.read(SegmentReader.ofBlock(bad, SEGMENT_FORMAT_VERSION)), CorruptSegmentError);
    // A tag that is neither Latin-1 nor UTF-16.
    const tag = Buffer.from(good);
    tag[good.length - 5] = 7;
    assert.throws(() => StringColumn.read(SegmentReader.ofBlock(tag, SEGMENT_FORMAT_VERSION)), CorruptSegmentError);
  });
});
