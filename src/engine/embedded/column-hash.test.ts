import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ColumnHash, hashOf } from './column-hash.ts';
import { StringColumn } from './string-column.ts';

const unit = fc.constantFrom('a', 'b', '1', 'é', '日', '\ud800', '\0');
const key = fc.string({ unit, maxLength: 5 });

describe('ColumnHash', () => {
  it('hashes an entry as it hashes the string it holds', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 20 }), (list) => {
        const c = new StringColumn();
        list.forEach((s, i) => {
          c.push(s);
          assert.equal(c.hashAt(i), hashOf(s));
        });
      }),
    );
  });

  it('finds an accepted entry holding a string, or -1 when none is, past growths of its table', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.boolean()), { maxLength: 500 }), fc.array(key, { maxLength: 10 }), (entries, probes) => {
        const c = new StringColumn();
        const index = new ColumnHash(c);
        const live = new Set<number>();
        entries.forEach(([s, isLive], i) => {
          c.push(s);
          index.add(i);
          if (isLive) live.add(i);
        });
        for (const s of [...probes, ...entries.map(([e]) => e)]) {
          for (const accept of [(i: number) => live.has(i), undefined]) {
            const got = index.find(s, hashOf(s), accept);
            const any = entries.some(([e], i) => e === s && (!accept || accept(i)));
            if (!any) assert.equal(got, -1);
            else assert.ok(entries[got][0] === s && (!accept || accept(got)), `found entry ${got} for ${JSON.stringify(s)}`);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
