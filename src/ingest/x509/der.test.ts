import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as w from './der-writer.ts';
import { children, readBigInt, readBitString, readOid, readString, readTime, readTlv } from './der-reader.ts';

test('OIDs round-trip through writer and reader', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 39 }), fc.array(fc.nat(2 ** 40), { maxLength: 8 }), (a, b, rest) => {
      const dotted = [a, b, ...rest].join('.');
      const enc = w.oid(dotted);
      assert.equal(readOid(enc, readTlv(enc, 0)), dotted);
    }),
  );
  assert.equal(w.oid('1.2.840.113549.1.1.11').toString('hex'), '06092a864886f70d01010b');
});

test('INTEGERs round-trip, with a sign byte when the top bit is set', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 2n ** 160n }), (n) => {
      const enc = w.int(n);
      assert.equal(readBigInt(enc, readTlv(enc, 0)), n);
    }),
  );
  assert.equal(w.int(128).toString('hex'), '02020080');
  assert.equal(w.intFromBytes(Uint8Array.from([0, 0, 0x7f])).toString('hex'), '02017f');
});

test('long lengths, nesting and strings', () => {
  const long = 'x'.repeat(70000);
  const enc = w.seq(w.utf8(long), w.printable('US'), w.ia5('a@b'), w.set(w.bool(true)));
  const outer = readTlv(enc, 0);
  assert.equal(outer.end, enc.length);
  const [u, p, i, s] = children(enc, outer);
  assert.equal(readString(enc, u), long);
  assert.equal(readString(enc, p), 'US');
  assert.equal(readString(enc, i), 'a@b');
  assert.equal(children(enc, s).length, 1);
});

test('times: UTCTime before 2050, GeneralizedTime after; readTime inverts', () => {
  for (const iso of ['1999-12-31T23:59:59Z', '2026-11-01T00:00:00Z', '2049-12-31T23:59:59Z', '2050-01-01T00:00:00Z', '2126-03-04T05:06:07Z']) {
    const ms = Date.parse(iso);
    const enc = w.time(ms);
    assert.equal(enc[0], Date.parse(iso) < Date.parse('2050-01-01T00:00:00Z') ? 0x17 : 0x18);
    assert.equal(readTime(enc, readTlv(enc, 0)), ms);
  }
});

test('named bits trim trailing zero bits', () => {
  const ku = w.namedBits([0, 2]);
  assert.equal(ku.toString('hex'), '030205a0');
  const bs = readBitString(ku, readTlv(ku, 0));
  assert.equal(bs.unused, 5);
  assert.equal(w.namedBits([5, 6]).toString('hex'), '03020106');
});
