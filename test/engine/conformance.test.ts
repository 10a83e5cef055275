/**
 * The shared conformance suite: random corpora and random queries, and every engine must give
 * exactly the reference evaluator's totals, pages (walked forward with cursors, and backwards),
 * cursors between hits, and aggregation buckets.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { IndexName } from '../../src/model/field-def.ts';
import { EmbeddedEngine, PartedEngine, ReferenceEngine } from '../../src/engine/index.ts';
import { fixtureCatalogues } from './fixture-catalogue.ts';
import { certificateEntries, certificateOps, hostEntries, hostOps, type Entry, type Op } from './arbitraries.ts';
import { caseArb, compare, load, write } from './compare-engines.ts';

const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 200);

/** Parts of 1, 3 or 7 documents: most corpora span several parts, so every answer is a combined one. */
const partSizes = fc.constantFrom(undefined, 1, 3, 7);

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
    partSizes,
    (docs, writes, cases, aggregateStrategy, pageStrategy, compaction, partDocuments) => {
      const ref = new ReferenceEngine(fixtureCatalogues);
      const options = { aggregateStrategy, pageStrategy, compaction };
      const emb = partDocuments === undefined ? new EmbeddedEngine(fixtureCatalogues, options) : new PartedEngine(fixtureCatalogues, { ...options, partDocuments });
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

describe('engine conformance: embedded (one index, or parts) vs reference', () => {
  it('hosts: random documents, writes and queries', () => {
    fc.assert(property('hosts', hostEntries, hostOps), { numRuns: RUNS });
  });

  it('certificates: random documents, writes and queries', () => {
    fc.assert(property('certificates', certificateEntries, certificateOps), { numRuns: Math.ceil(RUNS / 2) });
  });
});
