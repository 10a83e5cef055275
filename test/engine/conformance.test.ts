/**
 * The shared conformance suite: random corpora and random queries, and every engine must give
 * exactly the reference evaluator's totals, pages (walked forward with cursors, and backwards),
 * cursors between hits, and aggregation buckets.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FieldCatalogue, IndexName } from '../../src/model/field-def.ts';
import type { ResolvedQuery } from '../../src/query/resolved.ts';
import { EmbeddedEngine, ReferenceEngine, type SearchEngine, type SearchRequest, type SortSpec } from '../../src/engine/index.ts';
import { fixtureCatalogues } from './fixture-catalogue.ts';
import {
  aggregateFieldArb,
  certificateEntries,
  certificateOps,
  hostEntries,
  hostOps,
  queryArb,
  sortArb,
  type Entry,
  type Op,
} from './arbitraries.ts';

const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 200);

interface Case {
  readonly query: ResolvedQuery;
  readonly sort: SortSpec[];
  readonly limit: number;
  readonly aggregateField: string;
  readonly numBuckets: number;
  readonly backAt: number;
}

function caseArb(catalogue: FieldCatalogue): fc.Arbitrary<Case> {
  return fc.record({
    query: queryArb(catalogue),
    sort: sortArb(catalogue),
    limit: fc.integer({ min: 1, max: 6 }),
    aggregateField: aggregateFieldArb(catalogue),
    numBuckets: fc.integer({ min: 1, max: 6 }),
    backAt: fc.nat(5),
  });
}

function load(engines: SearchEngine[], index: IndexName, entries: Entry[]): void {
  for (const e of engines) for (const { id, doc } of entries) e.upsert(index, id, doc);
}

/** Replacements and removals of loaded ids, plus one new id, after queries have built lazy structures. */
function write(engines: SearchEngine[], index: IndexName, entries: Entry[], ops: Op[]): void {
  for (const e of engines) {
    for (const op of ops) {
      if (entries.length === 0) continue;
      const id = entries[op.at % entries.length].id;
      if (op.kind === 'upsert') e.upsert(index, id, op.doc);
      else e.remove(index, id);
    }
    const extra = ops.find((op) => op.kind === 'upsert');
    if (extra?.kind === 'upsert') e.upsert(index, index === 'hosts' ? '10.9.9.9' : 'ffff', extra.doc);
  }
}

function shift(by: number, suffix: string) {
  return (v: string | number | null): string | number | null =>
    typeof v === 'number' ? v + by : typeof v === 'string' ? (suffix ? v + suffix : v.slice(0, -1)) : null;
}

function compare(ref: SearchEngine, other: SearchEngine, index: IndexName, c: Case): void {
  const search = (req: SearchRequest) => {
    const expected = ref.search(index, req);
    assert.deepStrictEqual(other.search(index, req), expected, `search ${JSON.stringify(req)}`);
    return expected;
  };
  const base = { query: c.query, sort: c.sort, limit: c.limit };
  // Forward walk over every page.
  const pages = [search(base)];
  for (let guard = 0; pages[pages.length - 1].more && guard < 40; guard++) {
    const last = pages[pages.length - 1].hits;
    pages.push(search({ ...base, after: last[last.length - 1].position }));
  }
  // One step back from the start of some page, and from the end.
  const page = pages[c.backAt % pages.length];
  if (page.hits.length > 0) search({ ...base, after: page.hits[0].position, backwards: true });
  search({ ...base, backwards: true });
  // Cursors that are not hits of this query: positions of other documents in the same order.
  const everything = ref.search(index, { query: { kind: 'all' }, sort: c.sort, limit: 1000 }).hits;
  for (const h of [everything[c.backAt % Math.max(1, everything.length)], everything[everything.length - 1]]) {
    if (!h) continue;
    search({ ...base, after: h.position });
    search({ ...base, after: h.position, backwards: true });
    // Positions falling between values: nudged numbers and strings, missing values.
    for (const nudge of [shift(0.5, '\u0000'), shift(-0.5, '')]) {
      const between = { values: h.position.values.map(nudge), orderKey: h.position.orderKey + '\u0000' };
      search({ ...base, after: between });
      search({ ...base, after: between, backwards: true });
    }
  }
  const agg = { query: c.query, field: c.aggregateField, numBuckets: c.numBuckets };
  assert.deepStrictEqual(other.aggregate(index, agg), ref.aggregate(index, agg), `aggregate ${JSON.stringify(agg)}`);
}

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
