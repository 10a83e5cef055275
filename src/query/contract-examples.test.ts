/**
 * Every example of contract §4 (the Censys query language table and its notes) parses and
 * resolves, against the test catalogues with its meaning checked, and against the real
 * catalogues of both indexes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileQuery } from './index.ts';
import type { ResolvedQuery } from './resolved.ts';
import type { FieldCatalogue, IndexName } from '../model/field-def.ts';
import { testCertificateCatalogue, testHostCatalogue } from './test-catalogue.ts';
import { catalogueFor } from '../model/field-catalogue.ts';
import { cidrRange, ipKey } from '../lib/ip.ts';

const now = new Date('2024-05-15T12:00:00Z');

/** The resolved query with each field written as `path` (FieldDefs differ between catalogues). */
function brief(q: ResolvedQuery): unknown {
  switch (q.kind) {
    case 'field':
      return { field: q.field.path, ...q.predicate };
    case 'and':
    case 'or':
      return { [q.kind]: q.children.map(brief) };
    case 'not':
      return { not: brief(q.child) };
    case 'nested':
      return { nested: brief(q.child) };
    default:
      return q;
  }
}

interface Example {
  readonly q: string;
  readonly index?: IndexName;
  /** The meaning, checked against the test catalogue. */
  readonly check: (query: ResolvedQuery) => void;
}

const isExpansion = (pattern: object) => (query: ResolvedQuery) => {
  assert.equal(query.kind, 'or');
  if (query.kind !== 'or') return;
  assert.ok(query.children.length > 5);
  for (const c of query.children) {
    assert.equal(c.kind, 'field');
    if (c.kind === 'field') assert.deepEqual({ ...c.predicate }, pattern);
  }
};

const is = (expected: unknown) => (query: ResolvedQuery) => assert.deepEqual(brief(query), expected);

const day = (iso: string): number => Date.parse(iso + 'T00:00:00Z');

