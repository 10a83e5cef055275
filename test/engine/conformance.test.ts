/**
 * The shared conformance suite: random corpora and random queries, and every engine must give
 * exactly the reference evaluator's totals, pages (walked forward with cursors, and backwards),
 * cursors between hits, and aggregation buckets.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { IndexName } from '../../src/model/field-def.ts';
import { EmbeddedEngine, ReferenceEngine } from '../../src/engine/index.ts';
import { fixtureCatalogues } from './fixture-catalogue.ts';
import { certificateEntries, certificateOps, hostEntries, hostOps, type Entry, type Op } from './arbitraries.ts';
import { caseArb, compare, load, write } from './compare-engines.ts';

const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 200);

function property(index: IndexName, entries: fc.Arbitrary<Entry[]>, ops: fc.Arbitrary<Op[]>) {
  const catalogue = fixtureCatalogues[index];
  return fc.property(
    entries,
    ops,
    fc.array(caseArb(catalogue), { minLength: 2, maxLength: 6 }),
    fc.constantFrom('auto' as const, 'postings' as const, 'columns' as const),
    fc.constantFrom('auto' as const, 'walk' as const, 'rank' as const),
    // Purge tombstones never, or after every removal.
    fc.constantFrom({ minDead: Infinity, ratio: 1 }, { minDead: 1, ratio: 0 }),
    (docs, writes, cases, aggregateStrategy, pageStrategy, compaction) => {
      const ref = new ReferenceEngine(fixtureCatalogues);
      const emb = new EmbeddedEngine(fixtureCatalogues, { aggregateStrategy, pageStrategy, compaction });
      load([ref, emb], index, docs);
      assert.equal(emb.size(index), ref.size(index));
      for (const c of cases) compare(ref, emb, index, c);
      // Again after writes, so lazily built structures must catch up with new values and tombstones.
      write([ref, emb], index, docs, writes);
      assert.equal(emb.size(index), ref.size(index));
      for (const c of cases) compare(ref, emb, index, c);
    },
  );
}

describe('engine conformance: embedded vs reference', () => {
  it('hosts: random documents, writes and queries', () => {
    fc.assert(property('hosts', hostEntries, hostOps), { numRuns: RUNS });
  });

  it('certificates: random documents, writes and queries', () => {
    fc.assert(property('certificates', certificateEntries, certificateOps), { numRuns: Math.ceil(RUNS / 2) });
  });
});
