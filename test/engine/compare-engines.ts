/** The conformance suite's comparison of an engine with the reference evaluator, shared with the persistence tests. */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FieldCatalogue, IndexName } from '../../src/model/field-def.ts';
import type { ResolvedQuery } from '../../src/query/resolved.ts';
import type { SearchEngine, SearchRequest, SortSpec } from '../../src/engine/index.ts';
import { aggregateFieldArb, queryArb, sortArb, type Entry, type Op } from './arbitraries.ts';

export interface Case {
  readonly query: ResolvedQuery;
  readonly sort: SortSpec[];
  readonly limit: number;
  readonly aggregateField: string;
  readonly numBuckets: number;
  readonly backAt: number;
}

export function caseArb(catalogue: FieldCatalogue): fc.Arbitrary<Case> {
  return fc.record({
    query: queryArb(catalogue),
    sort: sortArb(catalogue),
    limit: fc.integer({ min: 1, max: 6 }),
    aggregateField: aggregateFieldArb(catalogue),
    numBuckets: fc.integer({ min: 1, max: 6 }),
    backAt: fc.nat(5),
  });
}

export function load(engines: SearchEngine[], index: IndexName, entries: Entry[]): void {
  for (const e of engines) for (const { id, doc } of entries) e.upsert(index, id, doc);
}

/** Replacements and removals of loaded ids, plus one new id, after queries have built lazy structures. */
export function write(engines: SearchEngine[], index: IndexName, entries: Entry[], ops: Op[]): void {
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

export function compare(ref: SearchEngine, other: SearchEngine, index: IndexName, c: Case): void {
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

