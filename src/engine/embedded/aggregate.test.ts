/**
 * The kept whole-corpus counts (live-group-counts.ts) and the "most documents match" path, which
 * subtracts the other documents from them (counted once while they stay the same), against the
 * reference engine as documents are appended, replaced (tombstones), purged (compaction) and when
 * a root is not an array (pseudo-elements).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Doc } from '../search-engine.ts';
import { EmbeddedEngine, ReferenceEngine, type SearchEngine } from '../index.ts';
import { all, eq, field, not } from '../../../test/engine/engine-helpers.ts';
import { fixtureCatalogues } from '../../../test/engine/fixture-catalogue.ts';

const queries = [all, not(field('location.country', eq('FR'))), field('location.country', eq('FR')), not(field('services.port', eq(443)))];
const fields = ['services.port', 'services.source_ip', 'services.software.product', 'location.country', 'labels'];

function host(i: number): Doc {
  const services =
    i % 7 === 3
      ? { port: 8000 + (i % 3), software: [{ product: 'nginx' }] }
      : [
          { port: 80, software: [{ product: 'nginx' }, { product: i % 2 ? 'nginx' : 'openssl' }] },
          // Two raw values of one typed value (an IPv4 address, mapped or not): the element counts once.
          { port: i % 4 === 0 ? 443 : '443', source_ip: i % 4 === 1 ? ['10.0.0.1', '::ffff:10.0.0.1'] : '10.0.0.2', software: { product: `p${i % 5}` } },
          { port: 22 },
        ].slice(0, 1 + (i % 3));
  return { location: { country: i % 4 === 0 ? 'FR' : `C${i % 3}` }, labels: [`l${i % 3}`, `l${i % 5}`], services };
}

function same(ref: SearchEngine, emb: SearchEngine, when: string): void {
  for (const query of queries) {
    for (const f of fields) {
      for (const numBuckets of [0, 2, 50]) {
        const req = { query, field: f, numBuckets };
        assert.deepStrictEqual(emb.aggregate('hosts', req), ref.aggregate('hosts', req), `${when}: ${JSON.stringify(req)}`);
      }
    }
  }
}

describe('embedded aggregation over most or all documents', () => {
  for (const compaction of [{ minDead: Infinity, ratio: 1 }, { minDead: 1, ratio: 0 }]) {
    it(`catches up with appends, replacements and removals (compaction after ${compaction.minDead} dead)`, () => {
      const ref = new ReferenceEngine(fixtureCatalogues);
      const emb = new EmbeddedEngine(fixtureCatalogues, { compaction });
      const both = (f: (e: SearchEngine) => void) => [ref, emb].forEach(f);
      for (let i = 0; i < 40; i++) both((e) => e.upsert('hosts', `h${i}`, host(i)));
      same(ref, emb, 'loaded');
      for (let i = 40; i < 60; i++) both((e) => e.upsert('hosts', `h${i}`, host(i)));
      same(ref, emb, 'appended');
      for (let i = 0; i < 60; i += 9) both((e) => e.upsert('hosts', `h${i}`, host(i + 1)));
      same(ref, emb, 'replaced');
      for (let i = 1; i < 60; i += 11) both((e) => e.remove('hosts', `h${i}`));
      same(ref, emb, 'removed');
      for (let i = 60; i < 70; i++) both((e) => e.upsert('hosts', `h${i}`, host(i)));
      same(ref, emb, 'appended again');
      // Documents outside the left-out set (not FR) with values never seen: the counts of the
      // left-out documents, kept from the last call, stay valid while the view gains groups.
      for (let i = 70; i < 75; i++) both((e) => e.upsert('hosts', `h${i}`, { location: { country: 'C9' }, labels: [`new${i}`], services: [{ port: 9000 + i, software: { product: `q${i}` } }] }));
      same(ref, emb, 'new groups outside the left-out documents');
      // And inside them: the left-out set changes, so they are counted again.
      both((e) => e.upsert('hosts', 'h75', { location: { country: 'FR' }, labels: ['new75'], services: [{ port: 9075 }] }));
      same(ref, emb, 'a new left-out document');
    });
  }
});
