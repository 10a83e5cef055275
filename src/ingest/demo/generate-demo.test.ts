import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedEnricher } from '../enrich/index.ts';
import { derToPem, parseCertificate } from '../x509/index.ts';
import { demoDomains, demoHostStream, generateDemo, type DemoData, type ServiceDoc } from './index.ts';

const OPTIONS = { hosts: 1200, certificates: 300 };
const NOW = new Date('2026-11-01T00:00:00Z');
let data: DemoData;

function digest(d: DemoData): string {
  const h = createHash('sha256');
  for (const c of d.certificates) h.update(Buffer.from(c.der)).update(JSON.stringify(c.doc));
  h.update(JSON.stringify(d.hosts)).update(JSON.stringify(d.domains));
  return h.digest('hex');
}

const ipHosts = (): DemoData['hosts'] => data.hosts.filter((h) => !h.id.includes('+'));
const current = (h: DemoData['hosts'][number]): DemoData['hosts'][number]['versions'][number]['doc'] => h.versions[h.versions.length - 1].doc;

before(() => {
  data = generateDemo(OPTIONS);
});

test('same options give byte-identical output; another seed gives another dataset', () => {
  const again = generateDemo(OPTIONS);
  assert.equal(digest(again), digest(data));
  assert.equal(data.now, NOW.toISOString());
  const other = generateDemo({ ...OPTIONS, hosts: 50, certificates: 40, seed: 7 });
  assert.notEqual(other.hosts[0].id, data.hosts[0].id);
  assert.notDeepEqual(other.domains, data.domains);
});

test('the host stream yields the same hosts as generateDemo', () => {
  const streamed = [...demoHostStream({ ...OPTIONS, hosts: 60 })];
  const ips = streamed.filter((h) => !h.id.includes('+'));
  assert.equal(ips.length, 60);
  assert.deepEqual(streamed, data.hosts.slice(0, streamed.length));
});

test('certificate documents are exactly what parseCertificate makes of the DER', () => {
  assert.equal(data.certificates.length, OPTIONS.certificates);
  const fps = new Set<string>();
  for (const c of data.certificates) {
    const r = parseCertificate(c.der, { now: NOW });
    assert.ok(r.ok);
    const { added_at, modified_at, ...rest } = c.doc;
    assert.deepEqual(rest, r.doc);
    assert.ok(added_at && modified_at && Date.parse(added_at) <= NOW.getTime(), `added_at of ${c.doc.fingerprint_sha256}`);
    fps.add(c.doc.fingerprint_sha256);
  }
  assert.equal(fps.size, data.certificates.length);
});

test('certificate mix: CAs, leaves, expired and unexpired, self-signed, RSA and ECDSA, wildcards, precerts', () => {
  const docs = data.certificates.map((c) => c.doc);
  const count = (pred: (d: (typeof docs)[number]) => boolean): number => docs.filter(pred).length;
  assert.equal(count((d) => d.labels.includes('root') && d.parsed.subject_dn.includes('Root')), 5);
  assert.equal(count((d) => d.labels.includes('intermediate')), 8);
  assert.ok(count((d) => d.labels.includes('expired')) > 20);
  assert.ok(count((d) => d.labels.includes('unexpired')) > 100);
  assert.ok(count((d) => d.labels.includes('leaf') && d.parsed.signature.self_signed) > 3);
  assert.ok(count((d) => d.parsed.subject_key_info.key_algorithm.name === 'ECDSA') > 30);
  assert.ok(count((d) => d.parsed.subject_key_info.rsa?.length === 2048) > 30);
  assert.ok(count((d) => d.names.some((n) => n.startsWith('*.'))) > 5);
  assert.ok(count((d) => d.validation_level === 'DV') > 50);
  assert.ok(count((d) => d.validation_level === 'OV') > 5);
  for (const d of docs) {
    if (d.labels.includes('expired')) assert.ok(Date.parse(d.parsed.validity_period.not_after) < NOW.getTime(), d.fingerprint_sha256);
    else assert.ok(Date.parse(d.parsed.validity_period.not_after) >= NOW.getTime(), d.fingerprint_sha256);
  }
  // A precertificate and its final certificate share serial and TBS-without-CT, built independently.
  const precerts = docs.filter((d) => d.precert);
  for (const pre of precerts) {
    const final = docs.find((d) => !d.precert && d.tbs_no_ct_fingerprint_sha256 === pre.tbs_no_ct_fingerprint_sha256);
    assert.ok(final, 'final certificate of a precertificate');
    assert.equal(final.parsed.serial_number, pre.parsed.serial_number);
    assert.ok(final.parsed.extensions.signed_certificate_timestamps!.length >= 2);
    assert.notEqual(final.tbs_fingerprint_sha256, final.tbs_no_ct_fingerprint_sha256);
  }
});

