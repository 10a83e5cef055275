import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DETECTORS, EOL_SOFTWARE, RISK_TYPES, SEVERITIES, VULNERABLE_SOFTWARE, riskTypeById, configNumber, riskInfoId } from './index.ts';

test('the catalogue has at least 40 types with unique, stable-looking ids', () => {
  assert.ok(RISK_TYPES.length >= 40, `${RISK_TYPES.length} types`);
  const ids = RISK_TYPES.map((t) => t.type);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.match(id, /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/, id);
});

test('every type has complete fields', () => {
  for (const t of RISK_TYPES) {
    assert.ok(t.name.length > 3, t.type);
    assert.ok(t.description.length > 20, t.type);
    assert.ok(['service', 'host', 'cert', 'storage'].includes(t.contextType), t.type);
    assert.ok(['HOST', 'CERT', 'STORAGE_BUCKET', 'DOMAIN'].includes(t.subjectType), t.type);
    assert.ok(SEVERITIES.includes(t.defaultSeverity) && SEVERITIES.includes(t.recommendedSeverity), t.type);
    assert.ok(t.defaultCategories.length >= 1 && t.defaultCategories.every((c) => c.length >= 1 && c.every((x) => x.length > 0)), t.type);
    assert.ok(t.remediations.length >= 1 && t.remediations.every((r) => r.length > 10), t.type);
    assert.equal(t.enabled, true);
    assert.equal(typeof t.config, 'string');
    // Context and subject agree.
    const expected = { service: 'HOST', host: 'HOST', cert: 'CERT', storage: 'STORAGE_BUCKET' }[t.contextType];
    assert.equal(t.subjectType, expected, t.type);
  }
  assert.equal(riskTypeById('tls.certificate.expired')?.name, 'Expired certificate');
  assert.equal(riskTypeById('nope'), undefined);
});

test('the issue names: every family is covered', () => {
  for (const id of [
    'tls.certificate.expired', 'tls.certificate.expiring_soon', 'tls.certificate.self_signed', 'tls.certificate.untrusted_chain',
    'tls.certificate.weak_key', 'tls.certificate.weak_signature', 'tls.certificate.name_mismatch', 'tls.version.tls1_0',
    'service.database.mysql_exposed', 'service.database.postgres_exposed', 'service.database.mongodb_exposed', 'service.database.redis_exposed',
    'service.database.elasticsearch_exposed', 'service.database.memcached_exposed', 'service.remote_access.rdp_exposed',
    'service.remote_access.vnc_exposed', 'service.remote_access.telnet_exposed', 'service.remote_access.smb_exposed',
    'service.ftp.anonymous_login', 'service.http.login_over_plaintext', 'service.http.missing_security_headers',
    'service.http.directory_listing', 'software.vulnerable.openssh_regresshion', 'software.eol.php', 'storage.bucket.open',
  ]) {
    assert.ok(riskTypeById(id), id);
  }
});

test('detectors and catalogue agree: every declared type exists, every type has a detector', () => {
  const declared = new Set<string>();
  const ids = new Set<string>();
  for (const d of DETECTORS) {
    assert.ok(!ids.has(d.id), `duplicate detector ${d.id}`);
    ids.add(d.id);
    for (const t of d.types) {
      assert.ok(riskTypeById(t), `${d.id} declares unknown ${t}`);
      declared.add(t);
    }
  }
  for (const t of RISK_TYPES) assert.ok(declared.has(t.type), `no detector for ${t.type}`);
  for (const r of VULNERABLE_SOFTWARE) {
    assert.ok(riskTypeById(r.type), r.type);
    assert.ok(r.cves.every((c) => /^CVE-\d{4}-\d{4,}$/.test(c)), r.type);
  }
  for (const r of EOL_SOFTWARE) {
    assert.ok(riskTypeById(r.type), r.type);
    assert.match(r.eol, /^\d{4}-\d{2}-\d{2}$/);
  }
});

test('expiring-soon thresholds come from the type config', () => {
  assert.equal(configNumber(riskTypeById('tls.certificate.expiring_soon')!.config, 'days', 0), 30);
  assert.equal(configNumber('', 'days', 7), 7);
  assert.equal(configNumber('x=1; days=14', 'days', 7), 14);
});

test('v1 riskInfoIds are distinct positive integers that depend on the type id alone', () => {
  const ids = RISK_TYPES.map((t) => riskInfoId(t.type));
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.ok(Number.isSafeInteger(id) && id > 0);
  assert.equal(riskInfoId('service.remote_access.rdp_exposed'), riskInfoId('service.remote_access.rdp_exposed'));
});
