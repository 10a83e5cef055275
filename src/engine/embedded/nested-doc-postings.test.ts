/**
 * Token and phrase matches on a nested text field (`services.banner`) answered from postings
 * lifted to documents: derived on a token's or pair's first query, caught up with the elements
 * written since, dropped on compaction, evicted past a bound. Every answer must stay the
 * reference's through new values, values repeated in other documents, updates that drop a match,
 * removals and compaction.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Doc, SearchEngine } from '../search-engine.ts';
import type { Predicate, ResolvedQuery } from '../../query/resolved.ts';
import { tokenize } from '../../model/tokenize.ts';
import { EmbeddedEngine, ReferenceEngine } from '../index.ts';
import { fixtureCatalogues } from '../../../test/engine/fixture-catalogue.ts';
import { and, field, nested, not, eq } from '../../../test/engine/engine-helpers.ts';

const SERVERS = ['nginx', 'apache', 'caddy', 'lighttpd'];

function banner(i: number, server: string): string {
  return `HTTP/1.1 200 OK\r\nServer: ${server}/${i % 7}\r\nX-Id: h${i}\r\n`;
}

function host(i: number, banners: readonly string[]): Doc {
  return { ip: `10.1.${i >> 8}.${i & 255}`, services: banners.map((b, k) => ({ port: 80 + k, service_name: 'HTTP', banner: b })) };
}

function tokens(text: string, phrase: boolean): Predicate {
  return { op: 'tokens', tokens: tokenize(text), phrase };
}

const queries: readonly ResolvedQuery[] = [
  field('services.banner', tokens('Server: nginx', true)),
  field('services.banner', tokens('nginx', false)),
  field('services.banner', tokens('nginx', true)),
  field('services.banner', tokens('server apache', true)),
  field('services.banner', tokens('apache server', true)),
  field('services.banner', tokens('Server: caddy/3', true)),
  field('services.banner', tokens('caddy ok', false)),
  field('services.banner', tokens('shared banner', true)),
  and(field('services.banner', tokens('Server: nginx', true)), not(field('services.port', eq(81)))),
  nested(and(field('services.banner', tokens('Server: nginx', true)), field('services.port', eq(80)))),
];

function ids(e: SearchEngine, q: ResolvedQuery): string[] {
  return e.search('hosts', { query: q, limit: 10_000 }).hits.map((h) => h.id).sort();
}

function agree(engines: readonly SearchEngine[], label: string): void {
  for (const q of queries) {
    const [expected, got] = engines.map((e) => ids(e, q));
    assert.deepEqual(got, expected, `${label}: ${JSON.stringify(q).slice(0, 160)}`);
    assert.equal(engines[1].search('hosts', { query: q, limit: 0 }).total, expected.length, `${label}: total`);
  }
}

describe('token postings lifted to documents', () => {
  for (const compaction of [undefined, { minDead: 1, ratio: 0.1 }]) {
    it(`answer as the reference through writes (compaction ${compaction ? 'early' : 'default'})`, () => {
      const engines: SearchEngine[] = [new ReferenceEngine(fixtureCatalogues), new EmbeddedEngine(fixtureCatalogues, compaction ? { compaction } : {})];
      const write = (i: number, doc: Doc | null): void => {
        for (const e of engines) {
          if (doc) e.upsert('hosts', `h${i}`, doc);
          else e.remove('hosts', `h${i}`);
        }
      };
      for (let i = 0; i < 400; i++) write(i, host(i, [banner(i, SERVERS[i % 4]), ...(i % 5 === 0 ? [banner(i + 1, SERVERS[(i + 1) % 4])] : [])]));
      agree(engines, 'loaded');
      agree(engines, 'derived');
      // A few writes are caught up element by element; many (below) make the postings derived again.
      for (let i = 0; i < 400; i += 40) write(i, host(i, [banner(i, 'nginx'), 'a shared banner']));
      for (let i = 500; i < 505; i++) write(i, host(i, [banner(i, SERVERS[i % 4]), 'a shared banner']));
      agree(engines, 'a few writes');
      // New matching values, and one value repeated in many documents (a value of several units).
      for (let i = 400; i < 500; i++) write(i, host(i, [banner(i, 'nginx'), 'a shared banner']));
      agree(engines, 'new documents');
      // Matching documents updated to other servers, others to nginx; some removed.
      for (let i = 0; i < 400; i += 8) write(i, host(i, [banner(i, 'apache')]));
      for (let i = 1; i < 400; i += 8) write(i, host(i, [banner(i, 'nginx'), 'a shared banner']));
      for (let i = 2; i < 500; i += 11) write(i, null);
      agree(engines, 'updated and removed');
      // Removed documents written again, matching.
      for (let i = 2; i < 500; i += 22) write(i, host(i, [banner(i, 'caddy'), banner(i, 'nginx')]));
      agree(engines, 'written again');
    });
  }

  it('stay exact when more pairs are asked for than are kept', () => {
    const engines: SearchEngine[] = [new ReferenceEngine(fixtureCatalogues), new EmbeddedEngine(fixtureCatalogues)];
    for (let i = 0; i < 300; i++) for (const e of engines) e.upsert('hosts', `h${i}`, host(i, [banner(i, SERVERS[i % 4])]));
    // 300 distinct pairs: past the per-slot bound, the first ones are evicted and derived again.
    const many = Array.from({ length: 300 }, (_, i) => field('services.banner', tokens(`id: h${i}`, true)));
    for (const round of ['first', 'again']) {
      for (const [k, q] of many.entries()) {
        const [expected, got] = engines.map((e) => ids(e, q));
        assert.deepEqual(got, expected, `${round} ${k}`);
        assert.equal(got.length, round === 'first' || k % 3 !== 0 ? 1 : 0);
      }
      for (let i = 0; i < 300; i += 3) for (const e of engines) e.upsert('hosts', `h${i}`, host(i, [banner(i + 1000, 'nginx')]));
    }
    agree(engines, 'after many');
  });
});
