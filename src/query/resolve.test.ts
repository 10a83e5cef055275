import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileQuery } from './index.ts';
import type { Predicate, ResolvedQuery } from './resolved.ts';
import type { QueryError } from './query-error.ts';
import type { FieldCatalogue } from '../model/field-def.ts';
import { testCertificateCatalogue as certs, testHostCatalogue as hosts } from './test-catalogue.ts';
import { cidrRange, ipKey } from '../lib/ip.ts';

const now = new Date('2024-05-15T12:34:56.789Z');
const ms = (iso: string): number => Date.parse(iso);

function r(q: string, cat: FieldCatalogue = hosts): ResolvedQuery {
  const res = compileQuery(q, cat, { now });
  if (!res.ok) assert.fail(`expected ${JSON.stringify(q)} to resolve, got ${JSON.stringify(res.error)}`);
  return res.query;
}

function e(q: string, cat: FieldCatalogue = hosts): QueryError {
  const res = compileQuery(q, cat, { now });
  if (res.ok) assert.fail(`expected ${JSON.stringify(q)} to fail, got ${JSON.stringify(res.query)}`);
  return res.error;
}

function f(path: string, predicate: Predicate, cat: FieldCatalogue = hosts): ResolvedQuery {
  const def = cat.get(path);
  assert.ok(def, path);
  return { kind: 'field', field: def, predicate };
}

const eq = (value: string | number | boolean, caseSensitive = false): Predicate => ({ op: 'eq', value, caseSensitive });
const range = (lo: number | string | undefined, hi: number | string | undefined, loInclusive: boolean, hiInclusive: boolean): Predicate => ({
  op: 'range',
  ...(lo !== undefined ? { lo } : {}),
  ...(hi !== undefined ? { hi } : {}),
  loInclusive,
  hiInclusive,
});
const exists: Predicate = { op: 'exists' };

test('text fields: tokens with :, whole value with =', () => {
  assert.deepEqual(r('services.software.product: Windows'), f('services.software.product', { op: 'tokens', tokens: ['windows'], phrase: false }));
  assert.deepEqual(
    r('services.software.product: "Windows Server"'),
    f('services.software.product', { op: 'tokens', tokens: ['windows', 'server'], phrase: true }),
  );
  assert.deepEqual(r('services.software.product: "Windows"'), f('services.software.product', { op: 'tokens', tokens: ['windows'], phrase: true }));
  assert.deepEqual(r('location.city: Sioux-Falls'), f('location.city', { op: 'tokens', tokens: ['sioux', 'falls'], phrase: true }));
  assert.deepEqual(r('services.software.product=Windows'), f('services.software.product', eq('Windows', true)));
  assert.deepEqual(r('services.software.product = "Windows Server 2012"'), f('services.software.product', eq('Windows Server 2012', true)));
  assert.deepEqual(r('services.banner: "!!!"'), f('services.banner', eq('!!!')));
  assert.deepEqual(r('services.software.product: Win*'), f('services.software.product', { op: 'wildcard', pattern: 'Win*', caseSensitive: false }));
  assert.deepEqual(r('services.software.product=Win?ows'), f('services.software.product', { op: 'wildcard', pattern: 'Win?ows', caseSensitive: true }));
});

test('keyword fields: whole value, case-insensitive with :, sensitive with =', () => {
  assert.deepEqual(r('services.service_name: HTTP'), f('services.service_name', eq('HTTP')));
  assert.deepEqual(r('services.service_name=RDP'), f('services.service_name', eq('RDP', true)));
  assert.deepEqual(r('location.country: "United States"'), f('location.country', eq('United States')));
  assert.deepEqual(r("location.country_code: 'US'"), f('location.country_code', eq('US')));
  assert.deepEqual(r('labels: c2'), f('labels', eq('c2')));
  assert.deepEqual(r('dns.names: *.example.com'), f('dns.names', { op: 'wildcard', pattern: '*.example.com', caseSensitive: false }));
  assert.deepEqual(r('labels: `a b(c)`'), f('labels', eq('a b(c)')));
  assert.deepEqual(r('labels=`a*b`'), f('labels', { op: 'wildcard', pattern: 'a*b', caseSensitive: true }));
  // An escaped star is literal; with a real wildcard beside it the pattern becomes a regex.
  assert.deepEqual(r('labels: a\\*b'), f('labels', eq('a*b')));
  assert.deepEqual(r('labels: a\\*b*'), f('labels', { op: 'regex', source: 'a\\*b[\\s\\S]*', caseSensitive: false }));
  assert.deepEqual(r('labels: "a*b"'), f('labels', eq('a*b')));
});

