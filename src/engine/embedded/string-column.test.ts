import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { StringColumn } from './string-column.ts';
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

function roundTrip(c: StringColumn, from = 0, into = new StringColumn()): StringColumn {
  const w = new SegmentWriter();
  c.write(w, from);
  into.append(SegmentReader.ofBlock(w.take(), SEGMENT_FORMAT_VERSION));
  return into;
}

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

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

  it('compares entries as JavaScript compares the strings', () => {
    fc.assert(
      fc.property(fc.array(anyString, { minLength: 1, maxLength: 30 }), (list) => {
        const c = columnOf(list);
        for (let i = 0; i < list.length; i++) {
          for (let j = 0; j < list.length; j++) {
            const want = list[i] < list[j] ? -1 : list[i] > list[j] ? 1 : 0;
            assert.equal(sign(c.compare(i, j)), want, `${JSON.stringify(list[i])} vs ${JSON.stringify(list[j])}`);
          }
        }
      }),
    );
  });

  it('appends the entries from an index on (a delta) after the ones it has', () => {
    fc.assert(
      fc.property(fc.array(anyString, { maxLength: 30 }), fc.array(anyString, { maxLength: 30 }), (saved, added) => {
        const whole = columnOf([...saved, ...added]);
        const restored = roundTrip(whole, saved.length, roundTrip(columnOf(saved)));
        assert.deepEqual(Array.from({ length: restored.length }, (_, i) => restored.at(i)), [...saved, ...added]);
      }),
    );
  });

  it('drops the entries of dead documents, keeping the numbers of the others', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(anyString, fc.boolean()), { maxLength: 60 }), (entries) => {
        const c = columnOf(entries.map(([s]) => s));
        const before = c.bytes;
        c.dropDead(Uint8Array.from(entries, ([, live]) => (live ? 1 : 0)));
        entries.forEach(([s, live], i) => assert.equal(c.at(i), live ? s : ''));
        assert.ok(c.bytes <= before);
        c.push('after');
        assert.equal(c.at(entries.length), 'after');
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
    assert.throws(() => new StringColumn().append(SegmentReader.ofBlock(bad, SEGMENT_FORMAT_VERSION)), CorruptSegmentError);
    // A tag that is neither Latin-1 nor UTF-16.
    const tag = Buffer.from(good);
    tag[good.length - 5] = 7;
    assert.throws(() => new StringColumn().append(SegmentReader.ofBlock(tag, SEGMENT_FORMAT_VERSION)), CorruptSegmentError);
  });
});
