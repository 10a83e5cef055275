/**
 * Merge rules of ingest/pipeline/merge-host.ts on hand-made observations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { canonicalJson } from '../../../src/store/canonical-json.ts';
import { pemToDer, parseCertificate } from '../../../src/ingest/x509/index.ts';
import { sharedEnricher } from '../../../src/ingest/enrich/index.ts';
import { mergeObservation, sha256Hex, toCpe23, type HostDoc, type MergeContext } from '../../../src/ingest/pipeline/index.ts';
import { softwareDoc } from '../../../src/ingest/pipeline/merge-host.ts';
import type { HostObservation, ServiceObservation } from '../../../src/ingest/observation.ts';

const DAY = 86_400_000;

export const ctx: MergeContext = {
  enrich: () => undefined,
  serviceExpiryMs: 7 * DAY,
  certificateFingerprint: sha256Hex,
  certificate: (der) => {
    const r = parseCertificate(der, { now: new Date('2026-01-01T00:00:00Z') });
    return r.ok ? r.doc : undefined;
  },
};

function obs(at: string, services: ServiceObservation[], extra: Partial<HostObservation> = {}): HostObservation {
  return { ip: '192.0.2.10', observedAt: at, source: 'zgrab2', services, ...extra };
}

function services(doc: HostDoc): Record<string, unknown>[] {
  return doc.services as Record<string, unknown>[];
}

const http80: ServiceObservation = {
  port: 80,
  transport: 'TCP',
  state: 'open',
  serviceName: 'HTTP',
  banner: 'HTTP/1.1 200 OK',
  software: [{ cpe: 'cpe:/a:nginx:nginx:1.18.0' }],
  protocols: { http: { response: { status_code: 200, html_title: 'Welcome' } } },
};

test('a first observation makes a Censys host document', () => {
  const doc = mergeObservation(undefined, obs('2026-01-01T10:00:00.123456Z', [http80, { port: 22, transport: 'TCP', state: 'open' }], {
    ip: '2001:0DB8:0000::0001',
    names: ['WWW.Example.test.', 'example.test'],
    reverseDns: ['host.example.test'],
    labels: ['login-page'],
    operatingSystem: { cpe: 'cpe:/o:linux:linux_kernel' },
  }), ctx);
  assert.equal(doc.ip, '2001:db8::1');
  assert.equal(doc.last_updated_at, '2026-01-01T10:00:00.123Z');
  assert.deepEqual(doc.dns, { names: ['example.test', 'www.example.test'], reverse_dns: { names: ['host.example.test'], resolved_at: '2026-01-01T10:00:00.123Z' } });
  assert.deepEqual(doc.labels, ['login-page']);
  assert.deepEqual(doc.operating_system, {
    uniform_resource_identifier: 'cpe:2.3:o:linux:linux_kernel:*:*:*:*:*:*:*:*',
    part: 'o',
    vendor: 'linux',
    product: 'linux_kernel',
    source: 'OSI_APPLICATION_LAYER',
  });
  const [ssh, http] = services(doc);
  assert.deepEqual(ssh, {
    port: 22,
    transport_protocol: 'TCP',
    service_name: 'SSH',
    extended_service_name: 'SSH',
    observed_at: '2026-01-01T10:00:00.123Z',
    perspective_id: 'PERSPECTIVE_ZGRAB2',
  });
  assert.equal(http.service_name, 'HTTP');
  assert.equal(http.extended_service_name, 'HTTP');
  assert.equal(http._decoded, 'http');
  assert.deepEqual(http.http, { response: { status_code: 200, html_title: 'Welcome' } });
  assert.deepEqual(http.software, [
    { uniform_resource_identifier: 'cpe:2.3:a:nginx:nginx:1.18.0:*:*:*:*:*:*:*', part: 'a', vendor: 'nginx', product: 'nginx', version: '1.18.0', source: 'OSI_APPLICATION_LAYER' },
  ]);
});

test('CPE 2.2 names become 2.3, with packed editions and escapes', () => {
  assert.equal(toCpe23('cpe:/a:openbsd:openssh:8.9p1'), 'cpe:2.3:a:openbsd:openssh:8.9p1:*:*:*:*:*:*:*');
  assert.equal(toCpe23('cpe:/a:vendor:product:1.0:sp1:~ent~pro~linux~x64~'), 'cpe:2.3:a:vendor:product:1.0:sp1:ent:*:pro:linux:x64:*');
  assert.equal(toCpe23('cpe:/a:microsoft:internet%20information%20services:10.0'), 'cpe:2.3:a:microsoft:internet\\ information\\ services:10.0:*:*:*:*:*:*:*');
  assert.equal(toCpe23('cpe:2.3:a:nginx:nginx:1.18.0:*:*:*:*:*:*:*'), 'cpe:2.3:a:nginx:nginx:1.18.0:*:*:*:*:*:*:*');
  assert.equal(toCpe23('nginx'), undefined);
});

test('port table names unidentified services, HTTPS on 443', () => {
  const doc = mergeObservation(undefined, obs('2026-01-01T00:00:00Z', [
    { port: 443, transport: 'TCP', state: 'open' },
    { port: 6379, transport: 'TCP', state: 'open' },
    { port: 40000, transport: 'UDP', state: 'open' },
  ]), ctx);
  assert.deepEqual(services(doc).map((s) => [s.port, s.transport_protocol, s.service_name, s.extended_service_name]), [
    [443, 'TCP', 'HTTP', 'HTTPS'],
    [6379, 'TCP', 'REDIS', 'REDIS'],
    [40000, 'UDP', 'UNKNOWN', 'UNKNOWN'],
  ]);
});

test('a bare open port keeps what a richer scan found; a new identification replaces it', () => {
  const first = mergeObservation(undefined, obs('2026-01-01T00:00:00Z', [{ ...http80, port: 8081 }]), ctx);
  const bare = mergeObservation(first, { ...obs('2026-01-02T00:00:00Z', [{ port: 8081, transport: 'TCP', state: 'open' }]), source: 'masscan' }, ctx);
  const s = services(bare)[0];
  assert.equal(s.service_name, 'HTTP', 'not downgraded to the port guess');
  assert.equal(s.banner, 'HTTP/1.1 200 OK');
  assert.ok(s.http);
  assert.equal(s.perspective_id, 'PERSPECTIVE_MASSCAN');
  assert.equal(s.observed_at, '2026-01-02T00:00:00.000Z');
  assert.equal(bare.last_updated_at, '2026-01-02T00:00:00.000Z');

  const grab = mergeObservation(bare, obs('2026-01-02T12:00:00Z', [{ port: 8081, transport: 'TCP', state: 'open', serviceName: 'UNKNOWN', banner: 'raw', protocols: { banner_grab: { banner: 'raw' } } }]), ctx);
  const g = services(grab)[0];
  assert.equal(g.service_name, 'HTTP');
  assert.equal(g.banner, 'raw');
  assert.ok(g.http, 'a banner grab does not replace the HTTP data');
  assert.equal(g.banner_grab, undefined);
  assert.equal(g._decoded, 'http');

  const other = mergeObservation(bare, obs('2026-01-03T00:00:00Z', [{ port: 8081, transport: 'TCP', state: 'open', serviceName: 'SSH', protocols: { ssh: { endpoint_id: { raw: 'SSH-2.0-x' } } } }]), ctx);
  const t = services(other)[0];
  assert.equal(t.service_name, 'SSH');
  assert.equal(t.banner, undefined);
  assert.equal(t.http, undefined);
  assert.equal(t.software, undefined);
  assert.equal(t._decoded, 'ssh');
});

test('changed data replaces the old values; protocol objects are replaced together', () => {
  const first = mergeObservation(undefined, obs('2026-01-01T00:00:00Z', [http80]), ctx);
  const next = mergeObservation(first, obs('2026-01-02T00:00:00Z', [{
    ...http80,
    banner: 'HTTP/1.1 404 Not Found',
    software: undefined,
    protocols: { http: { response: { status_code: 404 } } },
  }]), ctx);
  const s = services(next)[0];
  assert.equal(s.banner, 'HTTP/1.1 404 Not Found');
  assert.deepEqual(s.http, { response: { status_code: 404 } });
  assert.ok(s.software, 'software kept: the observation did not say');
});

test('a closed observation removes the service; an older closed one does not', () => {
  const first = mergeObservation(undefined, obs('2026-01-02T00:00:00Z', [http80, { port: 22, transport: 'TCP', state: 'open' }]), ctx);
  const closed = mergeObservation(first, obs('2026-01-03T00:00:00Z', [{ port: 80, transport: 'TCP', state: 'closed' }]), ctx);
  assert.deepEqual(services(closed).map((s) => s.port), [22]);
  const stale = mergeObservation(first, obs('2026-01-01T00:00:00Z', [{ port: 80, transport: 'TCP', state: 'closed' }]), ctx);
  assert.equal(stale, first, 'an observation older than the service leaves it');
  const udp = mergeObservation(first, obs('2026-01-03T00:00:00Z', [{ port: 80, transport: 'UDP', state: 'closed' }]), ctx);
  assert.deepEqual(services(udp).map((s) => s.port), [22, 80], 'closing UDP/80 does not touch TCP/80');
});

test('services not observed within the expiry window are removed', () => {
  const first = mergeObservation(undefined, obs('2026-01-01T00:00:00Z', [http80]), ctx);
  const six = mergeObservation(first, obs('2026-01-07T00:00:00Z', [{ port: 22, transport: 'TCP', state: 'open' }]), ctx);
  assert.deepEqual(services(six).map((s) => s.port), [22, 80]);
  const nine = mergeObservation(six, obs('2026-01-09T00:00:00Z', [{ port: 22, transport: 'TCP', state: 'open' }]), ctx);
  assert.deepEqual(services(nine).map((s) => s.port), [22]);
  const short = mergeObservation(first, obs('2026-01-02T00:00:00Z', [{ port: 22, transport: 'TCP', state: 'open' }]), { ...ctx, serviceExpiryMs: 3600_000 });
  assert.deepEqual(services(short).map((s) => s.port), [22]);
});

test('an out-of-order observation does not roll newer data back', () => {
  const newer = mergeObservation(undefined, obs('2026-01-05T00:00:00Z', [{ ...http80, banner: 'new' }], { reverseDns: ['new.example.test'] }), ctx);
  const merged = mergeObservation(newer, obs('2026-01-04T00:00:00Z', [
    { ...http80, banner: 'old' },
    { port: 21, transport: 'TCP', state: 'open' },
  ], { reverseDns: ['old.example.test'], names: ['old-name.example.test'] }), ctx);
  const byPort = new Map(services(merged).map((s) => [s.port, s]));
  assert.equal(byPort.get(80)!.banner, 'new');
  assert.equal(byPort.get(80)!.observed_at, '2026-01-05T00:00:00.000Z');
  assert.equal(byPort.get(21)!.observed_at, '2026-01-04T00:00:00.000Z', 'a service the newer data did not know is added');
  assert.deepEqual((merged.dns as { reverse_dns: { names: string[] } }).reverse_dns.names, ['new.example.test']);
  assert.equal(merged.last_updated_at, '2026-01-05T00:00:00.000Z');
});

test('merging the same observation twice is a no-op', () => {
  const o = obs('2026-01-01T00:00:00Z', [http80, { port: 25, transport: 'TCP', state: 'open', banner: '220 mail' }], { names: ['a.example.test'], labels: ['x'] });
  const once = mergeObservation(undefined, o, ctx);
  const twice = mergeObservation(once, o, ctx);
  assert.equal(twice, once);
  const closing = obs('2026-01-02T00:00:00Z', [{ port: 25, transport: 'TCP', state: 'closed' }]);
  const a = mergeObservation(once, closing, ctx);
  assert.equal(mergeObservation(a, closing, ctx), a);
  assert.equal(canonicalJson(mergeObservation(JSON.parse(JSON.stringify(a)), closing, ctx)), canonicalJson(a));
});

test('a virtual host has a name and no location, routing or DNS', () => {
  const enriching: MergeContext = { ...ctx, enrich: (ip) => sharedEnricher().enrich(ip) };
  const doc = mergeObservation(undefined, { ...obs('2026-01-01T00:00:00Z', [http80], { names: ['x.example.test'] }), ip: '8.8.8.8', name: 'Dns.Google.' }, enriching);
  assert.equal(doc.ip, '8.8.8.8');
  assert.equal(doc.name, 'dns.google');
  assert.equal(doc.location, undefined);
  assert.equal(doc.autonomous_system, undefined);
  assert.equal(doc.dns, undefined);
});

test('a known IP is enriched with its AS and country', () => {
  const enriching: MergeContext = { ...ctx, enrich: (ip) => sharedEnricher().enrich(ip) };
  const doc = mergeObservation(undefined, { ...obs('2026-01-01T00:00:00Z', [{ port: 53, transport: 'UDP', state: 'open' }]), ip: '8.8.8.8' }, enriching);
  const as = doc.autonomous_system as { asn: number; name?: string };
  assert.equal(as.asn, 15169);
  assert.equal((doc.location as { country_code: string }).country_code, 'US');
  assert.equal(services(doc)[0].service_name, 'DNS');
});

test('a TLS chain links the leaf fingerprint and describes the leaf', () => {
  const leaf = pemToDer(readFileSync(new URL('../../fixtures/certificates/leaf.pem', import.meta.url), 'utf8'));
  const inter = pemToDer(readFileSync(new URL('../../fixtures/certificates/intermediate.pem', import.meta.url), 'utf8'));
  assert.ok(leaf.ok && inter.ok);
  const doc = mergeObservation(undefined, obs('2026-01-01T00:00:00Z', [{
    port: 443,
    transport: 'TCP',
    state: 'open',
    serviceName: 'HTTP',
    protocols: { http: { response: { status_code: 200 } } },
    tls: { chain: [leaf.ders[0], inter.ders[0]], versionSelected: 'TLSv1_3', cipherSelected: 'TLS_AES_128_GCM_SHA256', ja3s: 'abc' },
  }]), ctx);
  const s = services(doc)[0];
  const leafFp = '1ddfcaf287dcbe978fa026e1e17491eb310ea9dacecc5b09789dba884135aa17';
  assert.equal(s.certificate, leafFp);
  assert.equal(s.extended_service_name, 'HTTPS');
  const tls = s.tls as { version_selected: string; cipher_selected: string; ja3s: string; certificates: Record<string, unknown> };
  assert.equal(tls.version_selected, 'TLSv1_3');
  assert.equal(tls.cipher_selected, 'TLS_AES_128_GCM_SHA256');
  assert.equal(tls.ja3s, 'abc');
  assert.equal(tls.certificates.leaf_fp_sha_256, leafFp);
  assert.deepEqual(tls.certificates.chain_fps_sha_256, [sha256Hex(inter.ders[0])]);
  const leafData = tls.certificates.leaf_data as Record<string, unknown>;
  assert.equal(leafData.fingerprint, leafFp);
  assert.equal(leafData.subject_dn, 'CN=www.fixture.test');
  assert.equal(leafData.issuer_dn, 'C=US, O=Periscope Fixtures, CN=Periscope Fixture Intermediate');
  assert.ok((leafData.names as string[]).includes('www.fixture.test'));
  assert.equal(typeof leafData.pubkey_algorithm, 'string');
  assert.equal(typeof leafData.pubkey_bit_size, 'number');
});

test('records of one scan add up; a TLS observation without a certificate keeps the known one', () => {
  const ctx = { enrich: () => undefined, serviceExpiryMs: 7 * 86_400_000, certificateFingerprint: () => 'f'.repeat(64) };
  const at = '2026-01-05T10:00:00.000Z';
  const obs = (protocols: Record<string, unknown>) => ({ ip: '192.0.2.9', observedAt: at, source: 'masscan', services: [{ port: 80, transport: 'TCP' as const, state: 'open' as const, serviceName: 'HTTP', protocols }] });
  let doc = mergeObservation(undefined, obs({ http: { response: { headers: { Server: ['nginx'] } } } }), ctx);
  doc = mergeObservation(doc, obs({ http: { response: { html_title: 'Welcome' } } }), ctx);
  const http = (doc.services as any[])[0].http;
  assert.deepEqual(http.response, { headers: { Server: ['nginx'] }, html_title: 'Welcome' });
  // A later scan replaces the protocol data as a whole.
  const later = mergeObservation(doc, { ...obs({ http: { response: { html_title: 'New' } } }), observedAt: '2026-01-06T10:00:00.000Z' }, ctx);
  assert.deepEqual((later.services as any[])[0].http.response, { html_title: 'New' });

  const withCert = { ...obs({}), services: [{ port: 443, transport: 'TCP' as const, state: 'open' as const, serviceName: 'HTTP', tls: { chain: [new Uint8Array([1, 2, 3])], versionSelected: 'TLSv1_2' } }] };
  let tlsDoc = mergeObservation(undefined, withCert, ctx);
  assert.equal((tlsDoc.services as any[])[0].certificate, 'f'.repeat(64));
  const bare = { ...obs({}), observedAt: '2026-01-07T10:00:00.000Z', source: 'naabu', services: [{ port: 443, transport: 'TCP' as const, state: 'open' as const, tls: { chain: [] } }] };
  tlsDoc = mergeObservation(tlsDoc, bare, ctx);
  const svc = (tlsDoc.services as any[])[0];
  assert.equal(svc.certificate, 'f'.repeat(64));
  assert.equal(svc.tls.version_selected, 'TLSv1_2');
  assert.equal(svc.tls.certificates.leaf_fp_sha_256, 'f'.repeat(64));
});

test('softwareDoc: remembered documents are equal to fresh ones and never shared between calls', () => {
  const sw = { vendor: 'nginx', product: 'nginx', version: '1.18.0', part: 'a' as const, cpe: 'cpe:2.3:a:nginx:nginx:1.18.0:*:*:*:*:*:*:*' };
  const a = softwareDoc(sw, 'OSI_APPLICATION_LAYER');
  const b = softwareDoc({ ...sw }, 'OSI_APPLICATION_LAYER');
  assert.deepEqual(a, b);
  assert.notEqual(a, b);
  // Another source, or a field absent rather than present, is another document.
  assert.equal(softwareDoc(sw, 'OSI_TRANSPORT_LAYER').source, 'OSI_TRANSPORT_LAYER');
  const { version: _v, cpe: _c, ...noVersion } = sw;
  assert.equal(softwareDoc(noVersion, 'OSI_APPLICATION_LAYER').version, undefined);
  assert.equal(softwareDoc({ ...noVersion, version: 'undefined' }, 'OSI_APPLICATION_LAYER').version, 'undefined');
  // Inputs whose texts could run together in a remembered document's key: each is its own document.
  const tricky = [undefined, '', '\u0001', '\u0000', 'a\u0000', '"a\\u0000"', '\u0001"a\\u0000"', 'a\u0000b', 'null'];
  for (const product of tricky) {
    for (const version of tricky) {
      const doc = softwareDoc({ part: 'a', ...(product !== undefined ? { product } : {}), ...(version !== undefined ? { version } : {}) }, 'OSI_APPLICATION_LAYER');
      // (An empty field is no field.)
      assert.equal(doc.product, product || undefined, JSON.stringify([product, version]));
      assert.equal(doc.version, version || undefined, JSON.stringify([product, version]));
    }
  }
  const other = softwareDoc({ ...sw, other: { extrainfo: 'x' } }, 'OSI_APPLICATION_LAYER');
  assert.deepEqual(other.other, [{ key: 'extrainfo', value: 'x' }]);
});