test('regular expressions', () => {
  assert.deepEqual(r('services.software.vendor: /De[l]+/'), f('services.software.vendor', { op: 'regex', source: 'De[l]+', caseSensitive: false }));
  assert.deepEqual(r('services.software.vendor=/De[l]+/'), f('services.software.vendor', { op: 'regex', source: 'De[l]+', caseSensitive: true }));
  assert.deepEqual(
    r('services.http.response.headers.location=/.*(\\.\\.\\/)+.*/'),
    f('services.http.response.headers.location', { op: 'regex', source: '.*(\\.\\./)+.*', caseSensitive: true }),
  );
  const bad = e('services.software.vendor: /De[l+/');
  assert.match(bad.message, /Invalid regular expression \/De\[l\+\//);
  assert.equal(bad.position, 26);
  assert.equal(bad.length, 7);
  const unbalanced = e('labels: /(a/');
  assert.match(unbalanced.message, /Invalid regular expression/);
  assert.equal(unbalanced.position, 8);
  assert.match(e(`labels: /${'a'.repeat(1001)}/`).message, /too long/);
  assert.match(e('services.port: /80/').message, /^Regular expressions only work on text and keyword fields; 'services.port' is an integer field$/);
});

test('existence: *, quoted *, object prefixes and open ranges', () => {
  assert.deepEqual(r('services.service_name: *'), f('services.service_name', exists));
  assert.deepEqual(r('services.kubernetes.version_info.git_version="*"'), f('services.kubernetes.version_info.git_version', exists));
  assert.deepEqual(r('services.port: "*"'), f('services.port', exists));
  assert.deepEqual(r('services.port: `*`'), f('services.port', exists));
  assert.deepEqual(r('services.port: [* TO *]'), f('services.port', exists));
  assert.deepEqual(r('services.tls: *'), {
    kind: 'field',
    field: { path: 'services.tls', type: 'keyword', docPath: 'services.tls', nested: 'services', fullText: false, aggregatable: false },
    predicate: exists,
  });
  assert.deepEqual(r('Location: *'), {
    kind: 'field',
    field: { path: 'location', type: 'keyword', docPath: 'location', fullText: false, aggregatable: false },
    predicate: exists,
  });
  assert.deepEqual(r('services.http.response.headers: *'), {
    kind: 'field',
    field: {
      path: 'services.http.response.headers',
      type: 'keyword',
      docPath: 'services.http.response.headers',
      nested: 'services',
      fullText: false,
      aggregatable: false,
    },
    predicate: exists,
  });
  const q = r('services: *');
  assert.equal(q.kind, 'field');
  if (q.kind === 'field') assert.equal(q.field.path, 'services');
  const notField = e('location: Germany');
  assert.match(notField.message, /'location' is an object, not a field/);
  assert.equal(notField.position, 0);
  assert.equal(notField.length, 8);
  assert.doesNotMatch(e('services.tls: [1 TO 2]').message, /Unknown/);
});

test('integers and floats (case sensitivity is irrelevant for non-strings and always false)', () => {
  assert.deepEqual(r('services.port: 22'), f('services.port', eq(22)));
  assert.deepEqual(r('services.port = "22"'), f('services.port', eq(22)));
  assert.deepEqual(r('autonomous_system.asn: 15169'), f('autonomous_system.asn', eq(15169)));
  assert.deepEqual(r('location.coordinates.latitude: -33.5'), f('location.coordinates.latitude', eq(-33.5)));
  assert.deepEqual(r('location.coordinates.latitude: 1e2'), f('location.coordinates.latitude', eq(100)));
  assert.deepEqual(r('services.port: [1 TO 1024]'), f('services.port', range(1, 1024, true, true)));
  assert.deepEqual(r('services.port: {1 TO 1024}'), f('services.port', range(1, 1024, false, false)));
  assert.deepEqual(r('services.port: [1 TO 1024}'), f('services.port', range(1, 1024, true, false)));
  assert.deepEqual(r('services.port: [1024 TO *]'), f('services.port', range(1024, undefined, true, false)));
  assert.deepEqual(r('services.port: {* TO 10]'), f('services.port', range(undefined, 10, false, true)));
  assert.deepEqual(r('services.port > 1024'), f('services.port', range(1024, undefined, false, false)));
  assert.deepEqual(r('services.port: >=1024'), f('services.port', range(1024, undefined, true, false)));
  assert.deepEqual(r('services.port < 1024'), f('services.port', range(undefined, 1024, false, false)));
  assert.deepEqual(r('services.port <= 1024'), f('services.port', range(undefined, 1024, false, true)));
  assert.deepEqual(r('services.port: {21, 22}'), { kind: 'or', children: [f('services.port', eq(21)), f('services.port', eq(22))] });
  assert.deepEqual(r('services.port: {22}'), f('services.port', eq(22)));

  const bad = e('services.port: abc');
  assert.equal(bad.message, "Invalid value 'abc' for integer field 'services.port'");
  assert.equal(bad.position, 15);
  assert.equal(bad.length, 3);
  assert.equal(e('services.port: 1.5').message, "Invalid value '1.5' for integer field 'services.port'");
  assert.equal(e('services.port: 99999999999999999999').position, 15);
  const inSet = e('services.port: {22, x, 80}');
  assert.equal(inSet.position, 20);
  assert.equal(e('services.port: [1 TO y]').position, 21);
  assert.match(e('services.port: 8*').message, /Wildcards cannot be used on integer field 'services.port'/);
  assert.match(e('services.port > 8*').message, /Wildcards/);
  assert.match(e('services.port: [1024 TO 1]').message, /lower bound .* greater/);
  assert.match(e('location.coordinates.latitude: north').message, /for number field 'location.coordinates.latitude'/);
});

test('dates: days cover the whole day, instants are exact', () => {
  const day = ms('2021-03-01T00:00:00Z');
  const next = ms('2021-03-02T00:00:00Z');
  assert.deepEqual(r('last_updated_at: 2021-03-01'), f('last_updated_at', range(day, next, true, false)));
  assert.deepEqual(r('last_updated_at: 2021-03-01T00:00:00Z'), f('last_updated_at', eq(day)));
  assert.deepEqual(r('last_updated_at: "2021-03-01T00:00:00.000000Z"'), f('last_updated_at', eq(day)));
  assert.deepEqual(r('last_updated_at: [2021-03-01 TO *]'), f('last_updated_at', range(day, undefined, true, false)));
  assert.deepEqual(r('last_updated_at: {2021-03-01 TO *]'), f('last_updated_at', range(next, undefined, true, false)));
  assert.deepEqual(r('last_updated_at: [* TO 2021-03-01]'), f('last_updated_at', range(undefined, next, false, false)));
  assert.deepEqual(r('last_updated_at: [* TO 2021-03-01}'), f('last_updated_at', range(undefined, day, false, false)));
  assert.deepEqual(
    r('last_updated_at: [2021-03-01 TO 2021-03-31]'),
    f('last_updated_at', range(day, ms('2021-04-01T00:00:00Z'), true, false)),
  );
  assert.deepEqual(r('last_updated_at > 2021-03-01'), f('last_updated_at', range(next, undefined, true, false)));
  assert.deepEqual(r('last_updated_at >= 2021-03-01'), f('last_updated_at', range(day, undefined, true, false)));
  assert.deepEqual(r('last_updated_at < 2021-03-01'), f('last_updated_at', range(undefined, day, false, false)));
  assert.deepEqual(r('last_updated_at <= 2021-03-01'), f('last_updated_at', range(undefined, next, false, false)));
  assert.deepEqual(r('last_updated_at > 2021-03-01T00:00:00Z'), f('last_updated_at', range(day, undefined, false, false)));
  assert.deepEqual(r('last_updated_at <= 2021-03-01T00:00:00Z'), f('last_updated_at', range(undefined, day, false, true)));
  const t = now.getTime();
  assert.deepEqual(
    r('revocation.crl.revocation_time: [now-24h TO now]', certs),
    f('revocation.crl.revocation_time', range(t - 86_400_000, t, true, true), certs),
  );
  assert.deepEqual(r('last_updated_at: now/d'), f('last_updated_at', range(ms('2024-05-15T00:00:00Z'), ms('2024-05-16T00:00:00Z'), true, false)));
  assert.deepEqual(r('last_updated_at: [now-1d/d TO now/d}'), f('last_updated_at', range(ms('2024-05-14T00:00:00Z'), ms('2024-05-15T00:00:00Z'), true, false)));
  const bad = e('last_updated_at: yesterday');
  assert.match(bad.message, /^Invalid value 'yesterday' for date field 'last_updated_at'/);
  assert.equal(bad.position, 17);
  assert.equal(e('last_updated_at: [2021-03-01 TO 2021-02-30]').position, 32);
  assert.match(e('last_updated_at: 2021-*').message, /Wildcards cannot be used on date field/);
  assert.match(e('last_updated_at: [2022-01-01 TO 2021-01-01]').message, /greater/);
});

test('ip fields: addresses, CIDR blocks, ranges and trailing-octet wildcards', () => {
  assert.deepEqual(r('ip: 8.8.8.8'), f('ip', eq(ipKey('8.8.8.8') as string)));
  assert.deepEqual(r('ip: 2001:db8::1'), f('ip', eq(ipKey('2001:db8::1') as string)));
  assert.deepEqual(r('ip = "2001:DB8:0::1"'), f('ip', eq(ipKey('2001:db8::1') as string)));
  const c24 = cidrRange('8.8.8.0/24');
  assert.ok(c24);
  assert.deepEqual(r('ip: 8.8.8.0/24'), f('ip', range(c24.lo, c24.hi, true, true)));
  assert.deepEqual(r('ip: 8.8.8.*'), f('ip', range(c24.lo, c24.hi, true, true)));
  const c8 = cidrRange('10.0.0.0/8');
  assert.ok(c8);
  assert.deepEqual(r('ip: 10.*'), f('ip', range(c8.lo, c8.hi, true, true)));
  assert.deepEqual(r('ip: 10.*.*.*'), f('ip', range(c8.lo, c8.hi, true, true)));
  const all4 = cidrRange('0.0.0.0/0');
  assert.ok(all4);
  assert.deepEqual(r('not ip: 0.0.0.0/0'), { kind: 'not', child: f('ip', range(all4.lo, all4.hi, true, true)) });
  assert.deepEqual(
    r('ip: [1.1.1.0 TO 1.1.1.255]'),
    f('ip', range(ipKey('1.1.1.0'), ipKey('1.1.1.255'), true, true)),
  );
  assert.deepEqual(r('services.source_ip > 10.0.0.1'), f('services.source_ip', range(ipKey('10.0.0.1'), undefined, false, false)));
  assert.match(e('ip: 10.*.1.1').message, /trailing octets/);
  assert.match(e('ip: 2001:db8::*').message, /trailing octets/);
  assert.match(e('ip: 1.1.1.?').message, /trailing octets/);
  const bad = e('ip: 1.2.3.256');
  assert.equal(bad.message, "Invalid value '1.2.3.256' for IP field 'ip'");
  assert.equal(bad.position, 4);
  assert.match(e('ip: 10.0.0.0/33').message, /Invalid value/);
  assert.match(e('ip: [1.1.1.9 TO 1.1.1.1]').message, /greater/);
  assert.match(e('ip: [10.0.0.0/8 TO *]').message, /Invalid value '10.0.0.0\/8'/);
});

test('booleans', () => {
  assert.deepEqual(r('services.truncated: false'), f('services.truncated', eq(false)));
  assert.deepEqual(r('services.truncated: TRUE'), f('services.truncated', eq(true)));
  assert.deepEqual(r('services.truncated = "true"'), f('services.truncated', eq(true)));
  const bad = e('services.truncated: yes');
  assert.equal(bad.message, "Invalid value 'yes' for boolean field 'services.truncated' (expected true or false)");
  assert.equal(bad.position, 20);
  assert.match(e('services.truncated: [false TO true]').message, /boolean/);
  assert.match(e('services.truncated: t*').message, /Wildcards/);
});

test('bare terms become full-text searches', () => {
  assert.deepEqual(r('Dell'), { kind: 'fulltext', text: 'Dell', tokens: ['dell'], phrase: false });
  assert.deepEqual(r('8080'), { kind: 'fulltext', text: '8080', tokens: ['8080'], phrase: false });
  assert.deepEqual(r('"hello world"'), { kind: 'fulltext', text: 'hello world', tokens: ['hello', 'world'], phrase: true });
  assert.deepEqual(r('open-dir'), { kind: 'fulltext', text: 'open-dir', tokens: ['open', 'dir'], phrase: true });
  assert.deepEqual(r('Dell^2'), { kind: 'fulltext', text: 'Dell', tokens: ['dell'], phrase: false });
  assert.deepEqual(r('8.8.8.8'), {
    kind: 'fulltext',
    text: '8.8.8.8',
    tokens: ['8', '8', '8', '8'],
    phrase: true,
    ipRange: { lo: ipKey('8.8.8.8'), hi: ipKey('8.8.8.8') },
  });
  assert.deepEqual(r('23.20.0.0/14'), {
    kind: 'fulltext',
    text: '23.20.0.0/14',
    tokens: ['23', '20', '0', '0', '14'],
    phrase: true,
    ipRange: cidrRange('23.20.0.0/14'),
  });
  assert.deepEqual(r('apple', certs), { kind: 'fulltext', text: 'apple', tokens: ['apple'], phrase: false });
  assert.deepEqual(r('8.8.8.8', certs), { kind: 'fulltext', text: '8.8.8.8', tokens: ['8', '8', '8', '8'], phrase: true });
});

test('bare wildcards, regexes and token-less terms expand over the full-text fields', () => {
  const fullText = hosts.all().filter((d) => d.fullText && (d.type === 'text' || d.type === 'keyword'));
  assert.ok(fullText.length > 5);
  assert.ok(!fullText.some((d) => d.path === 'services.certificate'));
  const over = (predicate: Predicate): ResolvedQuery => ({ kind: 'or', children: fullText.map((d) => ({ kind: 'field', field: d, predicate })) });
  assert.deepEqual(r('Del*'), over({ op: 'wildcard', pattern: 'Del*', caseSensitive: false }));
  assert.deepEqual(r('`cpe:*`'), over({ op: 'wildcard', pattern: 'cpe:*', caseSensitive: false }));
  assert.deepEqual(r('/De[l]+/'), over({ op: 'regex', source: 'De[l]+', caseSensitive: false }));
  assert.deepEqual(r('"!!!"'), over({ op: 'eq', value: '!!!', caseSensitive: false }));
  assert.match(e('/[/').message, /Invalid regular expression/);
});

test('nested groups: one element, full field definitions inside', () => {
  const expected: ResolvedQuery = {
    kind: 'nested',
    root: 'services',
    child: {
      kind: 'and',
      children: [
        f('services.service_name', eq('SSH')),
        { kind: 'not', child: { kind: 'or', children: [f('services.port', eq(22)), f('services.port', eq(2222))] } },
      ],
    },
  };
  assert.deepEqual(r('services: (service_name: SSH and not port: {22, 2222})'), expected);
  assert.deepEqual(r('services: (services.service_name: SSH and not services.port: {22, 2222})'), expected);
  assert.deepEqual(r('same_service(service_name: SSH and not port: {22, 2222})'), expected);
  assert.deepEqual(r('Services: (tls: *)'), {
    kind: 'nested',
    root: 'services',
    child: {
      kind: 'field',
      field: { path: 'services.tls', type: 'keyword', docPath: 'services.tls', nested: 'services', fullText: false, aggregatable: false },
      predicate: exists,
    },
  });
  // Dotted service fields outside a group stay independent conditions.
  assert.deepEqual(r('services.service_name: SSH and services.port: 8080'), {
    kind: 'and',
    children: [f('services.service_name', eq('SSH')), f('services.port', eq(8080))],
  });

  const unknown = e('services: (prot: 22)');
  assert.equal(unknown.message, "Unknown field 'prot'. Did you mean 'port'?");
  assert.equal(unknown.suggestion, 'port');
  assert.equal(unknown.position, 11);
  assert.match(e('services: (ip: 1.1.1.1)').message, /'ip' is not part of services/);
  assert.match(e('services: (ssh)').message, /bare term cannot be used inside services/);
  assert.match(e('services: (port: 22 and services: (port: 23))').message, /cannot be used inside another/);
  assert.equal(e('services: (port: 22)', certs).message, "Unknown field 'services'.");
  assert.match(e('same_service(port: 22)', certs).message, /same_service\(\.\.\.\) is not available on the certificates index/);
});

test('field groups apply the field to each bare value', () => {
  assert.deepEqual(r('labels: (a or b)'), { kind: 'or', children: [f('labels', eq('a')), f('labels', eq('b'))] });
  assert.deepEqual(r('labels: (a and not b*)'), {
    kind: 'and',
    children: [f('labels', eq('a')), { kind: 'not', child: f('labels', { op: 'wildcard', pattern: 'b*', caseSensitive: false }) }],
  });
  assert.deepEqual(r('services: (service_name: (SSH or HTTP))'), {
    kind: 'nested',
    root: 'services',
    child: { kind: 'or', children: [f('services.service_name', eq('SSH')), f('services.service_name', eq('HTTP'))] },
  });
  assert.match(e('labels: (a or name: b)').message, /Field 'name' cannot be used inside 'labels: \(...\)'/);
  assert.match(e('location: (a)').message, /'location' is not a single field/);
});

test('unknown fields are reported at the field with a suggestion', () => {
  const a = e('services.service_nam: HTTP');
  assert.equal(a.message, "Unknown field 'services.service_nam'. Did you mean 'services.service_name'?");
  assert.equal(a.position, 0);
  assert.equal(a.length, 20);
  assert.equal(a.suggestion, 'services.service_name');
  const b = e('foo and port: 22');
  assert.equal(b.message, "Unknown field 'port'. Did you mean 'services.port'?");
  assert.equal(b.position, 8);
  assert.equal(b.length, 4);
  const c = e('zzzzzzzzzzzzzzzzzzzz: 1');
  assert.equal(c.message, "Unknown field 'zzzzzzzzzzzzzzzzzzzz'.");
  assert.equal(c.suggestion, undefined);
  assert.equal(e('names: x', hosts).suggestion, 'dns.names');
  assert.deepEqual(r('names: "censys.io"', certs), f('names', eq('censys.io'), certs));
});

test('simplification: flattening, all and none', () => {
  assert.deepEqual(r('labels: a and *'), f('labels', eq('a')));
  assert.deepEqual(r('not *'), { kind: 'none' });
  assert.deepEqual(r('* or labels: a'), { kind: 'all' });
  assert.deepEqual(r('not not labels: a'), f('labels', eq('a')));
  assert.deepEqual(r('labels: a and (labels: b and (labels: c))'), {
    kind: 'and',
    children: [f('labels', eq('a')), f('labels', eq('b')), f('labels', eq('c'))],
  });
  assert.deepEqual(r('labels: a or (labels: b or labels: c)'), {
    kind: 'or',
    children: [f('labels', eq('a')), f('labels', eq('b')), f('labels', eq('c'))],
  });
  assert.deepEqual(r('labels: a and not *'), { kind: 'none' });
  assert.deepEqual(r('labels: a or not *'), f('labels', eq('a')));
  assert.deepEqual(r(''), { kind: 'all' });
  assert.deepEqual(r('services: (not *)'), { kind: 'none' });
  assert.deepEqual(r('services: (*)'), {
    kind: 'field',
    field: { path: 'services', type: 'keyword', docPath: 'services', fullText: false, aggregatable: false },
    predicate: exists,
  });
});
