import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { catalogueFor, canonicalHeaderKey } from './field-catalogue.ts';
import { hostFields, EMBEDDED_CERTIFICATE_PREFIX } from './hosts-fields.ts';
import { certificateFields } from './certificates-fields.ts';
import type { IndexName } from './field-def.ts';

interface RefLine {
  path: string;
  typed: boolean;
}

function referenceLines(file: string): RefLine[] {
  const text = readFileSync(new URL(`../../../shared/reference/${file}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [path, flag] = l.split('\t');
      return { path: path.trim(), typed: flag?.trim() === '(typed)' };
    });
}

const REFERENCES: ReadonlyArray<[IndexName, string, number]> = [
  ['hosts', 'hosts-fields.txt', 1314],
  ['certificates', 'certificates-fields.txt', 356],
];

for (const [index, file, count] of REFERENCES) {
  test(`${index}: every line of ${file} is a field, or an object prefix of fields`, () => {
    const lines = referenceLines(file);
    assert.equal(lines.length, count);
    const catalogue = catalogueFor(index);
    const missing: string[] = [];
    for (const { path } of lines) {
      const isContainer = lines.some((l) => l.path.startsWith(path + '.'));
      // A pure container (an entry that only flags a nested object) may be a prefix; a leaf must be a field.
      const ok = catalogue.get(path) !== undefined || (isContainer && catalogue.isPrefix(path));
      if (!ok) missing.push(path);
    }
    assert.deepEqual(missing, []);
  });

  test(`${index}: lines marked (typed) are never text fields`, () => {
    const catalogue = catalogueFor(index);
    const wrong = referenceLines(file)
      .filter((l) => l.typed)
      .filter((l) => catalogue.get(l.path)?.type === 'text')
      .map((l) => l.path);
    assert.deepEqual(wrong, []);
  });

  test(`${index}: field paths are unique (case-insensitively) and docPaths default to paths`, () => {
    const all = catalogueFor(index).all();
    const lower = all.map((f) => f.path.toLowerCase());
    assert.equal(new Set(lower).size, lower.length);
    for (const f of all) assert.equal(f.docPath, f.path);
  });
}

test('catalogueFor is memoised per index', () => {
  assert.equal(catalogueFor('hosts'), catalogueFor('hosts'));
  assert.equal(catalogueFor('certificates'), catalogueFor('certificates'));
  assert.notEqual(catalogueFor('hosts'), catalogueFor('certificates'));
  assert.deepEqual(catalogueFor('hosts').nestedRoots, ['services']);
  assert.deepEqual(catalogueFor('certificates').nestedRoots, []);
});

test('host field types', () => {
  const c = catalogueFor('hosts');
  const expect: Record<string, string> = {
    ip: 'ip',
    'services.source_ip': 'ip',
    'services.port': 'int',
    service_count: 'int',
    'autonomous_system.asn': 'int',
    last_updated_at: 'date',
    location_updated_at: 'date',
    'services.observed_at': 'date',
    'services.truncated': 'bool',
    truncated: 'bool',
    'services.http.supports_http2': 'bool',
    'location.coordinates.latitude': 'float',
    'location.coordinates.longitude': 'float',
    'location.country': 'keyword',
    'location.country_code': 'keyword',
    'location.city': 'text',
    'autonomous_system.bgp_prefix': 'keyword',
    'autonomous_system.name': 'text',
    'dns.names': 'keyword',
    'services.service_name': 'keyword',
    'services.transport_protocol': 'keyword',
    'services.banner': 'text',
    'services.http.response.html_title': 'text',
    'services.http.response.status_code': 'int',
    'services.software.product': 'text',
    'services.software.uniform_resource_identifier': 'keyword',
    labels: 'keyword',
    tags: 'keyword',
    'whois.network.cidrs': 'keyword',
  };
  for (const [path, type] of Object.entries(expect)) assert.equal(c.get(path)?.type, type, path);
});

test('certificate field types', () => {
  const c = catalogueFor('certificates');
  const expect: Record<string, string> = {
    names: 'keyword',
    'parsed.subject_dn': 'text',
    'parsed.issuer_dn': 'text',
    'parsed.subject.common_name': 'text',
    'parsed.issuer.organization': 'text',
    'parsed.extensions.subject_alt_name.dns_names': 'keyword',
    'parsed.extensions.basic_constraints.is_ca': 'bool',
    'parsed.validity_period.not_before': 'date',
    'parsed.validity_period.not_after': 'date',
    'parsed.subject_key_info.rsa.length': 'int',
    'ct.entries.value.index': 'int',
    'validation.nss.is_valid': 'bool',
    precert: 'bool',
    revoked: 'bool',
    fingerprint_sha256: 'keyword',
    spki_fingerprint_sha256: 'keyword',
    tags: 'keyword',
  };
  for (const [path, type] of Object.entries(expect)) assert.equal(c.get(path)?.type, type, path);
});

test('indexing flags: large text is not aggregatable, hex blobs are not full-text', () => {
  const h = catalogueFor('hosts');
  const c = catalogueFor('certificates');
  assert.equal(h.get('services.banner')?.aggregatable, false);
  assert.equal(h.get('services.banner')?.fullText, true);
  assert.equal(h.get('services.banner_hex')?.aggregatable, false);
  assert.equal(h.get('services.banner_hex')?.fullText, false);
  assert.equal(h.get('services.http.response.body')?.aggregatable, false);
  assert.equal(h.get('services.jarm.fingerprint')?.fullText, false);
  assert.equal(h.get('services.jarm.fingerprint')?.aggregatable, true);
  assert.equal(h.get('location.country')?.fullText, true);
  assert.equal(h.get('services.software.vendor')?.fullText, true);
  assert.equal(h.get('services.port')?.fullText, false);
  assert.equal(c.get('fingerprint_sha256')?.fullText, false);
  assert.equal(c.get('parsed.subject_key_info.rsa.modulus')?.aggregatable, false);
  assert.equal(c.get('raw')?.aggregatable, false);
  assert.equal(c.get('names')?.fullText, true);
  assert.equal(c.get('parsed.issuer.organization')?.fullText, true);
});

test('service fields are nested under services, others are not', () => {
  const h = catalogueFor('hosts');
  assert.equal(h.get('services.port')?.nested, 'services');
  assert.equal(h.get('services.tls.certificate.names')?.nested, 'services');
  assert.equal(h.get('ip')?.nested, undefined);
  assert.equal(h.get('location.city')?.nested, undefined);
  for (const f of catalogueFor('certificates').all()) assert.equal(f.nested, undefined, f.path);
});

test('the embedded certificate has exactly the certificate index types', () => {
  const h = catalogueFor('hosts');
  const c = catalogueFor('certificates');
  let compared = 0;
  for (const cf of c.all()) {
    if (cf.path === 'tags') continue;
    const hf = h.get(`${EMBEDDED_CERTIFICATE_PREFIX}.${cf.path}`);
    assert.ok(hf, cf.path);
    assert.equal(hf.type, cf.type, cf.path);
    assert.equal(hf.fullText, cf.fullText, cf.path);
    assert.equal(hf.aggregatable, cf.aggregatable, cf.path);
    compared++;
  }
  assert.equal(compared, certificateFields.length - 1);
  assert.equal(h.get(`${EMBEDDED_CERTIFICATE_PREFIX}.tags`), undefined);
  assert.ok(hostFields.length > certificateFields.length);
});

test('lookups ignore the case of the path', () => {
  const h = catalogueFor('hosts');
  assert.equal(h.get('Services.Port')?.path, 'services.port');
  assert.equal(h.isPrefix('Services.TLS'), true);
  assert.equal(h.isPrefix('location'), true);
  assert.equal(h.isPrefix('services'), true);
  assert.equal(h.isPrefix('nowhere'), false);
});

test('canonicalHeaderKey', () => {
  assert.equal(canonicalHeaderKey('server'), 'Server');
  assert.equal(canonicalHeaderKey('content_type'), 'Content_Type');
  assert.equal(canonicalHeaderKey('content-type'), 'Content_Type');
  assert.equal(canonicalHeaderKey('X-Frame-Options'), 'X_Frame_Options');
  assert.equal(canonicalHeaderKey('WWW-AUTHENTICATE'), 'Www_Authenticate');
  assert.equal(canonicalHeaderKey('x-xss-protection'), 'X_Xss_Protection');
});

test('header fields resolve dynamically to canonical stored keys', () => {
  const h = catalogueFor('hosts');
  const cases: Array<[string, string]> = [
    ['services.http.response.headers.server.headers', 'services.http.response.headers.Server'],
    ['services.http.response.headers.content_type.headers', 'services.http.response.headers.Content_Type'],
    ['services.http.response.headers.x-frame-options.headers', 'services.http.response.headers.X_Frame_Options'],
    ['services.http.response.headers.location', 'services.http.response.headers.Location'],
    ['services.http.request.headers.user_agent.headers', 'services.http.request.headers.User_Agent'],
    ['Services.HTTP.Response.Headers.Server.Headers', 'services.http.response.headers.Server'],
    ['services.cwmp.http_info.headers.server', 'services.cwmp.http_info.headers.Server'],
  ];
  for (const [path, docPath] of cases) {
    const f = h.get(path);
    assert.ok(f, path);
    assert.equal(f.docPath, docPath, path);
    assert.equal(f.type, 'text', path);
    assert.equal(f.nested, 'services', path);
  }
  assert.equal(h.get('services.http.response.headers.server'), h.get('services.http.response.headers.server'));
  // The listed generic fields stay static; malformed names are unknown.
  assert.equal(h.get('services.http.response.headers.key')?.type, 'keyword');
  assert.equal(h.get('services.http.response.headers.value.headers')?.docPath, 'services.http.response.headers.value.headers');
  assert.equal(h.get('services.http.response.headers.a.b.headers'), undefined);
  assert.equal(h.get('services.http.response.headers._encoding'), undefined);
  assert.equal(h.get('services.http.response.headers.value'), undefined);
  assert.equal(h.get('services.http.response.headerz.server'), undefined);
  assert.equal(catalogueFor('certificates').get('services.http.response.headers.server'), undefined);
  // Dynamic fields are not part of the static list.
  assert.equal(h.all().some((f) => f.path === 'services.http.response.headers.server.headers'), false);
});

test('suggestions for unknown fields', () => {
  const h = catalogueFor('hosts');
  const c = catalogueFor('certificates');
  assert.equal(h.get('services.servce_name'), undefined);
  assert.equal(h.suggest('services.servce_name'), 'services.service_name');
  assert.equal(h.suggest('country'), 'location.country');
  assert.equal(h.suggest('services.prot'), 'services.port');
  assert.equal(c.suggest('parsed.subject.commn_name'), 'parsed.subject.common_name');
  assert.equal(h.suggest('zzzzzzzzzzzzzzzzzzzzzzzzzzzzz'), undefined);
});