const examples: Example[] = [
  // 1 bare full-text term
  { q: 'hello', check: is({ kind: 'fulltext', text: 'hello', tokens: ['hello'], phrase: false }) },
  { q: 'Dell', check: is({ kind: 'fulltext', text: 'Dell', tokens: ['dell'], phrase: false }) },
  { q: '8080', check: is({ kind: 'fulltext', text: '8080', tokens: ['8080'], phrase: false }) },
  // 2 quoted phrase
  { q: '"hello world"', check: is({ kind: 'fulltext', text: 'hello world', tokens: ['hello', 'world'], phrase: true }) },
  // 3 field: value
  { q: 'services.service_name: HTTP', check: is({ field: 'services.service_name', op: 'eq', value: 'HTTP', caseSensitive: false }) },
  { q: 'location.country: Germany', check: is({ field: 'location.country', op: 'eq', value: 'Germany', caseSensitive: false }) },
  { q: 'autonomous_system.asn: 15169', check: is({ field: 'autonomous_system.asn', op: 'eq', value: 15169, caseSensitive: false }) },
  { q: 'services.software.product: Windows', check: is({ field: 'services.software.product', op: 'tokens', tokens: ['windows'], phrase: false }) },
  { q: 'location.city: "Dell Rapids"', check: is({ field: 'location.city', op: 'tokens', tokens: ['dell', 'rapids'], phrase: true }) },
  { q: 'services.software.vendor: Dell', check: is({ field: 'services.software.vendor', op: 'tokens', tokens: ['dell'], phrase: false }) },
  // 4 exact match
  { q: 'services.software.product=Windows', check: is({ field: 'services.software.product', op: 'eq', value: 'Windows', caseSensitive: true }) },
  { q: 'services.service_name=RDP', check: is({ field: 'services.service_name', op: 'eq', value: 'RDP', caseSensitive: true }) },
  { q: 'names="censys.io"', index: 'certificates', check: is({ field: 'names', op: 'eq', value: 'censys.io', caseSensitive: true }) },
  // 5 backtick literal
  {
    q: 'services.software.uniform_resource_identifier: `cpe:2.3:a:microsoft:iis:?.*`',
    check: is({ field: 'services.software.uniform_resource_identifier', op: 'wildcard', pattern: 'cpe:2.3:a:microsoft:iis:?.*', caseSensitive: false }),
  },
  {
    q: 'autonomous_system.name=`ELOGIC-AS Elogic Srl - Cloud Services`',
    check: is({ field: 'autonomous_system.name', op: 'eq', value: 'ELOGIC-AS Elogic Srl - Cloud Services', caseSensitive: true }),
  },
  // 6 wildcards
  { q: 'Del*', check: isExpansion({ op: 'wildcard', pattern: 'Del*', caseSensitive: false }) },
  {
    q: 'services.software.uniform_resource_identifier: cpe:2.3:a:microsoft:iis:?.*',
    check: is({ field: 'services.software.uniform_resource_identifier', op: 'wildcard', pattern: 'cpe:2.3:a:microsoft:iis:?.*', caseSensitive: false }),
  },
  // 7 existence
  { q: 'services.tls: *', check: is({ field: 'services.tls', op: 'exists' }) },
  { q: '(services.kubernetes.version_info.git_version="*")', check: is({ field: 'services.kubernetes.version_info.git_version', op: 'exists' }) },
  // 8 boolean operators
  {
    q: 'services.service_name: HTTP and location.country: Germany',
    check: is({
      and: [
        { field: 'services.service_name', op: 'eq', value: 'HTTP', caseSensitive: false },
        { field: 'location.country', op: 'eq', value: 'Germany', caseSensitive: false },
      ],
    }),
  },
  { q: 'not services.service_name: HTTP', check: is({ not: { field: 'services.service_name', op: 'eq', value: 'HTTP', caseSensitive: false } }) },
  {
    q: 'labels: open-dir and labels: C2 and not labels: {tarpits, truncated}',
    check: is({
      and: [
        { field: 'labels', op: 'eq', value: 'open-dir', caseSensitive: false },
        { field: 'labels', op: 'eq', value: 'C2', caseSensitive: false },
        {
          not: {
            or: [
              { field: 'labels', op: 'eq', value: 'tarpits', caseSensitive: false },
              { field: 'labels', op: 'eq', value: 'truncated', caseSensitive: false },
            ],
          },
        },
      ],
    }),
  },
  {
    q: 'SERVICES.SERVICE_NAME: HTTP AND NOT location.country: Germany OR labels: c2',
    check: is({
      or: [
        {
          and: [
            { field: 'services.service_name', op: 'eq', value: 'HTTP', caseSensitive: false },
            { not: { field: 'location.country', op: 'eq', value: 'Germany', caseSensitive: false } },
          ],
        },
        { field: 'labels', op: 'eq', value: 'c2', caseSensitive: false },
      ],
    }),
  },
  // 9 parentheses
  {
    q: '(services.kubernetes.version_info.git_version="*") and services.kubernetes.version_info.git_version=`v1.14.6-aliyun.1`',
    check: is({
      and: [
        { field: 'services.kubernetes.version_info.git_version', op: 'exists' },
        { field: 'services.kubernetes.version_info.git_version', op: 'eq', value: 'v1.14.6-aliyun.1', caseSensitive: true },
      ],
    }),
  },
  {
    q: '("Schneider Electric" or Dell) and 23.20.0.0/14',
    check: is({
      and: [
        {
          or: [
            { kind: 'fulltext', text: 'Schneider Electric', tokens: ['schneider', 'electric'], phrase: true },
            { kind: 'fulltext', text: 'Dell', tokens: ['dell'], phrase: false },
          ],
        },
        { kind: 'fulltext', text: '23.20.0.0/14', tokens: ['23', '20', '0', '0', '14'], phrase: true, ipRange: cidrRange('23.20.0.0/14') },
      ],
    }),
  },
  // 10 value sets
  {
    q: 'services.port: {21, 22, 23, 24, 25}',
    check: is({ or: [21, 22, 23, 24, 25].map((value) => ({ field: 'services.port', op: 'eq', value, caseSensitive: false })) }),
  },
  {
    q: 'labels: {tarpits, truncated}',
    check: is({ or: ['tarpits', 'truncated'].map((value) => ({ field: 'labels', op: 'eq', value, caseSensitive: false })) }),
  },
  {
    q: 'services: (not port: {22, 2222})',
    check: is({ nested: { not: { or: [22, 2222].map((value) => ({ field: 'services.port', op: 'eq', value, caseSensitive: false })) } } }),
  },
  // 11, 12 same service
  {
    q: 'services: (service_name: SSH and not port: {22, 2222})',
    check: is({
      nested: {
        and: [
          { field: 'services.service_name', op: 'eq', value: 'SSH', caseSensitive: false },
          { not: { or: [22, 2222].map((value) => ({ field: 'services.port', op: 'eq', value, caseSensitive: false })) } },
        ],
      },
    }),
  },
  {
    q: 'same_service(service_name: SSH and not port: 22)',
    check: is({
      nested: {
        and: [
          { field: 'services.service_name', op: 'eq', value: 'SSH', caseSensitive: false },
          { not: { field: 'services.port', op: 'eq', value: 22, caseSensitive: false } },
        ],
      },
    }),
  },
  // 13 non-nested service fields
  {
    q: 'services.service_name: SSH and services.port: 8080',
    check: is({
      and: [
        { field: 'services.service_name', op: 'eq', value: 'SSH', caseSensitive: false },
        { field: 'services.port', op: 'eq', value: 8080, caseSensitive: false },
      ],
    }),
  },
  // 14 inclusive ranges
  {
    q: 'revocation.crl.revocation_time: [now-24h TO now]',
    index: 'certificates',
    check: is({ field: 'revocation.crl.revocation_time', op: 'range', lo: now.getTime() - 86_400_000, hi: now.getTime(), loInclusive: true, hiInclusive: true }),
  },
  { q: 'services.port: [1 TO 1024]', check: is({ field: 'services.port', op: 'range', lo: 1, hi: 1024, loInclusive: true, hiInclusive: true }) },
  { q: 'last_updated_at: [2021-03-01 TO *]', check: is({ field: 'last_updated_at', op: 'range', lo: day('2021-03-01'), loInclusive: true, hiInclusive: false }) },
  {
    q: 'last_updated_at: [now-1d to now]',
    check: is({ field: 'last_updated_at', op: 'range', lo: now.getTime() - 86_400_000, hi: now.getTime(), loInclusive: true, hiInclusive: true }),
  },
  // 15 exclusive and mixed ranges
  { q: 'services.port: {1 TO 1024}', check: is({ field: 'services.port', op: 'range', lo: 1, hi: 1024, loInclusive: false, hiInclusive: false }) },
  { q: 'services.port: [1 TO 1024}', check: is({ field: 'services.port', op: 'range', lo: 1, hi: 1024, loInclusive: true, hiInclusive: false }) },
  // 16 comparisons
  { q: 'services.port > 1024', check: is({ field: 'services.port', op: 'range', lo: 1024, loInclusive: false, hiInclusive: false }) },
  { q: 'services.port: >1024', check: is({ field: 'services.port', op: 'range', lo: 1024, loInclusive: false, hiInclusive: false }) },
  { q: 'services.port < 1024', check: is({ field: 'services.port', op: 'range', hi: 1024, loInclusive: false, hiInclusive: false }) },
  { q: 'services.port <= 1024', check: is({ field: 'services.port', op: 'range', hi: 1024, loInclusive: false, hiInclusive: true }) },
  { q: 'services.port >= 1024', check: is({ field: 'services.port', op: 'range', lo: 1024, loInclusive: true, hiInclusive: false }) },
  // 17 regular expressions
  { q: 'services.software.vendor: /De[l]+/', check: is({ field: 'services.software.vendor', op: 'regex', source: 'De[l]+', caseSensitive: false }) },
  { q: 'services.software.vendor=/De[l]+/', check: is({ field: 'services.software.vendor', op: 'regex', source: 'De[l]+', caseSensitive: true }) },
  {
    q: 'services.http.response.headers.location=/.*(\\.\\.\\/)+.*/',
    check: is({ field: 'services.http.response.headers.location', op: 'regex', source: '.*(\\.\\./)+.*', caseSensitive: true }),
  },
  // 18 CIDR / IP
  { q: 'ip: 8.8.8.0/24', check: is({ field: 'ip', op: 'range', ...cidrRange('8.8.8.0/24'), loInclusive: true, hiInclusive: true }) },
  { q: 'not ip: 0.0.0.0/0', check: is({ not: { field: 'ip', op: 'range', ...cidrRange('0.0.0.0/0'), loInclusive: true, hiInclusive: true } }) },
  {
    q: '23.20.0.0/14',
    check: is({ kind: 'fulltext', text: '23.20.0.0/14', tokens: ['23', '20', '0', '0', '14'], phrase: true, ipRange: cidrRange('23.20.0.0/14') }),
  },
  // 19 IP range
  {
    q: 'ip: [1.1.1.0 TO 1.1.1.255]',
    check: is({ field: 'ip', op: 'range', lo: ipKey('1.1.1.0'), hi: ipKey('1.1.1.255'), loInclusive: true, hiInclusive: true }),
  },
  // 20 booleans and numbers
  { q: 'services.truncated: false', check: is({ field: 'services.truncated', op: 'eq', value: false, caseSensitive: false }) },
  { q: 'services.http.response.status_code: 500', check: is({ field: 'services.http.response.status_code', op: 'eq', value: 500, caseSensitive: false }) },
  // 21 implicit operator (AND, see DESIGN)
  {
    q: 'foo bar',
    check: is({
      and: [
        { kind: 'fulltext', text: 'foo', tokens: ['foo'], phrase: false },
        { kind: 'fulltext', text: 'bar', tokens: ['bar'], phrase: false },
      ],
    }),
  },
  // 22 boost (v1; accepted, no effect)
  { q: 'Dell^2', check: is({ kind: 'fulltext', text: 'Dell', tokens: ['dell'], phrase: false }) },
  // notes below the table
  { q: 'apple', index: 'certificates', check: is({ kind: 'fulltext', text: 'apple', tokens: ['apple'], phrase: false }) },
  {
    q: 'services.certificate: 1f2a0b7c9d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a',
    check: is({ field: 'services.certificate', op: 'eq', value: '1f2a0b7c9d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a', caseSensitive: false }),
  },
  { q: 'services.labels: open-dir', check: is({ field: 'services.labels', op: 'eq', value: 'open-dir', caseSensitive: false }) },
  { q: "location.country_code: 'US'", check: is({ field: 'location.country_code', op: 'eq', value: 'US', caseSensitive: false }) },
  { q: 'services.http.response.body: /.*test.*/', check: is({ field: 'services.http.response.body', op: 'regex', source: '.*test.*', caseSensitive: false }) },
];

