/**
 * Delta chains over many rounds: writes (updates, removals, new ids, nested services appended and
 * removed), queries that decode some slots, checkpoints (deltas, or full after compaction),
 * reopening from disk while slots' base blocks and earlier deltas are still pending, and merges on
 * the worker thread racing later checkpoints. After every reopen and at the end, the engine must
 * answer like the reference evaluator fed the same writes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { IndexName } from '../../src/model/field-def.ts';
import { EmbeddedEngine, ReferenceEngine } from '../../src/engine/index.ts';
import { fixtureCatalogues } from './fixture-catalogue.ts';
import { certificateEntries, certificateOps, hostEntries, hostOps, type Entry, type Op } from './arbitraries.ts';
import { caseArb, compare } from './compare-engines.ts';

const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 200);

interface Round {
  readonly ops: Op[];
  readonly fresh: Entry[];
  readonly queryBefore: boolean;
  /** 0 checkpoint only, 1 checkpoint and reopen, 2 start a merge then write and checkpoint, 3 no checkpoint. */
  readonly step: number;
}

function roundArb(entries: fc.Arbitrary<Entry[]>, ops: fc.Arbitrary<Op[]>): fc.Arbitrary<Round> {
  return fc.record({ ops, fresh: entries, queryBefore: fc.boolean(), step: fc.nat(3) });
}

function rounds(index: IndexName, entries: fc.Arbitrary<Entry[]>, ops: fc.Arbitrary<Op[]>) {
  const catalogue = fixtureCatalogues[index];
  return fc.asyncProperty(
    entries,
    fc.array(roundArb(entries, ops), { minLength: 2, maxLength: 6 }),
    fc.array(caseArb(catalogue), { minLength: 2, maxLength: 4 }),
    fc.constantFrom(Infinity, 2, 4),
    async (docs, plan, cases, minDead) => {
      const dir = mkdtempSync(join(tmpdir(), 'periscope-rounds-'));
      const compaction = { minDead, ratio: 0 };
      const ids: string[] = docs.map((d) => d.id);
      const ref = new ReferenceEngine(fixtureCatalogues);
      const make = () => new EmbeddedEngine(fixtureCatalogues, { dir, compaction });
      let e = make();
      const engines: EmbeddedEngine[] = [e];
      try {
        e.persistence!.mergeEnabled = false;
        e.persistence!.open();
        for (const x of [ref, e]) for (const { id, doc } of docs) x.upsert(index, id, doc);
        e.persistence!.checkpoint();
        let r = 0;
        for (const round of plan) {
          r++;
          if (round.queryBefore) for (const c of cases) compare(ref, e, index, c);
          const apply = (o: Op[], fresh: Entry[]) => {
            for (const op of o) {
              const id = ids[op.at % ids.length]!;
              for (const x of [ref, e]) {
                if (op.kind === 'upsert') x.upsert(index, id, op.doc);
                else x.remove(index, id);
              }
            }
            for (const { id, doc } of fresh) {
              if (!ids.includes(id)) ids.push(id);
              for (const x of [ref, e]) x.upsert(index, id, doc);
            }
          };
          apply(round.ops, round.fresh.slice(0, 3));
          if (round.step === 3) continue;
          if (round.step === 2) {
            e.persistence!.checkpoint();
            const merging = e.persistence!.merge(index);
            apply(round.ops.slice().reverse(), []);
            e.persistence!.checkpoint();
            await merging;
            // The merge may have lost the race (a compaction made the checkpoint full and the chain it was to read is gone): answers stay right either way.
            for (const c of cases) compare(ref, e, index, c);
            continue;
          }
          e.persistence!.checkpoint();
          if (round.step === 1) {
            e.persistence!.close();
            e = make();
            engines.push(e);
            e.persistence!.mergeEnabled = false;
            const o = e.persistence!.open();
            assert.ok(o.loaded, o.loaded ? '' : `round ${r}: ${o.reason}`);
            assert.equal(e.size(index), ref.size(index), `round ${r}: size after reopen`);
            for (const c of cases) compare(ref, e, index, c);
          }
        }
        e.persistence!.checkpoint();
        e.persistence!.close();
        const last = make();
        engines.push(last);
        const o = last.persistence!.open();
        assert.ok(o.loaded, o.loaded ? '' : o.reason);
        assert.equal(last.size(index), ref.size(index));
        for (const c of cases) compare(ref, last, index, c);
        await last.persistence!.merge(index);
        assert.equal(last.persistence!.lastMergeError, undefined);
        last.persistence!.close();
        const merged = make();
        engines.push(merged);
        assert.ok(merged.persistence!.open().loaded);
        for (const c of cases) compare(ref, merged, index, c);
      } finally {
        for (const x of engines) x.persistence!.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
}

describe('delta chains over many rounds', () => {
  it('hosts: writes, checkpoints, reopens and merges answer like the reference', async () => {
    await fc.assert(rounds('hosts', hostEntries, hostOps), { numRuns: Math.ceil(RUNS / 20) });
  });
  it('certificates: writes, checkpoints, reopens and merges answer like the reference', async () => {
    await fc.assert(rounds('certificates', certificateEntries, certificateOps), { numRuns: Math.ceil(RUNS / 20) });
  });
});
