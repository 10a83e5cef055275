/**
 * fast-check generators for engine conformance: host- and certificate-like documents drawn from
 * small value pools (so queries hit), including wrong-typed values, duplicate and multi-valued
 * fields, equal instants and addresses written differently, null and non-array `services`; and
 * random ResolvedQuery trees over the fixture catalogues using every node and predicate kind.
 */
import fc from 'fast-check';
import type { FieldCatalogue, FieldDef } from '../../src/model/field-def.ts';
import type { Predicate, ResolvedQuery } from '../../src/query/resolved.ts';
import type { Doc, SortSpec } from '../../src/engine/index.ts';
import { tokenize } from '../../src/model/tokenize.ts';
import { cidrRange, ipKey, ipText } from '../../src/lib/ip.ts';

const WORDS = [
  'apache', 'Apache', 'nginx', 'OpenSSH', 'ssh', 'http', 'HTTP', 'httpd', 'Microsoft', 'IIS',
  'Ubuntu', 'foo', 'Foo', 'FOO-bar', 'a.b', 'test', '200', 'OK', 'ok', 'ß', 'SS', 'İ', 'k', 'K',
  'ſ', 'x*y', 'q?', '', 'DigiCert Inc', "Let's Encrypt",
];
const SEPARATORS = [' ', '\n', '/', '-', ': ', ''];
const IPS = ['10.0.0.1', '10.0.0.2', '10.0.1.7', '192.168.1.1', '8.8.8.8', '0.0.0.0', '2001:db8::1', '2001:db8::2', '2001:db8:1::5', '::1', 'fe80::1'];
const IP_VALUES = [...IPS, '::ffff:10.0.0.1', '2001:DB8:0::1', 'not-an-ip', '010.0.0.1'];
const CIDRS = ['10.0.0.0/8', '10.0.0.0/31', '2001:db8::/32', '::/0', '0.0.0.0/0', '192.168.1.1/32', 'fe80::/10'];
const DATES = [
  '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000Z', '2024-01-01T01:00:00+01:00', '2024-03-15T12:30:00Z',
  '2023-12-31T23:59:59.999Z', '2025-06-01', 'bad-date',
];
const PORTS = [21, 22, 80, 443, 8080];
const FLOATS = [0, 1.5, -3.25, 48.85, 1e-7];
const TEXT_BOUNDS = ['', 'a', 'F', 'f', 'n', 'z', 'Apache', 'ssh', 'TLSv1_3', '2024'];
const WILDCARDS = ['*', '?', 'a*', '*ss*', 'ng?nx', 'Apa*', 'apa*', '*.*', '10.0.*', '2024-01-01*', '8*', 'tr*', 'h*p*', '*K', 'ſ*', 'x\\*y', 'TLS*', 'D*', 'fe80*',
  // Literal text inside (substring candidates from the token index: whole tokens, prefixes, suffixes, pieces).
  '*ache/ngi*', '*tp: 2*', '*ssh-*', '*PACHE*', '*oo-ba*', '*-bar*', '*s/s*', '*ttpd*', '*: Ok*', '*he ng*', '*ache*nginx*', '*e/?ginx*'];
const REGEXES = ['ap.*', 'APACHE', '[a-z]+', 'nginx|apache', '.*ok', '(', '\\d+', '10\\.0\\..*', 'ss', 'k', '.*', '.+ .+', '2024-.*', 'true', 'http.', '[^a]*', '\\-'];

const word = fc.constantFrom(...WORDS);
const textValue = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 4 }), fc.constantFrom(...SEPARATORS))
  .map(([ws, sep]) => ws.join(sep));
const keyword = fc.oneof({ weight: 3, arbitrary: word }, { weight: 1, arbitrary: textValue });
const ipValue = fc.constantFrom(...IP_VALUES);
const dateValue = fc.constantFrom(...DATES);
const intValue = fc.oneof({ weight: 10, arbitrary: fc.constantFrom(...PORTS) }, { weight: 1, arbitrary: fc.constantFrom<unknown>('80', 1.5, null) });
const floatValue = fc.constantFrom(...FLOATS);
const boolValue = fc.oneof({ weight: 6, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constant<unknown>('true') });

