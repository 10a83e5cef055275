import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoStream } from '../../ingest/demo/index.ts';
import { detectCertificateRisks, detectHostRisks, identity, riskTypeById, type CertDoc, type DetectContext, type DetectedRisk, type HostDoc } from './index.ts';

// One generation shared by the tests: it is the slow part.
const demo = demoStream({ hosts: 500, certificates: 150 });
const certs = new Map<string, CertDoc>(demo.certificates.map((c) => [c.doc.fingerprint_sha256, c.doc]));
const hosts: HostDoc[] = [...demo.hosts].map((h) => h.versions[h.versions.length - 1].doc);
const ctx: DetectContext = { now: new Date(demo.now), certificates: (fp) => certs.get(fp) };

function runAll(): DetectedRisk[] {
  const out: DetectedRisk[] = [];
  for (const h of hosts) out.push(...detectHostRisks(h, ctx));
  for (const c of certs.values()) out.push(...detectCertificateRisks(c, ctx));
  return out;
}

const risks = runAll();
const counts = new Map<string, number>();
for (const r of risks) counts.set(r.type, (counts.get(r.type) ?? 0) + 1);

test('a realistic spread of risk types fires on the demo data', () => {
  const report = [...counts].sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t}=${n}`).join(' ');
  assert.ok(counts.size >= 30, `only ${counts.size} types: ${report}`);
  for (const type of [
    'tls.certificate.expired',
    'tls.certificate.self_signed',
    'tls.certificate.name_mismatch',
    'service.database.mysql_exposed',
    'service.database.redis_no_auth',
    'service.remote_access.rdp_exposed',
    'service.remote_access.telnet_exposed',
    'service.http.login_over_plaintext',
    'service.http.directory_listing',
    'service.http.missing_security_headers',
    'service.snmp.public_community',
    'software.vulnerable.openssh_regresshion',
    'software.vulnerable.vsftpd_backdoor',
    'software.eol.ubuntu',
    'software.eol.php',
    'cert.expired',
  ]) {
    assert.ok((counts.get(type) ?? 0) > 0, `${type} never fires: ${report}`);
  }
  // Realism: exposure of a given database is rarer than hosts, and no type fires on every host.
  for (const [type, n] of counts) if (!type.startsWith('cert.')) assert.ok(n < hosts.length, `${type} fires ${n} times on ${hosts.length} hosts`);
});

test('demo risks are well-formed and identities are unique', () => {
  const seen = new Set<string>();
  for (const r of risks) {
    const t = riskTypeById(r.type);
    assert.ok(t, r.type);
    assert.equal(r.subjectType, t.subjectType);
    assert.ok(r.title.length > 0 && r.title.includes(' on '), r.title);
    if (t.contextType === 'service') assert.equal(typeof r.context.port, 'number', r.type);
    const k = identity(r);
    assert.ok(!seen.has(k), `duplicate identity ${k}`);
    seen.add(k);
  }
});

test('detection is deterministic', () => {
  assert.deepEqual(runAll(), risks);
});
