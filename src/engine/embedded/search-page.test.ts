/**
 * Pages and nested-field matches over an index larger than a few order blocks (the conformance
 * corpora fit in one): every page strategy walks forward and backward across block boundaries
 * exactly like the reference, sorted pages pick theirs among many matches, and document-level
 * postings of nested fields catch up with appended elements, replaced and removed documents,
 * and compaction.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Doc, SearchEngine, SearchRequest } from '../search-engine.ts';
import type { ResolvedQuery } from '../../query/resolved.ts';
import { EmbeddedEngine, ReferenceEngine } from '../index.ts';
import { fixtureCatalogues } from '../../../test/engine/fixture-catalogue.ts';
import { and, eq, field, not, or, range } from '../../../test/engine/engine-helpers.ts';
import { ORDER_BLOCK } from './order-index.ts';

const NAMES = ['SSH', 'HTTP', 'ssh', 'FTP'];

function host(i: number, salt: number): Doc {
  const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const n = (i * 7 + salt) % 4;
  const services = Array.from({ length: n }, (_, j) => ({ port: 20 + ((i + j * 13 + salt) % 70), service_name: NAMES[(i + j + salt) % 4] }));
  // Every 11th host has `services` as an object, not an array: a pseudo-element.
  return { ip, ...(i % 11 === 0 ? { services: { port: 80, service_name: 'HTTP' } } : n > 0 ? { services } : {}) };
}

const queries: readonly ResolvedQuery[] = [
  field('services.service_name', eq('ssh')),
  field('services.service_name', eq('SSH', true)),
  field('services.port', range(30, 60)),
  field('services.port', eq(80)),
  and(field('services.service_name', eq('HTTP')), not(field('services.port', eq(80)))),
  or(field('services.port', eq(21)), field('services.service_name', eq('FTP'))),
  // Matches together in one stretch of the order (hosts are ordered by address), blocks away
  // from both ends: walking pages skip the empty blocks before them in either direction.
  field('ip', range('10.0.36.0', '10.0.39.255')),
  field('ip', range('10.0.48.0', '10.0.48.20')),
  field('ip', range('10.0.8.0', '10.0.8.20')),
  or(field('ip', range('10.0.0.200', '10.0.0.220')), field('ip', range('10.0.40.0', '10.0.40.9'))),
];

function ids(engine: SearchEngine, request: SearchRequest): { total: number; ids: string[]; more: boolean } {
  const r = engine.search('hosts', request);
  return { total: r.total, ids: r.hits.map((h) => h.id), more: r.more };
}

function compareAll(ref: SearchEngine, engines: readonly SearchEngine[]): void {
  for (const query of queries) {
    const everything = ref.search('hosts', { query, limit: 1_000_000 }).hits;
    const cursors = [undefined, ...everything.filter((_, i) => i % 1499 === 5).map((h) => h.position)];
    for (const after of cursors) {
      for (const backwards of [false, true]) {
        for (const limit of [3, 100]) {
          const request: SearchRequest = { query, limit, ...(after ? { after } : {}), backwards };
          const want = ids(ref, request);
          for (const e of engines) assert.deepEqual(ids(e, request), want, JSON.stringify({ query, limit, backwards, after }));
        }
      }
    }
    // Sorted pages select their hits from every match (more than a page).
    for (const sort of [[{ field: 'services.port', descending: false }], [{ field: 'ip', descending: true }]]) {
      const sorted = ref.search('hosts', { query, sort, limit: 1_000_000 }).hits;
      for (const after of [undefined, sorted[150]?.position]) {
        for (const backwards of [false, true]) {
          const request: SearchRequest = { query, sort, limit: 100, ...(after ? { after } : {}), backwards };
          const want = ids(ref, request);
          for (const e of engines) assert.deepEqual(ids(e, request), want, JSON.stringify({ query, sort, backwards, after }));
        }
      }
    }
  }
}

describe('embedded pages and nested matches across order blocks', () => {
  it('match the reference through appends, replacements, removals and compaction', () => {
    const size = 3 * ORDER_BLOCK + 123;
    const ref = new ReferenceEngine(fixtureCatalogues);
    const engines = (['auto', 'walk', 'rank'] as const).flatMap((pageStrategy) => [
      new EmbeddedEngine(fixtureCatalogues, { pageStrategy }),
      new EmbeddedEngine(fixtureCatalogues, { pageStrategy, compaction: { minDead: 500, ratio: 0 } }),
    ]);
    const all = [ref, ...engines];
    const upsert = (i: number, salt: number) => {
      const doc = host(i, salt);
      for (const e of all) e.upsert('hosts', doc.ip as string, doc);
    };
    for (let i = 0; i < size; i++) upsert(i, 0);
    compareAll(ref, engines);
    // Derived structures are built now: they must catch up with every kind of write.
    for (let i = 0; i < size; i += 5) upsert(i, 1);
    for (let i = size; i < size + 300; i++) upsert(i, 2);
    for (let i = 3; i < size; i += 17) for (const e of all) e.remove('hosts', host(i, 0).ip as string);
    compareAll(ref, engines);
  });

  it('a cursor holding a value of a field no document has: every document (none has one) comes after it', () => {
    // An index made of parts hands each part the cursor of another part's hit (parted-engine.ts).
    const ref = new ReferenceEngine(fixtureCatalogues);
    const emb = new EmbeddedEngine(fixtureCatalogues);
    for (const e of [ref, emb]) for (let i = 0; i < 5; i++) e.upsert('hosts', host(i * 2 + 1, 0).ip as string, { ip: host(i * 2 + 1, 0).ip });
    for (const descending of [false, true]) {
      for (const backwards of [false, true]) {
        const request: SearchRequest = { query: not(field('services.port', eq(1))), sort: [{ field: 'services.port', descending }], limit: 3, after: { values: [443], orderKey: 'x' }, backwards };
        const expected = ref.search('hosts', request);
        assert.equal(expected.hits.length, backwards ? 0 : 3);
        assert.deepEqual(emb.search('hosts', request), expected);
      }
    }
  });
});
