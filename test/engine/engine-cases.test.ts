/**
 * Hand-written cases every engine must answer exactly as stated: the corners of the semantics
 * in query/resolved.ts and engine/search-engine.ts that random testing may rarely reach.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cidrRange, ipKey } from '../../src/lib/ip.ts';
import type { Doc, SearchEngine } from '../../src/engine/index.ts';
import { fixtureCertificates } from './fixture-catalogue.ts';
import {
  all,
  allIds,
  and,
  engineFactories,
  eq,
  exists,
  field,
  fulltext,
  nested,
  not,
  or,
  range,
} from './engine-helpers.ts';

function load(engine: SearchEngine, docs: Record<string, Doc>): SearchEngine {
  for (const [id, doc] of Object.entries(docs)) engine.upsert('hosts', id, doc);
  return engine;
}

const sorted = (ids: string[]): string[] => [...ids].sort();

for (const { name, make } of engineFactories) {
  describe(`engine cases: ${name}`, () => {
    const twoServices = (): SearchEngine =>
      load(make(), {
        '10.0.0.1': { ip: '10.0.0.1', services: [{ port: 22, service_name: 'SSH' }, { port: 80, service_name: 'HTTP' }] },
        '10.0.0.2': { ip: '10.0.0.2', services: [{ port: 22, service_name: 'HTTP' }] },
        '10.0.0.3': { ip: '10.0.0.3' },
      });

    it('matches dotted nested fields on any element but `nested` on one element', () => {
      const e = twoServices();
      const port22 = field('services.port', eq(22));
      const http = field('services.service_name', eq('http'));
      assert.deepEqual(sorted(allIds(e, 'hosts', and(port22, http))), ['10.0.0.1', '10.0.0.2']);
      assert.deepEqual(allIds(e, 'hosts', nested(and(port22, http))), ['10.0.0.2']);
    });

    it('evaluates `not` inside nested per element', () => {
      const e = twoServices();
      const port22 = field('services.port', eq(22));
      assert.deepEqual(allIds(e, 'hosts', nested(not(port22))), ['10.0.0.1']);
      assert.deepEqual(allIds(e, 'hosts', not(nested(port22))), ['10.0.0.3']);
      assert.deepEqual(allIds(e, 'hosts', not(port22)), ['10.0.0.3']);
      assert.deepEqual(allIds(e, 'hosts', nested(and(port22, not(field('services.service_name', eq('SSH', true)))))), ['10.0.0.2']);
    });

    it('tells IPv4 and IPv6 CIDR blocks apart and canonicalises addresses', () => {
      const e = load(make(), {
        '10.1.2.3': { ip: '10.1.2.3' },
        '2001:db8::1': { ip: '2001:db8::1' },
        '10.1.2.4': { ip: '::ffff:10.1.2.4' },
        '192.168.0.1': { ip: '192.168.0.1', services: [{ source_ip: 'garbage' }] },
      });
      const cidr = (c: string) => {
        const r = cidrRange(c)!;
        return field('ip', range(r.lo, r.hi));
      };
      assert.deepEqual(allIds(e, 'hosts', cidr('10.0.0.0/8')), ['10.1.2.3', '10.1.2.4']);
      assert.deepEqual(allIds(e, 'hosts', cidr('2001:db8::/32')), ['2001:db8::1']);
      assert.equal(allIds(e, 'hosts', cidr('::/0')).length, 4);
      assert.deepEqual(allIds(e, 'hosts', field('ip', eq('::ffff:10.1.2.3'))), ['10.1.2.3']);
      assert.deepEqual(allIds(e, 'hosts', field('services.source_ip', exists)), ['192.168.0.1']);
      assert.deepEqual(allIds(e, 'hosts', field('services.source_ip', eq('garbage'))), []);
      const r = cidrRange('10.1.2.0/24')!;
      assert.deepEqual(allIds(e, 'hosts', fulltext('10.1.2.0/24', r)), ['10.1.2.3', '10.1.2.4']);
      const agg = e.aggregate('hosts', { query: all, field: 'ip', numBuckets: 2 });
      assert.deepEqual(agg, {
        total: 4,
        totalOmitted: 2,
        buckets: [
          { key: '10.1.2.3', count: 1 },
          { key: '10.1.2.4', count: 1 },
        ],
      });
    });

    it('compares dates as instants and ignores unparseable ones', () => {
      const e = load(make(), {
        '10.0.0.1': { last_updated_at: '2024-01-01T00:00:00Z' },
        '10.0.0.2': { last_updated_at: '2024-01-01T01:00:00+01:00' },
        '10.0.0.3': { last_updated_at: '2024-06-01T12:00:00.500Z' },
        '10.0.0.4': { last_updated_at: 'soon' },
      });
      const jan1 = Date.parse('2024-01-01T00:00:00Z');
      assert.deepEqual(allIds(e, 'hosts', field('last_updated_at', eq(jan1))), ['10.0.0.1', '10.0.0.2']);
      assert.deepEqual(allIds(e, 'hosts', field('last_updated_at', range(jan1, undefined, false))), ['10.0.0.3']);
      assert.deepEqual(allIds(e, 'hosts', field('last_updated_at', range(undefined, jan1))), ['10.0.0.1', '10.0.0.2']);
      assert.deepEqual(allIds(e, 'hosts', field('last_updated_at', exists)).length, 4);
      const agg = e.aggregate('hosts', { query: all, field: 'last_updated_at', numBuckets: 10 });
      assert.deepEqual(agg.buckets, [
        { key: '2024-01-01T00:00:00.000Z', count: 2 },
        { key: '2024-06-01T12:00:00.500Z', count: 1 },
      ]);
      assert.equal(agg.total, 3);
    });

    it('counts multi-valued fields once per document and value', () => {
      const e = load(make(), {
        '10.0.0.1': { labels: ['a', 'b', 'a'] },
        '10.0.0.2': { labels: ['b'] },
        '10.0.0.3': { labels: 'c' },
      });
      assert.deepEqual(allIds(e, 'hosts', field('labels', eq('B'))), ['10.0.0.1', '10.0.0.2']);
      assert.deepEqual(allIds(e, 'hosts', field('labels', eq('B', true))), []);
      assert.deepEqual(e.aggregate('hosts', { query: all, field: 'labels', numBuckets: 2 }), {
        total: 3,
        totalOmitted: 1,
        buckets: [
          { key: 'b', count: 2 },
          { key: 'a', count: 1 },
        ],
      });
    });

    it('matches wildcards and regexes on whole text values or single tokens', () => {
      const e = load(make(), {
        '10.0.0.1': { services: [{ banner: 'Server: Apache httpd 2.4' }] },
        '10.0.0.2': { services: [{ banner: 'nginx' }] },
      });
      const banner = (p: Parameters<typeof field>[1]) => allIds(e, 'hosts', field('services.banner', p));
      assert.deepEqual(banner({ op: 'wildcard', pattern: 'apa*', caseSensitive: false }), ['10.0.0.1']);
      assert.deepEqual(banner({ op: 'wildcard', pattern: 'Server*', caseSensitive: true }), ['10.0.0.1']);
      assert.deepEqual(banner({ op: 'wildcard', pattern: 'Apa*', caseSensitive: true }), []);
      assert.deepEqual(banner({ op: 'wildcard', pattern: 'ng?nx', caseSensitive: false }), ['10.0.0.2']);
      assert.deepEqual(banner({ op: 'regex', source: 'http.', caseSensitive: false }), ['10.0.0.1']);
      assert.deepEqual(banner({ op: 'regex', source: 'http', caseSensitive: false }), []);
      assert.deepEqual(banner({ op: 'tokens', tokens: ['apache', 'httpd'], phrase: true }), ['10.0.0.1']);
      assert.deepEqual(banner({ op: 'tokens', tokens: ['httpd', 'apache'], phrase: true }), []);
      assert.deepEqual(banner({ op: 'tokens', tokens: ['httpd', 'apache'], phrase: false }), ['10.0.0.1']);
      assert.deepEqual(allIds(e, 'hosts', fulltext('APACHE')), ['10.0.0.1']);
      assert.deepEqual(allIds(e, 'hosts', fulltext('"apache httpd"', undefined, true)), ['10.0.0.1']);
    });

    it('requires the tokens of one value, not of several values or fields', () => {
      const e = load(make(), {
        '10.0.0.1': { services: [{ banner: 'alpha' }, { banner: 'beta' }] },
        '10.0.0.2': { services: [{ banner: 'alpha beta' }] },
        '10.0.0.3': { autonomous_system: { name: 'alpha' }, services: [{ banner: 'beta' }] },
      });
      assert.deepEqual(allIds(e, 'hosts', field('services.banner', { op: 'tokens', tokens: ['alpha', 'beta'], phrase: false })), ['10.0.0.2']);
      assert.deepEqual(allIds(e, 'hosts', fulltext('alpha beta')), ['10.0.0.2']);
      assert.deepEqual(allIds(e, 'hosts', fulltext('alpha')), ['10.0.0.1', '10.0.0.2', '10.0.0.3']);
    });

    it('matches keyword fields case-insensitively from bare terms, whole value only', () => {
      const e = load(make(), {
        '10.0.0.1': { dns: { names: ['WWW.Example.com'] }, location: { city: 'Paris' } },
        '10.0.0.2': { dns: { names: ['example.com'] } },
      });
      assert.deepEqual(allIds(e, 'hosts', fulltext('www.example.COM')), ['10.0.0.1']);
      assert.deepEqual(allIds(e, 'hosts', fulltext('example')), []);
      assert.deepEqual(allIds(e, 'hosts', fulltext('paris')), [], 'location.city is not fullText');
    });

    it('replaces a document on upsert and forgets it on remove', () => {
      const e = make();
      e.upsert('hosts', '10.0.0.9', { services: [{ port: 22 }] });
      e.upsert('hosts', '10.0.0.9', { services: [{ port: 80 }] });
      assert.equal(e.size('hosts'), 1);
      assert.deepEqual(allIds(e, 'hosts', field('services.port', eq(22))), []);
      assert.deepEqual(allIds(e, 'hosts', field('services.port', eq(80))), ['10.0.0.9']);
      assert.deepEqual(e.aggregate('hosts', { query: all, field: 'services.port', numBuckets: 5 }).buckets, [{ key: '80', count: 1 }]);
      e.remove('hosts', '10.0.0.9');
      e.remove('hosts', '10.9.9.9');
      assert.equal(e.size('hosts'), 0);
      assert.deepEqual(allIds(e, 'hosts', all), []);
      assert.deepEqual(allIds(e, 'hosts', not(field('services.port', eq(22)))), []);
      assert.deepEqual(e.aggregate('hosts', { query: all, field: 'services.port', numBuckets: 5 }), { total: 0, totalOmitted: 0, buckets: [] });
    });

    it('aggregates nested fields per service of matching hosts', () => {
      const e = load(make(), {
        '10.0.0.1': { services: [{ port: 22 }, { port: 80 }, { port: 22 }] },
        '10.0.0.2': { services: [{ port: 22, service_name: 'SSH' }, { service_name: 'X' }] },
        '10.0.0.3': { services: [{ port: 443 }] },
      });
      const q = field('services.port', eq(22));
      assert.deepEqual(e.aggregate('hosts', { query: q, field: 'services.port', numBuckets: 1 }), {
        total: 4,
        totalOmitted: 1,
        buckets: [{ key: '22', count: 3 }],
      });
      assert.deepEqual(e.aggregate('hosts', { query: all, field: 'services.service_name', numBuckets: 5 }), {
        total: 2,
        totalOmitted: 0,
        buckets: [
          { key: 'SSH', count: 1 },
          { key: 'X', count: 1 },
        ],
      });
    });

    it('pages forward and backward through the total order', () => {
      const e = make();
      const ips = ['10.0.0.5', '10.0.0.1', '10.0.0.3', '10.0.0.2', '10.0.0.4', '2001:db8::1'];
      ips.forEach((ip, i) => e.upsert('hosts', ip, { ip, services: [{ port: i % 2 === 0 ? 80 : 22 }] }));
      e.upsert('hosts', '10.0.0.2+b.example', { ip: '10.0.0.2', name: 'b.example' });
      const first = e.search('hosts', { query: all, limit: 3 });
      assert.equal(first.total, 7);
      assert.deepEqual(first.hits.map((h) => h.id), ['10.0.0.1', '10.0.0.2', '10.0.0.2+b.example']);
      assert.equal(first.more, true);
      const second = e.search('hosts', { query: all, limit: 3, after: first.hits[2].position });
      assert.deepEqual(second.hits.map((h) => h.id), ['10.0.0.3', '10.0.0.4', '10.0.0.5']);
      const third = e.search('hosts', { query: all, limit: 3, after: second.hits[2].position });
      assert.deepEqual(third.hits.map((h) => h.id), ['2001:db8::1']);
      assert.equal(third.more, false);
      const back = e.search('hosts', { query: all, limit: 2, after: second.hits[0].position, backwards: true });
      assert.deepEqual(back.hits.map((h) => h.id), ['10.0.0.2', '10.0.0.2+b.example']);
      assert.equal(back.more, true);

      const sort = [{ field: 'services.port', descending: true }];
      const bySort = e.search('hosts', { query: all, limit: 4, sort });
      assert.deepEqual(bySort.hits.map((h) => h.id), ['10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.1']);
      assert.deepEqual(bySort.hits[0].position, { values: [80], orderKey: ipKey('10.0.0.3') });
      const rest = e.search('hosts', { query: all, limit: 4, sort, after: bySort.hits[3].position });
      assert.deepEqual(rest.hits.map((h) => h.id), ['10.0.0.2', '2001:db8::1', '10.0.0.2+b.example']);
      assert.deepEqual(rest.hits[2].position.values, [null]);
      assert.equal(rest.more, false);
    });

    it('answers exists on object prefixes and on dynamic fields', () => {
      const e = load(make(), {
        '10.0.0.1': { location: { coordinates: { latitude: 1.5 } }, services: [{ http: { response: { headers: { 'X-Powered-By': ['PHP'] } } } }] },
        '10.0.0.2': { location: { country: null }, services: [] },
      });
      const prefix = (path: string) =>
        allIds(e, 'hosts', { kind: 'field', field: { path, docPath: path, type: 'keyword', fullText: false, aggregatable: false }, predicate: exists });
      assert.deepEqual(prefix('location'), ['10.0.0.1']);
      assert.deepEqual(prefix('services'), ['10.0.0.1']);
      assert.deepEqual(prefix('services.http.response'), ['10.0.0.1']);
      assert.deepEqual(allIds(e, 'hosts', field('services.http.response.headers.x_powered_by.headers', eq('php'))), ['10.0.0.1']);
      assert.deepEqual(allIds(e, 'hosts', nested(field('services.http.response.headers.x_powered_by.headers', exists))), ['10.0.0.1']);
    });

    it('searches certificates by fingerprint order', () => {
      const e = make();
      e.upsert('certificates', 'BB', { parsed: { issuer: { organization: 'DigiCert Inc' } }, revoked: false });
      e.upsert('certificates', 'aa', { parsed: { issuer: { organization: "Let's Encrypt" } }, revoked: true });
      const hits = e.search('certificates', { query: or(field('revoked', eq(true), fixtureCertificates), field('parsed.issuer.organization', eq('digicert inc'), fixtureCertificates)), limit: 10 });
      assert.deepEqual(hits.hits.map((h) => h.id), ['aa', 'BB']);
      assert.deepEqual(e.aggregate('certificates', { query: all, field: 'revoked', numBuckets: 10 }).buckets, [
        { key: 'false', count: 1 },
        { key: 'true', count: 1 },
      ]);
    });
  });
}
