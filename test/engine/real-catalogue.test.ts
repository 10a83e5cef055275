/**
 * Smoke test on the real catalogues: realistic host documents, queries compiled by the query
 * package, and the embedded engine answering exactly like the reference evaluator.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EmbeddedEngine, ReferenceEngine, type SearchEngine, type SearchRequest, type SortPosition } from '../../src/engine/index.ts';
import { catalogueFor } from '../../src/model/field-catalogue.ts';
import { compileQuery } from '../../src/query/index.ts';
import { realisticHost } from './realistic-hosts.ts';

const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };

const QUERIES = [
  '*',
  'services.service_name: HTTP',
  'nginx',
  'Apache',
  '"OpenSSH_8.2p1 Ubuntu"',
  'services.port: 22 and services.software.product: openssh',
  'services: (port: 443 and tls.version_selected: TLSv1_3)',
  'same_service(services.port: 80 and services.http.response.status_code: 200)',
  'not services.port: 80',
  'location.country: Germany or location.country: France',
  'services.http.response.html_title: "Welcome to nginx"',
  'services.http.response.body: "serves customers"',
  'services.http.response.headers.server: nginx',
  'services.software.version: 2.4*',
  'dns.names: /acme.*example\\.com/',
  'ip: 10.0.0.0/16',
  '10.0.0.0/8',
  'last_updated_at: [2024-03-01 TO 2024-04-01]',
  'autonomous_system.asn > 15000',
  'services.tls.certificates.leaf_data.issuer_dn: "Let\'s Encrypt"',
  'labels: remote-access',
  'services.port: {21, 25, 3306}',
  'location: *',
  'services.ssh: * and not services.http: *',
  'ngin*',
  '/openssh.*/',
];

function load(engine: SearchEngine, count: number): SearchEngine {
  for (let i = 0; i < count; i++) {
    const { id, doc } = realisticHost(i);
    engine.upsert('hosts', id, JSON.parse(JSON.stringify(doc)));
  }
  return engine;
}

describe('engines on the real host catalogue', () => {
  const ref = load(new ReferenceEngine(catalogues), 120);
  const emb = load(new EmbeddedEngine(catalogues), 120);
  const now = new Date('2024-07-01T00:00:00Z');

  for (const text of QUERIES) {
    it(`answers ${text} like the reference`, () => {
      const compiled = compileQuery(text, catalogues.hosts, { now });
      assert.ok(compiled.ok, `query does not compile: ${JSON.stringify(!compiled.ok && compiled.error)}`);
      const query = compiled.query;
      for (const sort of [[], [{ field: 'services.port', descending: true }]]) {
        let after: SortPosition | undefined;
        for (let page = 0; page < 3; page++) {
          const req: SearchRequest = { query, sort, limit: 20, ...(after ? { after } : {}) };
          const expected = ref.search('hosts', req);
          assert.deepStrictEqual(emb.search('hosts', req), expected);
          if (!expected.more) break;
          after = expected.hits[expected.hits.length - 1].position;
        }
      }
      for (const field of ['services.port', 'services.software.product', 'ip', 'last_updated_at']) {
        const req = { query, field, numBuckets: 10 };
        assert.deepStrictEqual(emb.aggregate('hosts', req), ref.aggregate('hosts', req));
      }
    });
  }

  it('finds what the documents hold', () => {
    const compiled = compileQuery('services.port: 22', catalogues.hosts);
    assert.ok(compiled.ok);
    let expected = 0;
    for (let i = 0; i < 120; i++) {
      const services = realisticHost(i).doc.services as { port: number }[];
      if (services.some((s) => s.port === 22)) expected++;
    }
    assert.ok(expected > 0);
    assert.equal(emb.search('hosts', { query: compiled.query, limit: 1 }).total, expected);
  });
});