test('issued certificates chain to the demo CAs (key ids, and openssl verify)', () => {
  const bySki = new Map(data.certificates.filter((c) => c.role !== 'leaf').map((c) => [c.doc.parsed.extensions.subject_key_id, c]));
  const dir = mkdtempSync(join(tmpdir(), 'periscope-demo-'));
  try {
    let verified = 0;
    for (const leaf of data.certificates.filter((c) => c.role === 'leaf' && c.issuerFingerprint && !c.doc.precert)) {
      const issuer = bySki.get(leaf.doc.parsed.extensions.authority_key_id);
      assert.ok(issuer, 'issuer by authority key id');
      assert.equal(issuer.doc.fingerprint_sha256, leaf.issuerFingerprint);
      assert.equal(issuer.doc.parsed.subject_dn, leaf.doc.parsed.issuer_dn);
      if (verified < 6 && !leaf.doc.labels.includes('expired')) {
        const root = bySki.get(issuer.doc.parsed.extensions.authority_key_id)!;
        writeFileSync(join(dir, 'root.pem'), derToPem(root.der));
        writeFileSync(join(dir, 'int.pem'), derToPem(issuer.der));
        writeFileSync(join(dir, 'leaf.pem'), derToPem(leaf.der));
        const at = String(Math.floor(NOW.getTime() / 1000));
        const out = execFileSync('openssl', ['verify', '-attime', at, '-CAfile', 'root.pem', '-untrusted', 'int.pem', 'leaf.pem'], { cwd: dir, encoding: 'utf8' });
        assert.match(out, /leaf\.pem: OK/);
        verified++;
      }
    }
    assert.equal(verified, 6);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('host counts, ids, and 1 to 8 services per host', () => {
  const ips = ipHosts();
  assert.equal(ips.length, OPTIONS.hosts);
  assert.equal(new Set(data.hosts.map((h) => h.id)).size, data.hosts.length);
  for (const h of data.hosts) {
    for (const v of h.versions) {
      assert.ok(v.doc.services.length >= 1 && v.doc.services.length <= 8, `${h.id}: ${v.doc.services.length} services`);
      const ports = v.doc.services.map((s) => `${s.port}/${s.transport_protocol}`);
      assert.equal(new Set(ports).size, ports.length);
    }
  }
  const v6 = ips.filter((h) => h.id.includes(':'));
  assert.ok(v6.length >= OPTIONS.hosts * 0.01 && v6.length <= OPTIONS.hosts * 0.06, `${v6.length} IPv6 hosts`);
  for (const h of v6) assert.ok(current(h).labels?.includes('ipv6'));
});

test('ports are skewed: the most common is 80 or 443, and the usual services are all present', () => {
  const counts = new Map<string, number>();
  for (const h of data.hosts) for (const s of current(h).services) counts.set(`${s.port}/${s.service_name}`, (counts.get(`${s.port}/${s.service_name}`) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1])[0][0];
  assert.ok(top === '80/HTTP' || top === '443/HTTP', top);
  for (const k of ['22/SSH', '21/FTP', '25/SMTP', '53/DNS', '3306/MYSQL', '3389/RDP', '8080/HTTP', '23/TELNET', '161/SNMP', '445/SMB']) assert.ok(counts.has(k), k);
  const names = new Set([...counts.keys()].map((k) => k.split('/')[1]));
  for (const n of ['POSTGRES', 'REDIS', 'NTP', 'MONGODB', 'ELASTICSEARCH', 'MQTT', 'VNC', 'MEMCACHED', 'UNKNOWN']) assert.ok(names.has(n), n);
});

test('every TLS service presents a generated certificate, described consistently', () => {
  const byFp = new Map(data.certificates.map((c) => [c.doc.fingerprint_sha256, c.doc]));
  let tls = 0;
  for (const h of data.hosts) {
    for (const v of h.versions) {
      for (const s of v.doc.services) {
        if (s.certificate === undefined) continue;
        tls++;
        const cert = byFp.get(s.certificate as string);
        assert.ok(cert, `certificate ${s.certificate} of ${h.id}:${s.port}`);
        const t = s.tls as { certificates: { leaf_fp_sha_256: string; leaf_data: { names: string[]; subject_dn: string; issuer_dn: string } } };
        assert.equal(t.certificates.leaf_fp_sha_256, s.certificate);
        assert.deepEqual(t.certificates.leaf_data.names, cert.names);
        assert.equal(t.certificates.leaf_data.subject_dn, cert.parsed.subject_dn);
        assert.equal(t.certificates.leaf_data.issuer_dn, cert.parsed.issuer_dn);
        assert.ok((!cert.precert && cert.labels.includes('leaf')) || cert.parsed.signature.self_signed, `${h.id}:${s.port} presents a CA or precertificate`);
        assert.ok(Date.parse(cert.parsed.validity_period.not_before) <= Date.parse(v.observedAt), `${h.id}:${s.port} certificate issued after the scan`);
      }
      for (const s of v.doc.services) if (s.extended_service_name === 'HTTPS') assert.ok(s.certificate, `${h.id}:${s.port} HTTPS without certificate`);
    }
  }
  assert.ok(tls > 200);
});

test('AS and country of every host agree with the enrichment data', () => {
  const enricher = sharedEnricher();
  for (const h of ipHosts()) {
    const doc = current(h);
    const as = enricher.asn.lookup(doc.ip);
    assert.ok(as, doc.ip);
    assert.deepEqual(doc.autonomous_system, as);
    assert.equal(doc.location?.country_code, enricher.geo.countryCode(doc.ip));
    assert.ok(doc.location?.continent && doc.location.country, doc.ip);
  }
});

test('history: versions in time order, location fixed, every version differs', () => {
  const multi = ipHosts().filter((h) => h.versions.length > 1);
  assert.ok(multi.length > OPTIONS.hosts * 0.08 && multi.length < OPTIONS.hosts * 0.25, `${multi.length} hosts with history`);
  assert.ok(multi.every((h) => h.versions.length <= 5));
  for (const h of data.hosts) {
    for (let i = 0; i < h.versions.length; i++) {
      const v = h.versions[i];
      assert.equal(v.doc.last_updated_at, v.observedAt);
      assert.ok(Date.parse(v.observedAt) <= NOW.getTime(), `${h.id} observed after now`);
      if (i > 0) {
        const prev = h.versions[i - 1];
        assert.ok(Date.parse(prev.observedAt) < Date.parse(v.observedAt), `${h.id} versions out of order`);
        assert.deepEqual(v.doc.location, prev.doc.location);
        assert.deepEqual(v.doc.autonomous_system, prev.doc.autonomous_system);
        const shape = (d: typeof v.doc): string => JSON.stringify(d.services.map((s) => ({ ...s, observed_at: 0, perspective_id: 0, source_ip: 0, jarm: 0, banner: 0, banner_hashes: 0, http: 0, smtp: 0 })));
        const bannerless = (d: typeof v.doc): string => JSON.stringify(d.services.map((s) => [s.port, s.software, s.banner, s.certificate, (s.http as { response?: { body?: string } } | undefined)?.response?.body]));
        assert.ok(shape(v.doc) !== shape(prev.doc) || bannerless(v.doc) !== bannerless(prev.doc), `${h.id} version ${i} repeats version ${i - 1}`);
      }
    }
  }
});

test('virtual hosts: ip+name ids after their IP host, services only', () => {
  const seen = new Set<string>();
  let vhosts = 0;
  for (const h of data.hosts) {
    const doc = current(h);
    if (!h.id.includes('+')) {
      seen.add(h.id);
      assert.equal(doc.name, undefined);
      continue;
    }
    vhosts++;
    const [ip, name] = h.id.split('+');
    assert.ok(seen.has(ip), `virtual host ${h.id} without its IP host`);
    assert.equal(doc.ip, ip);
    assert.equal(doc.name, name);
    assert.equal(doc.location, undefined);
    assert.equal(doc.autonomous_system, undefined);
    assert.equal(doc.dns, undefined);
    assert.ok(doc.services.every((s) => s.service_name === 'HTTP'));
    const uri = ((doc.services[0].http as { request: { uri: string } }).request.uri);
    assert.ok(uri.includes(`//${name}`), uri);
  }
  const withHttp = ipHosts().filter((h) => current(h).services.some((s) => s.service_name === 'HTTP')).length;
  assert.ok(vhosts >= withHttp * 0.02 && vhosts <= withHttp * 0.15, `${vhosts} virtual hosts for ${withHttp} HTTP hosts`);
});

test('names live under the demo domains; protocol details look real', () => {
  const domains = new Set(demoDomains());
  assert.deepEqual([...domains], data.domains);
  assert.ok(domains.size >= 200 && domains.size <= 400);
  const under = (n: string): boolean => [...domains].some((d) => n === d || n.endsWith(`.${d}`));
  let http = 0;
  let ssh = 0;
  for (const h of data.hosts) {
    const doc = current(h);
    for (const n of doc.dns?.names ?? []) assert.ok(under(n), n);
    for (const n of doc.dns?.reverse_dns?.names ?? []) assert.ok(under(n) || /\.(amazonaws\.com|googleusercontent\.com|your-server\.de)$/.test(n), n);
    for (const s of doc.services as ServiceDoc[]) {
      for (const sw of (s.software ?? []) as { uniform_resource_identifier: string }[]) assert.match(sw.uniform_resource_identifier, /^cpe:2\.3:[aoh](:[^:]+){10}$/);
      if (s.service_name === 'HTTP') {
        http++;
        const headers = (s.http as { response: { headers: Record<string, string[]>; status_code: number } }).response.headers;
        for (const k of Object.keys(headers)) assert.match(k, /^[A-Z][a-z0-9]*(_[A-Z][a-z0-9]*)*$/, k);
        assert.ok(headers.Content_Type);
        assert.match(String(s.banner), /^HTTP\/1\.1 \d{3} /);
      }
      if (s.service_name === 'SSH') {
        ssh++;
        assert.match(String(s.banner), /^SSH-2\.0-\S+/);
        assert.equal((s.ssh as { endpoint_id: { raw: string } }).endpoint_id.raw, s.banner);
      }
      if (s.service_name === 'FTP') assert.match(String(s.banner), /^220[ -]/);
      if (s.service_name === 'SMTP') assert.match(String(s.banner), /^220 \S+ /);
    }
  }
  assert.ok(http > 500 && ssh > 200);
  const labels = new Set(data.hosts.flatMap((h) => current(h).labels ?? []));
  for (const l of ['remote-access', 'database', 'login-page', 'default-landing-page', 'ipv6']) assert.ok(labels.has(l), l);
  assert.ok(ipHosts().some((h) => current(h).operating_system?.uniform_resource_identifier.startsWith('cpe:2.3:o:canonical:ubuntu_linux')));
});
