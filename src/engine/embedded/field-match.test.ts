import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cidrRange } from '../../lib/ip.ts';
import { field, range, assertAgreesThroughWrites } from '../../../test/engine/engine-helpers.ts';

describe('matchField ranges', () => {
  it('answers wide ranges over mostly distinct values (sliced in value order) as the reference does, through updates, removals and compaction', () => {
    const address = fc.tuple(fc.nat(3), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `${10 + a}.${b}.${c}.1`);
    const doc = fc.record({ ip: fc.oneof(address, address.map((a) => `::ffff:${a}`), fc.constant('2001:db8::7')), last_updated_at: fc.nat(5000) });
    const write = fc.tuple(fc.nat(399), fc.option(doc, { freq: 3 }));
    const query = fc.oneof(
      fc.constantFrom('10.0.0.0/8', '11.0.0.0/9', '10.0.0.0/6', '12.128.0.0/10', '0.0.0.0/0', '::/0').map((c) => {
        const r = cidrRange(c)!;
        return field('ip', range(r.lo, r.hi));
      }),
      fc.tuple(fc.nat(5000), fc.nat(5000), fc.boolean(), fc.boolean()).map(([a, b, li, hi]) => field('last_updated_at', range(Math.min(a, b), Math.max(a, b), li, hi))),
    );
    fc.assert(
      fc.property(fc.array(doc, { minLength: 300, maxLength: 400 }), fc.array(fc.tuple(fc.array(write, { maxLength: 150 }), query)), (docs, rounds) => {
        assertAgreesThroughWrites(docs, rounds, { minDead: 50, limit: 1000 });
      }),
      { numRuns: 25 },
    );
  });
});