function maybeMany<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | T[]> {
  return fc.oneof({ weight: 3, arbitrary: arb }, { weight: 1, arbitrary: fc.array(arb, { maxLength: 3 }) });
}

const service = fc.record(
  {
    port: intValue,
    service_name: fc.constantFrom('SSH', 'HTTP', 'http', 'FTP', 'UNKNOWN'),
    transport_protocol: fc.constantFrom('TCP', 'UDP'),
    banner: textValue,
    software: fc.array(fc.record({ vendor: keyword, product: keyword, version: fc.constantFrom('1.0', '2.4.1', '8.2p1') }, { requiredKeys: [] }), { maxLength: 2 }),
    tls: fc.record(
      {
        version_selected: fc.constantFrom('TLSv1_2', 'TLSv1_3'),
        certificates: fc.record({ leaf_data: fc.record({ subject_dn: textValue }) }),
      },
      { requiredKeys: [] },
    ),
    truncated: boolValue,
    source_ip: maybeMany(ipValue),
    observed_at: maybeMany(dateValue),
    latency: floatValue,
    http: fc.record({
      response: fc.record(
        {
          status_code: fc.constantFrom(200, 301, 404),
          headers: fc.record(
            {
              Server: maybeMany(keyword),
              'X-Powered-By': maybeMany(keyword),
              // A key with a dot cannot be named by a dotted path; X.Dotted is the nested form.
              'X.Dotted': keyword,
              X: fc.record({ Dotted: keyword }),
            },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: [] },
      ),
    }),
  },
  { requiredKeys: [] },
);

const services = fc.oneof(
  { weight: 12, arbitrary: fc.array(fc.oneof({ weight: 12, arbitrary: service }, { weight: 1, arbitrary: fc.constant(null) }), { maxLength: 4 }) },
  { weight: 1, arbitrary: service },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const hostBody = fc.record(
  {
    ip: ipValue,
    name: fc.constantFrom('a.example', 'B.example'),
    labels: maybeMany(word),
    dns: fc.record({ names: maybeMany(keyword) }),
    last_updated_at: maybeMany(dateValue),
    location: fc.record({ country: fc.constantFrom('US', 'DE', 'FR'), city: keyword, coordinates: fc.record({ latitude: floatValue }) }, { requiredKeys: [] }),
    autonomous_system: fc.record({ asn: fc.constantFrom<unknown>(13335, 15169, 64512, '123'), name: textValue, description: textValue }, { requiredKeys: [] }),
    operating_system: fc.record({ product: keyword }),
    services,
  },
  { requiredKeys: [] },
);

/** Host ids: a canonical address, sometimes with a virtual-host name. */
const hostId = fc
  .tuple(fc.constantFrom(...IPS), fc.option(fc.constantFrom('a.example', 'b.example'), { nil: undefined }))
  .map(([ip, name]) => (name ? `${ipText(ip)}+${name}` : ipText(ip)!));

export interface Entry {
  readonly id: string;
  readonly doc: Doc;
}

function stripUndefined(doc: Record<string, unknown>): Doc {
  return JSON.parse(JSON.stringify(doc)) as Doc;
}

export const hostEntries: fc.Arbitrary<Entry[]> = fc
  .uniqueArray(fc.tuple(hostId, hostBody, fc.boolean()), { selector: ([id]) => id, minLength: 2, maxLength: 24, size: 'medium' })
  .map((rows) => rows.map(([id, body, ownIp]) => ({ id, doc: stripUndefined(ownIp ? { ...body, ip: id.split('+')[0] } : body) })));

const certBody = fc.record(
  {
    names: maybeMany(keyword),
    parsed: fc.record(
      {
        subject_dn: textValue,
        issuer_dn: textValue,
        issuer: fc.record({ organization: fc.constantFrom('DigiCert Inc', "Let's Encrypt", 'digicert inc', 'Sectigo') }),
        subject: fc.record({ common_name: keyword }),
        validity: fc.record({ start: dateValue, end: dateValue }, { requiredKeys: [] }),
        serial_number: fc.constantFrom('01', '0A', 'ff', '1000'),
        version: fc.constantFrom<unknown>(1, 2, 3, '3'),
      },
      { requiredKeys: [] },
    ),
    added_at: dateValue,
    revoked: boolValue,
  },
  { requiredKeys: [] },
);

export const certificateEntries: fc.Arbitrary<Entry[]> = fc
  .uniqueArray(fc.tuple(fc.constantFrom('aa01', 'AA02', 'b3', 'c4', 'C4', 'd5', 'e6', 'f7', '08', '19'), certBody), { selector: ([id]) => id, minLength: 2, maxLength: 10, size: 'medium' })
  .map((rows) => rows.map(([id, body]) => ({ id, doc: stripUndefined({ ...body, fingerprint_sha256: id }) })));

/** Later writes: replace an existing id (by position in the entries) or remove one. */
export type Op = { readonly kind: 'upsert'; readonly at: number; readonly doc: Doc } | { readonly kind: 'remove'; readonly at: number };

export function opsFor(body: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Op[]> {
  return fc.array(
    fc.oneof(
      fc.record({ kind: fc.constant('upsert' as const), at: fc.nat(30), doc: body.map(stripUndefined) }),
      fc.record({ kind: fc.constant('remove' as const), at: fc.nat(30) }),
    ),
    { minLength: 1, maxLength: 8 },
  );
}
export const hostOps = opsFor(hostBody);
export const certificateOps = opsFor(certBody);

// --- queries ---------------------------------------------------------------------------------

function eqValue(field: FieldDef): fc.Arbitrary<string | number | boolean> {
  switch (field.type) {
    case 'text':
    case 'keyword':
      return fc.oneof(word, textValue, fc.constantFrom('SSH', 'http', 'TLSv1_3', 'US', 'DigiCert Inc'));
    case 'int':
    case 'float':
      return fc.oneof(fc.constantFrom(...PORTS, ...FLOATS, 13335, 200, 3), fc.constantFrom('80', 'x'));
    case 'bool':
      return fc.constantFrom(true, false, 'true', 'FALSE', 'x');
    case 'ip':
      return fc.oneof(ipValue, fc.constantFrom(...IPS).map((ip) => ipKey(ip)!));
    case 'date':
      return fc.oneof(dateValue, dateValue.map((d) => Date.parse(d)).filter(Number.isFinite));
  }
}

function bound(field: FieldDef): fc.Arbitrary<string | number> {
  switch (field.type) {
    case 'text':
    case 'keyword':
      return fc.constantFrom(...TEXT_BOUNDS);
    case 'int':
    case 'float':
      return fc.constantFrom(...PORTS, ...FLOATS, 100, 13335, 20000, '443');
    case 'bool':
      return fc.constantFrom(0, 1);
    case 'ip':
      return fc.constantFrom(...IPS).map((ip) => ipKey(ip)!);
    case 'date':
      return fc.oneof(dateValue.map((d) => Date.parse(d)).filter(Number.isFinite), fc.constant('2024-02-01T00:00:00Z'));
  }
}

function predicate(field: FieldDef): fc.Arbitrary<Predicate> {
  return fc.oneof(
    fc.constant<Predicate>({ op: 'exists' }),
    fc.record({ op: fc.constant('eq' as const), value: eqValue(field), caseSensitive: fc.boolean() }),
    fc.record({ op: fc.constant('tokens' as const), tokens: fc.oneof(textValue.map(tokenize), fc.constant<string[]>([])), phrase: fc.boolean() }),
    fc
      .record({ lo: fc.option(bound(field), { nil: undefined }), hi: fc.option(bound(field), { nil: undefined }), loInclusive: fc.boolean(), hiInclusive: fc.boolean() })
      .map((r): Predicate => ({ op: 'range', loInclusive: r.loInclusive, hiInclusive: r.hiInclusive, ...(r.lo === undefined ? {} : { lo: r.lo }), ...(r.hi === undefined ? {} : { hi: r.hi }) })),
    fc.record({ op: fc.constant('wildcard' as const), pattern: fc.oneof(fc.constantFrom(...WILDCARDS), word.map((w) => `${w}*`)), caseSensitive: fc.boolean() }),
    fc.record({ op: fc.constant('regex' as const), source: fc.constantFrom(...REGEXES), caseSensitive: fc.boolean() }),
  );
}

function prefixField(path: string): FieldDef {
  return { path, docPath: path, type: 'keyword', fullText: false, aggregatable: false };
}

/** Fields the query generator picks from: the catalogue's, a dynamic one and object prefixes (for `exists`). */
export function queryFields(catalogue: FieldCatalogue): { all: FieldDef[]; nested: FieldDef[]; prefixes: FieldDef[] } {
  const all = [...catalogue.all()];
  const dynamic = catalogue.get('services.http.response.headers.x_powered_by.headers');
  if (dynamic) all.push(dynamic);
  const prefixes =
    catalogue.index === 'hosts'
      ? ['services', 'services.tls', 'services.http.response', 'location', 'dns', 'autonomous_system'].map(prefixField)
      : ['parsed', 'parsed.validity', 'parsed.issuer'].map(prefixField);
  return { all, nested: all.filter((f) => f.nested), prefixes };
}

const fulltextQuery: fc.Arbitrary<ResolvedQuery> = fc
  .tuple(fc.oneof(word, textValue, fc.constantFrom(...IPS, ...CIDRS, '10.0.0.1/8')), fc.boolean())
  .map(([text, phrase]) => {
    const key = ipKey(text);
    const ipRange = key ? { lo: key, hi: key } : cidrRange(text);
    return { kind: 'fulltext', text, tokens: tokenize(text), phrase, ...(ipRange ? { ipRange } : {}) };
  });

export function queryArb(catalogue: FieldCatalogue): fc.Arbitrary<ResolvedQuery> {
  const { all, nested, prefixes } = queryFields(catalogue);
  const fieldQuery = (fields: FieldDef[]): fc.Arbitrary<ResolvedQuery> =>
    fc.constantFrom(...fields).chain((field) => predicate(field).map((p): ResolvedQuery => ({ kind: 'field', field, predicate: p })));
  const prefixQuery = fc.constantFrom(...prefixes).map((field): ResolvedQuery => ({ kind: 'field', field, predicate: { op: 'exists' } }));
  const simple = fc.constantFrom<ResolvedQuery>({ kind: 'all' }, { kind: 'none' });
  const { node } = fc.letrec<{ node: ResolvedQuery; inner: ResolvedQuery }>((tie) => ({
    node: fc.oneof(
      { maxDepth: 3, depthIdentifier: 'q' },
      fieldQuery(all),
      fieldQuery(all),
      fulltextQuery,
      prefixQuery,
      simple,
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((children): ResolvedQuery => ({ kind: 'and', children })),
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((children): ResolvedQuery => ({ kind: 'or', children })),
      tie('node').map((child): ResolvedQuery => ({ kind: 'not', child })),
      ...(nested.length > 0 ? [tie('inner').map((child): ResolvedQuery => ({ kind: 'nested', root: 'services', child }))] : []),
    ),
    // Inside `nested`: mostly element fields, sometimes document-level ones, full text and prefixes.
    inner: fc.oneof(
      { maxDepth: 3, depthIdentifier: 'q' },
      fieldQuery(nested.length > 0 ? nested : all),
      fieldQuery(nested.length > 0 ? nested : all),
      fieldQuery(all),
      fulltextQuery,
      prefixQuery,
      simple,
      fc.array(tie('inner'), { minLength: 1, maxLength: 3 }).map((children): ResolvedQuery => ({ kind: 'and', children })),
      fc.array(tie('inner'), { minLength: 1, maxLength: 3 }).map((children): ResolvedQuery => ({ kind: 'or', children })),
      tie('inner').map((child): ResolvedQuery => ({ kind: 'not', child })),
      tie('inner').map((child): ResolvedQuery => ({ kind: 'nested', root: 'services', child })),
    ),
  }));
  return node;
}

export function sortArb(catalogue: FieldCatalogue): fc.Arbitrary<SortSpec[]> {
  const paths = queryFields(catalogue).all.map((f) => f.path);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<SortSpec[]>([]) },
    { weight: 2, arbitrary: fc.array(fc.record({ field: fc.constantFrom(...paths), descending: fc.boolean() }), { minLength: 1, maxLength: 2 }) },
  );
}

export function aggregateFieldArb(catalogue: FieldCatalogue): fc.Arbitrary<string> {
  return fc.constantFrom(...queryFields(catalogue).all.map((f) => f.path));
}
