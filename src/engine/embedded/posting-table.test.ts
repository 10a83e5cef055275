import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RoaringBitmap32 } from './bitmap.ts';
import { maskOf, PostingTable } from './posting-table.ts';
import { SEGMENT_FORMAT_VERSION, SegmentReader, SegmentWriter } from './segment-codec.ts';

describe('PostingTable', () => {
  it('holds exactly the ids added, through every representation and with reads in between', () => {
    fc.assert(
      fc.property(
        // Per step: which ordinals the next id goes to (ids ascend), and whether to read now.
        fc.array(fc.tuple(fc.uniqueArray(fc.nat(5), { maxLength: 3 }), fc.nat(3), fc.boolean()), { maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        (steps, stride) => {
          const table = new PostingTable();
          const model = new Map<number, number[]>();
          let id = 0;
          const check = (): void => {
            for (let ord = 0; ord < 6; ord++) {
              const want = model.get(ord) ?? [];
              assert.deepEqual(table.bitmap(ord).toArray(), want);
              assert.equal(table.has(ord), want.length > 0);
              const within = RoaringBitmap32.from(want.filter((x) => x % 3 === 0));
              assert.equal(table.countIn(ord, within, maskOf(within, id + 1)), within.size);
            }
          };
          for (const [ords, repeat, read] of steps) {
            // Many ids per step so lists cross the promotion and flush thresholds.
            for (let k = 0; k < stride * 20; k++, id++) {
              for (const ord of ords) {
                for (let r = 0; r <= repeat; r++) table.add(ord, id);
                const list = model.get(ord) ?? [];
                list.push(id);
                model.set(ord, list);
              }
            }
            if (read) check();
          }
          check();
          assert.deepEqual(table.union([0, 1, 2, 3, 4, 5]).toArray(), [...new Set([...model.values()].flat())].sort((a, b) => a - b));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('writes the persisted layout and restores it, before and after dropping dead ids', () => {
    fc.assert(
      fc.property(
        // Per ordinal (0..7), the ids it holds (sorted and distinct when added); some ids die.
        fc.array(fc.uniqueArray(fc.nat(400), { maxLength: 120 }), { minLength: 1, maxLength: 8 }),
        fc.uniqueArray(fc.nat(400), { maxLength: 200 }),
        (lists, deadIds) => {
          const model = lists.map((l) => [...l].sort((a, b) => a - b));
          const table = new PostingTable();
          // Ids ascend per ordinal; ordinals interleave, as when documents are indexed.
          for (let id = 0; id <= 400; id++) for (let ord = 0; ord < model.length; ord++) if (model[ord].includes(id)) table.add(ord, id);
          const roundTrip = (t: PostingTable, want: number[][]): void => {
            const w = new SegmentWriter();
            t.write(w);
            const bytes = w.take();
            const back = new PostingTable();
            back.restore(SegmentReader.ofBlock(bytes, SEGMENT_FORMAT_VERSION));
            for (let ord = 0; ord < want.length; ord++) {
              assert.deepEqual(back.bitmap(ord).toArray(), want[ord]);
              assert.deepEqual(t.bitmap(ord).toArray(), want[ord]);
            }
            // The layout: counts (BIG for a bitmap), small lists' ids, then the bitmaps.
            const r = SegmentReader.ofBlock(bytes, SEGMENT_FORMAT_VERSION);
            const counts = Array.from(r.u32s());
            // Ordinals past the last one ever added are not written (as before packed lists).
            const padded = want.map((_, ord) => counts[ord] ?? 0);
            assert.deepEqual(padded.map((c, ord) => (c === 0xffffffff ? want[ord].length : c)), want.map((l) => l.length));
            for (const c of counts.slice(want.length)) assert.equal(c, 0);
            const small = want.filter((l, ord) => counts[ord] !== 0xffffffff).flat();
            assert.deepEqual(Array.from(r.u32s()), small);
          };
          roundTrip(table, model);
          const alive = new Uint8Array(401).fill(1);
          for (const id of deadIds) alive[id] = 0;
          table.dropDead(alive, RoaringBitmap32.from(deadIds));
          const kept = model.map((l) => l.filter((id) => alive[id] === 1));
          roundTrip(table, kept);
          // Still appendable after compaction: lists keep growing through every representation.
          for (let id = 401; id < 460; id++) for (let ord = 0; ord < kept.length; ord++) if (id % (ord + 1) === 0) { table.add(ord, id); kept[ord].push(id); }
          roundTrip(table, kept);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('applies adds logged past the batch size, in bulk and id by id, like adds applied at once', () => {
    const table = new PostingTable();
    const model = new Map<number, number[]>();
    let adds = 0;
    // 400k adds (several batches): a list of every id, lists of every 7th and 300th id, and
    // lists holding a few ids each, every add made twice.
    for (let id = 0; adds < 400_000; id++) {
      const ords = [0, id % 7 === 0 ? 1 : -1, id % 300 === 0 ? 2 : -1, 3 + Math.floor(id / 3)].filter((o) => o >= 0);
      for (const ord of ords) {
        table.add(ord, id);
        table.add(ord, id);
        adds += 2;
        const list = model.get(ord) ?? [];
        list.push(id);
        model.set(ord, list);
      }
    }
    for (const [ord, want] of model) assert.deepEqual(table.bitmap(ord).toArray(), want, `ordinal ${ord}`);
  });

  it('fills from parallel columns as adds in column order would', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.nat(9), { maxLength: 10 }), { maxLength: 200 }), (units) => {
        const ords: number[] = [];
        const ids: number[] = [];
        units.forEach((unitOrds, unit) => {
          for (const ord of unitOrds) {
            ords.push(ord);
            ids.push(unit);
          }
        });
        const filled = new PostingTable();
        filled.fillFrom(Uint32Array.from(ords), Uint32Array.from(ids), 0, ords.length, 10);
        const added = new PostingTable();
        for (let i = 0; i < ords.length; i++) added.add(ords[i], ids[i]);
        for (let ord = 0; ord < 10; ord++) {
          assert.deepEqual(filled.bitmap(ord).toArray(), added.bitmap(ord).toArray());
          assert.equal(filled.has(ord), added.has(ord));
        }
      }),
      { numRuns: 100 },
    );
  });
});