const testCatalogues: Record<IndexName, FieldCatalogue> = { hosts: testHostCatalogue, certificates: testCertificateCatalogue };

for (const ex of examples) {
  test(`§4 example against the test catalogue: ${ex.q}`, () => {
    const res = compileQuery(ex.q, testCatalogues[ex.index ?? 'hosts'], { now });
    if (!res.ok) assert.fail(JSON.stringify(res.error));
    ex.check(res.query);
  });
}

test('§4 examples resolve against the real catalogues, with the same meaning', () => {
  for (const ex of examples) {
    const index = ex.index ?? 'hosts';
    const real = compileQuery(ex.q, catalogueFor(index), { now });
    if (!real.ok) assert.fail(`${ex.q}: ${JSON.stringify(real.error)}`);
    const fixture = compileQuery(ex.q, testCatalogues[index], { now });
    assert.ok(fixture.ok);
    // Bare wildcards expand over each catalogue's own full-text fields; the rest must agree.
    if (ex.q === 'Del*') ex.check(real.query);
    else assert.deepEqual(brief(real.query), brief(fixture.query), ex.q);
  }
});

test('§4 `not port: {22, 2222}` outside a services group names the field to use', () => {
  const res = compileQuery('not port: {22, 2222}', catalogueFor('hosts'), { now });
  assert.equal(res.ok, false);
  if (!res.ok) {
    assert.equal(res.error.message, "Unknown field 'port'. Did you mean 'services.port'?");
    assert.equal(res.error.position, 4);
  }
});
