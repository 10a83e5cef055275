/**
 * A negated `field: *` of the documents in a conjunction (the hosts API's default
 * `virtual_hosts: EXCLUDE` adds `and not name: *`) intersects with the live documents without
 * the field, which the scope keeps between queries: documents that lost the field, gained it,
 * or were removed and written again after it was kept must still be answered exactly as the
 * reference answers them, with compaction or without.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Doc, SearchEngine } from '../search-engine.ts';
import type { ResolvedQuery } from '../../query/resolved.ts';
import { EmbeddedEngine, ReferenceEngine } from '../index.ts';
import { fixtureCatalogues } from '../../../test/engine/fixture-catalogue.ts';
import { all, allIds, and, eq, exists, field, nested, not, or } from '../../../test/engine/engine-helpers.ts';

function host(i: number, named: boolean, port: number): Doc {
  return { ip: `10.0.${i >> 8}.${i & 255}`, ...(named ? { name: `h${i}.example.com` } : {}), services: [{ port, service_name: port === 22 ? 'SSH' : 'HTTP' }] };
}

const hasName = field('name', exists);
const queries: readonly ResolvedQuery[] = [
  not(hasName),
  and(field('services.port', eq(22)), not(hasName)),
  and(field('services.service_name', eq('http')), not(hasName), not(field('services.port', eq(8080)))),
  and(all, not(hasName)),
  and(not(hasName), not(field('services.port', eq(22)))),
  and(or(field('services.port', eq(22)), hasName), not(hasName)),
  nested(and(field('services.port', eq(22)), not(field('services.service_name', eq('http'))))),
  and(hasName, not(field('ip', exists))),
];

function agree(engines: SearchEngine[], label: string): void {
  for (const q of queries) {
    const [expected, ...rest] = engines.map((e) => allIds(e, 'hosts', q).sort());
    for (const got of rest) assert.deepEqual(got, expected, `${label}: ${JSON.stringify(q).slice(0, 200)}`);
  }
}

describe('negated existence in conjunctions', () => {
  for (const compaction of [undefined, { minDead: 1, ratio: 0.1 }]) {
    it(`answers as the reference through writes that add, drop and remove names (compaction ${compaction ? 'early' : 'default'})`, () => {
      const engines: SearchEngine[] = [
        new ReferenceEngine(fixtureCatalogues),
        new EmbeddedEngine(fixtureCatalogues, compaction ? { compaction } : {}),
      ];
      const write = (id: number, doc: Doc | null): void => {
        for (const e of engines) {
          if (doc) e.upsert('hosts', `h${id}`, doc);
          else e.remove('hosts', `h${id}`);
        }
      };
      for (let i = 0; i < 300; i++) write(i, host(i, i % 3 === 0, [22, 80, 8080][i % 3]!));
      agree(engines, 'loaded');
      // Named documents lose their name (their dead versions keep it in the existence postings).
      for (let i = 0; i < 300; i += 6) write(i, host(i, false, 22));
      agree(engines, 'names dropped');
      // Unnamed ones gain one; some are removed, some removed and written again without a name.
      for (let i = 1; i < 300; i += 5) write(i, host(i, true, 80));
      for (let i = 3; i < 300; i += 9) write(i, null);
      for (let i = 3; i < 300; i += 18) write(i, host(i, false, 22));
      agree(engines, 'names added, documents removed and rewritten');
      let named = 0;
      for (let i = 0; i < 300; i++) if (engines[0]!.search('hosts', { query: and(field('ip', eq(`10.0.${i >> 8}.${i & 255}`)), hasName), limit: 1 }).total > 0) named++;
      assert.ok(named > 50 && named < 250, `a mix of named and unnamed hosts (${named})`);
    });
  }
});
