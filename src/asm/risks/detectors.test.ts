import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectCertificateRisks, detectHostRisks, detectStorageRisks, type CertDoc, type DetectContext, type HostDoc, type ServiceDoc } from './index.ts';

const NOW = new Date('2026-11-01T00:00:00Z');
const DAY = 86_400_000;

function cert(over: { sha?: string; names?: string[]; notAfterDays?: number; selfSigned?: boolean; isCa?: boolean; rsaBits?: number; ecBits?: number; sig?: string; nss?: Record<string, boolean>; revoked?: boolean } = {}): CertDoc {
  const sha = over.sha ?? 'aa'.repeat(32);
  const notAfter = new Date(NOW.getTime() + (over.notAfterDays ?? 200) * DAY).toISOString();
  const doc: CertDoc = {
    fingerprint_sha256: sha,
    names: over.names ?? ['www.example.com', 'example.com'],
    labels: ['leaf'],
    parsed: {
      subject: { common_name: [(over.names ?? ['www.example.com'])[0]] },
      validity_period: { not_before: new Date(NOW.getTime() - 100 * DAY).toISOString(), not_after: notAfter },
      subject_key_info:
        over.ecBits !== undefined
          ? { key_algorithm: { name: 'ECDSA' }, ecdsa: { length: over.ecBits } }
          : { key_algorithm: { name: 'RSA' }, rsa: { length: over.rsaBits ?? 2048 } },
      signature: { signature_algorithm: { name: over.sig ?? 'SHA256-RSA' }, self_signed: over.selfSigned ?? false },
      extensions: { basic_constraints: { is_ca: over.isCa ?? false } },
    },
  };
  if (over.nss) doc.validation = { nss: over.nss };
  if (over.revoked) doc.revocation = { ocsp: { revoked: true, reason: 'KEY_COMPROMISE' } };
  return doc;
}

function ctxWith(certs: CertDoc[] = [], extra: Partial<DetectContext> = {}): DetectContext {
  const m = new Map(certs.map((c) => [c.fingerprint_sha256, c]));
  return { now: NOW, certificates: (fp) => m.get(fp), ...extra };
}

function host(services: ServiceDoc[], over: Partial<HostDoc> = {}): HostDoc {
  return { ip: '192.0.2.10', services, ...over };
}

function http(over: { port?: number; tls?: boolean; status?: number; title?: string; body?: string; headers?: Record<string, string[]>; software?: unknown[]; cert?: string } = {}): ServiceDoc {
  const tls = over.tls ?? false;
  const s: ServiceDoc = {
    port: over.port ?? (tls ? 443 : 80),
    service_name: 'HTTP',
    extended_service_name: tls ? 'HTTPS' : 'HTTP',
    transport_protocol: 'TCP',
    http: {
      request: { method: 'GET', uri: `${tls ? 'https' : 'http'}://192.0.2.10/` },
      response: {
        status_code: over.status ?? 200,
        headers: { Content_Type: ['text/html'], ...(over.headers ?? {}) },
        body: over.body ?? '<html><body>hello</body></html>',
        ...(over.title !== undefined ? { html_title: over.title } : {}),
      },
    },
  };
  if (over.software) s.software = over.software;
  if (tls) {
    s.certificate = over.cert ?? 'aa'.repeat(32);
    s.tls = { version_selected: 'TLSv1_3', cipher_selected: 'TLS_AES_128_GCM_SHA256' };
  }
  return s;
}

function tlsService(fp: string, over: Record<string, unknown> = {}): ServiceDoc {
  return { port: 443, service_name: 'HTTP', extended_service_name: 'HTTPS', transport_protocol: 'TCP', certificate: fp, tls: { version_selected: 'TLSv1_2', cipher_selected: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256' }, ...over };
}

function svc(name: string, port: number, sub: Record<string, unknown> = {}, transport = 'TCP'): ServiceDoc {
  return { port, service_name: name, transport_protocol: transport, ...sub };
}

const cpe = (vendor: string, product: string, version?: string, update?: string, part = 'a'): Record<string, unknown> => ({ part, vendor, product, ...(version ? { version } : {}), ...(update ? { update } : {}) });

function typesOf(h: HostDoc, ctx: DetectContext = ctxWith()): string[] {
  return detectHostRisks(h, ctx).map((r) => r.type);
}

function hostTypes(services: ServiceDoc[], certs: CertDoc[] = [], over: Partial<HostDoc> = {}): string[] {
  return typesOf(host(services, over), ctxWith(certs));
}

// Certificates presented by services.

test('an expired presented certificate is reported with a human title; one valid for 40 more days is not', () => {
  const expired = cert({ sha: '01'.repeat(32), notAfterDays: -1 });
  const risks = detectHostRisks(host([tlsService(expired.fingerprint_sha256)], { dns: { names: ['www.example.com'] } }), ctxWith([expired]));
  const r = risks.find((x) => x.type === 'tls.certificate.expired');
  assert.ok(r);
  assert.equal(r.title, 'Expired certificate on 192.0.2.10:443');
  assert.deepEqual(r.subject, { ip: '192.0.2.10' });
  assert.equal(r.context.port, 443);
  assert.equal(r.context.transportProtocol, 'TCP');
  assert.equal(r.subjectType, 'HOST');
  assert.equal(r.severity, 'high');
  assert.equal(r.evidence.sha256, expired.fingerprint_sha256);
  assert.ok(!risks.some((x) => x.type === 'tls.certificate.expiring_soon'));

  const later = cert({ sha: '02'.repeat(32), notAfterDays: 40 });
  const t = hostTypes([tlsService(later.fingerprint_sha256)], [later], { dns: { names: ['www.example.com'] } });
  assert.ok(!t.includes('tls.certificate.expired'));
  assert.ok(!t.includes('tls.certificate.expiring_soon'));
});

test('a certificate expiring within 30 days is "expiring soon"', () => {
  const c = cert({ sha: '03'.repeat(32), notAfterDays: 10 });
  const risks = detectHostRisks(host([tlsService(c.fingerprint_sha256)]), ctxWith([c]));
  const r = risks.find((x) => x.type === 'tls.certificate.expiring_soon');
  assert.ok(r);
  assert.equal(r.evidence.daysLeft, 10);
});

test('self-signed fires on self-signed certificates only, and is not also reported as untrusted', () => {
  const ss = cert({ sha: '04'.repeat(32), selfSigned: true, nss: { is_valid: false, has_trusted_path: false } });
  const t = hostTypes([tlsService(ss.fingerprint_sha256)], [ss]);
  assert.ok(t.includes('tls.certificate.self_signed'));
  assert.ok(!t.includes('tls.certificate.untrusted_chain'));
  const ok = cert({ sha: '05'.repeat(32) });
  assert.ok(!hostTypes([tlsService(ok.fingerprint_sha256)], [ok]).includes('tls.certificate.self_signed'));
});

test('untrusted chain fires when NSS validation says so, not when it is valid or unknown', () => {
  const bad = cert({ sha: '06'.repeat(32), nss: { is_valid: false, has_trusted_path: false } });
  assert.ok(hostTypes([tlsService(bad.fingerprint_sha256)], [bad]).includes('tls.certificate.untrusted_chain'));
  const good = cert({ sha: '07'.repeat(32), nss: { is_valid: true, has_trusted_path: true } });
  assert.ok(!hostTypes([tlsService(good.fingerprint_sha256)], [good]).includes('tls.certificate.untrusted_chain'));
  const unknown = cert({ sha: '08'.repeat(32) });
  assert.ok(!hostTypes([tlsService(unknown.fingerprint_sha256)], [unknown]).includes('tls.certificate.untrusted_chain'));
});

test('weak key: RSA 1024 fires, RSA 2048 and ECDSA 256 do not', () => {
  const weak = cert({ sha: '09'.repeat(32), rsaBits: 1024 });
  const r = detectHostRisks(host([tlsService(weak.fingerprint_sha256)]), ctxWith([weak])).find((x) => x.type === 'tls.certificate.weak_key');
  assert.equal(r?.evidence.keyBits, 1024);
  for (const c of [cert({ sha: '0a'.repeat(32), rsaBits: 2048 }), cert({ sha: '0b'.repeat(32), ecBits: 256 })]) {
    assert.ok(!hostTypes([tlsService(c.fingerprint_sha256)], [c]).includes('tls.certificate.weak_key'));
  }
});

test('weak signature: SHA-1 and MD5 fire, SHA-256 does not', () => {
  for (const sig of ['SHA1-RSA', 'MD5-RSA', 'ECDSA-SHA1']) {
    const c = cert({ sha: '0c'.repeat(32), sig });
    assert.ok(hostTypes([tlsService(c.fingerprint_sha256)], [c]).includes('tls.certificate.weak_signature'), sig);
  }
  for (const sig of ['SHA256-RSA', 'ECDSA-SHA384', 'SHA512-RSA']) {
    const c = cert({ sha: '0d'.repeat(32), sig });
    assert.ok(!hostTypes([tlsService(c.fingerprint_sha256)], [c]).includes('tls.certificate.weak_signature'), sig);
  }
});

test('name mismatch is wildcard-aware and needs a known host name', () => {
  const wild = cert({ sha: '0e'.repeat(32), names: ['*.example.com'] });
  const apex = cert({ sha: '0f'.repeat(32), names: ['example.com'] });
  const mismatch = (c: CertDoc, over: Partial<HostDoc>): boolean => hostTypes([tlsService(c.fingerprint_sha256)], [c], over).includes('tls.certificate.name_mismatch');
  assert.equal(mismatch(wild, { dns: { names: ['www.example.com'] } }), false);
  assert.equal(mismatch(wild, { dns: { names: ['example.com'] } }), true, 'a wildcard does not cover the apex');
  assert.equal(mismatch(wild, { dns: { names: ['a.b.example.com'] } }), true, 'a wildcard covers one label only');
  assert.equal(mismatch(apex, { dns: { names: ['www.example.com'] } }), true);
  assert.equal(mismatch(apex, { dns: { names: ['www.example.com', 'EXAMPLE.com'] } }), false, 'any covered name is enough');
  assert.equal(mismatch(apex, { name: 'example.com' }), false, 'virtual host name');
  assert.equal(mismatch(apex, { name: 'shop.example.org' }), true);
  assert.equal(mismatch(apex, {}), false, 'no names known: nothing to compare');
});

test('without the certificate document, the service leaf summary is used', () => {
  const s = tlsService('10'.repeat(32), {
    tls: { version_selected: 'TLSv1_2', certificates: { leaf_data: { names: ['router.lan'], pubkey_algorithm: 'RSA', pubkey_bit_size: 1024, signature: { self_signed: true, signature_algorithm: 'SHA1-RSA' } } } },
  });
  const t = hostTypes([s], [], { dns: { names: ['gw.example.com'] } });
  for (const type of ['tls.certificate.self_signed', 'tls.certificate.weak_key', 'tls.certificate.weak_signature', 'tls.certificate.name_mismatch']) assert.ok(t.includes(type), type);
  assert.ok(!t.includes('tls.certificate.expired'), 'no dates in the leaf summary');
});

// Certificate assets.

test('certificate assets: expiry, trust, revocation, key and signature', () => {
  const types = (c: CertDoc): string[] => detectCertificateRisks(c, ctxWith()).map((r) => r.type);
  assert.deepEqual(types(cert({ notAfterDays: -3 })), ['cert.expired']);
  assert.deepEqual(types(cert({ notAfterDays: 5 })), ['cert.expiring_soon']);
  assert.deepEqual(types(cert({ notAfterDays: 31 })), []);
  assert.deepEqual(types(cert({ selfSigned: true })), ['cert.self_signed']);
  assert.deepEqual(types(cert({ selfSigned: true, isCa: true, sig: 'SHA1-RSA' })), [], 'a root is self-signed by design and its own SHA-1 signature is harmless');
  assert.deepEqual(types(cert({ nss: { is_valid: false } })), ['cert.untrusted']);
  assert.deepEqual(types(cert({ revoked: true })), ['cert.revoked']);
  assert.deepEqual(types(cert({ rsaBits: 1024, sig: 'SHA1-RSA' })), ['cert.weak_key', 'cert.weak_signature']);
  const r = detectCertificateRisks(cert({ sha: 'ab'.repeat(32), notAfterDays: -3 }), ctxWith())[0];
  assert.equal(r.subjectType, 'CERT');
  assert.deepEqual(r.subject, { sha256: 'ab'.repeat(32) });
  assert.deepEqual(r.context, {});
});

// TLS versions and ciphers.

test('weak TLS versions fire; TLS 1.2 and 1.3 do not', () => {
  const withVersion = (v: string, cipher = 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'): string[] => hostTypes([tlsService('11'.repeat(32), { tls: { version_selected: v, cipher_selected: cipher } })]);
  assert.ok(withVersion('TLSv1_0').includes('tls.version.tls1_0'));
  assert.ok(withVersion('TLSv1.1').includes('tls.version.tls1_1'));
  assert.ok(withVersion('SSLv3').includes('tls.version.ssl'));
  for (const v of ['TLSv1_2', 'TLSv1_3']) assert.ok(!withVersion(v).some((t) => t.startsWith('tls.version.')), v);
  assert.ok(withVersion('TLSv1_2', 'TLS_RSA_WITH_RC4_128_SHA').includes('tls.cipher.weak'));
  assert.ok(withVersion('TLSv1_2', 'TLS_RSA_WITH_3DES_EDE_CBC_SHA').includes('tls.cipher.weak'));
  assert.ok(!withVersion('TLSv1_2', 'TLS_RSA_WITH_AES_128_CBC_SHA').includes('tls.cipher.weak'));
});

// Exposure.

test('databases: exposed when a login is offered, not when the server turns the scanner away', () => {
  assert.ok(hostTypes([svc('MYSQL', 3306, { mysql: { server_version: '8.0.36', protocol_version: 10 } })]).includes('service.database.mysql_exposed'));
  assert.ok(!hostTypes([svc('MYSQL', 3306, { mysql: { error_code: 1130, error_message: "Host '1.2.3.4' is not allowed" } })]).includes('service.database.mysql_exposed'));
  assert.ok(hostTypes([svc('POSTGRES', 5432, { postgres: { authentication_mode: { mode: 'md5' } } })]).includes('service.database.postgres_exposed'));
  assert.ok(!hostTypes([svc('POSTGRES', 5432, { postgres: { startup_error: { code: '28000', message: 'no pg_hba.conf entry' } } })]).includes('service.database.postgres_exposed'));
  for (const [name, type] of [
    ['MONGODB', 'service.database.mongodb_exposed'],
    ['ELASTICSEARCH', 'service.database.elasticsearch_exposed'],
    ['MEMCACHED', 'service.database.memcached_exposed'],
    ['MSSQL', 'service.database.mssql_exposed'],
    ['KUBERNETES', 'service.container.kubernetes_api_exposed'],
    ['MODBUS', 'service.ics.exposed'],
    ['IPMI', 'service.remote_access.ipmi_exposed'],
  ] as const) {
    assert.ok(hostTypes([svc(name, 1000)]).includes(type), name);
  }
  assert.deepEqual(hostTypes([http({ port: 3306, title: 'Welcome' })]).filter((t) => t.startsWith('service.database')), [], 'a web server on 3306 is not MySQL');
  assert.deepEqual(hostTypes([svc('TELNET', 23, { truncated: true })]), [], 'pseudo services of truncated hosts are skipped');
});

test('Redis: exposed always, unauthenticated only when PING is answered', () => {
  const open = hostTypes([svc('REDIS', 6379, { redis: { ping_response: 'PONG' } })]);
  assert.ok(open.includes('service.database.redis_exposed') && open.includes('service.database.redis_no_auth'));
  const locked = hostTypes([svc('REDIS', 6379, { redis: { ping_response: '-NOAUTH Authentication required.' } })]);
  assert.ok(locked.includes('service.database.redis_exposed') && !locked.includes('service.database.redis_no_auth'));
});

test('remote access: RDP, NLA, VNC, Telnet, SMB and SMBv1', () => {
  const rdp = (credssp: boolean): string[] => hostTypes([svc('RDP', 3389, { rdp: { selected_security_protocol: { credssp, credssp_early_auth: false } } })]);
  assert.ok(rdp(true).includes('service.remote_access.rdp_exposed'));
  assert.ok(!rdp(true).includes('service.remote_access.rdp_without_nla'));
  assert.ok(rdp(false).includes('service.remote_access.rdp_without_nla'));
  const vnc = (types: unknown[]): string[] => hostTypes([svc('VNC', 5900, { vnc: { security_types: types } })]);
  assert.ok(vnc([{ name: 'None', value: 1 }]).includes('service.remote_access.vnc_no_auth'));
  assert.ok(!vnc([{ name: 'VNC', value: 2 }]).includes('service.remote_access.vnc_no_auth'));
  assert.ok(vnc([{ name: 'VNC', value: 2 }]).includes('service.remote_access.vnc_exposed'));
  assert.ok(hostTypes([svc('TELNET', 23, { banner: 'login: ' })]).includes('service.remote_access.telnet_exposed'));
  assert.ok(hostTypes([svc('SMB', 445, { smb: { smbv1_support: true } })]).includes('service.remote_access.smbv1_enabled'));
  const smb = hostTypes([svc('SMB', 445, { smb: { smbv1_support: false } })]);
  assert.ok(smb.includes('service.remote_access.smb_exposed') && !smb.includes('service.remote_access.smbv1_enabled'));
  assert.ok(!hostTypes([svc('SSH', 22, { ssh: {} })]).some((t) => t.startsWith('service.remote_access')), 'SSH alone is not reported');
});

test('network services: SNMP, NTP, memcached UDP, open resolvers, MQTT, Docker', () => {
  assert.ok(hostTypes([svc('SNMP', 161, { snmp: { oid_system: { desc: 'Linux fw01' } } }, 'UDP')]).includes('service.snmp.public_community'));
  assert.ok(!hostTypes([svc('SNMP', 161, {}, 'UDP')]).includes('service.snmp.public_community'));
  assert.ok(hostTypes([svc('NTP', 123, { ntp: { get_time_header: { stratum: 2 } } }, 'UDP')]).includes('service.ntp.amplification'));
  assert.ok(hostTypes([svc('MEMCACHED', 11211, { memcached: { responds_to_udp: true } })]).includes('service.memcached.udp_amplification'));
  assert.ok(!hostTypes([svc('MEMCACHED', 11211, { memcached: { responds_to_udp: false } })]).includes('service.memcached.udp_amplification'));
  const dns = (server_type: string, resolves_correctly: boolean): string[] => hostTypes([svc('DNS', 53, { dns: { server_type, resolves_correctly } }, 'UDP')]);
  assert.ok(dns('RECURSIVE_RESOLVER', true).includes('service.dns.open_resolver'));
  assert.ok(!dns('AUTHORITATIVE', false).includes('service.dns.open_resolver'));
  assert.ok(!dns('RECURSIVE_RESOLVER', false).includes('service.dns.open_resolver'));
  const mqtt = (code: number): string[] => hostTypes([svc('MQTT', 1883, { mqtt: { connection_ack_return: { return_value: code } } })]);
  assert.ok(mqtt(0).includes('service.mqtt.no_auth'));
  assert.ok(!mqtt(5).includes('service.mqtt.no_auth'));
  assert.ok(hostTypes([http({ port: 2375, headers: { Server: ['Docker/24.0.7 (linux)'], Api_Version: ['1.43'] } })]).includes('service.container.docker_api_exposed'));
  assert.ok(!hostTypes([http({ port: 2375, headers: { Server: ['nginx/1.24.0'] } })]).includes('service.container.docker_api_exposed'));
});

test('FTP: anonymous login announced in the greeting; "no anonymous login" is not', () => {
  const ftp = (banner: string, auth = '234 AUTH TLS successful'): string[] => hostTypes([svc('FTP', 21, { banner, ftp: { banner, status_code: 220, auth_tls_response: auth } })]);
  assert.ok(ftp('220 Anonymous FTP server ready').includes('service.ftp.anonymous_login'));
  assert.ok(ftp('220-Welcome\r\n220 Anonymous access allowed').includes('service.ftp.anonymous_login'));
  assert.ok(!ftp('220---------- Welcome to Pure-FTPd ----------\r\n220-This is a private system - No anonymous login\r\n220 Bye').includes('service.ftp.anonymous_login'));
  assert.ok(!ftp('220 (vsFTPd 3.0.5)').includes('service.ftp.anonymous_login'));
  assert.ok(ftp('220 (vsFTPd 3.0.5)', '500 AUTH not understood').includes('service.ftp.no_tls'));
  assert.ok(!ftp('220 (vsFTPd 3.0.5)').includes('service.ftp.no_tls'));
});

// Web.

const LOGIN = '<form method="post"><input type="text" name="u"><input type="password" name="p"></form>';

test('a login form over plain HTTP fires; the same form over HTTPS does not', () => {
  assert.ok(hostTypes([http({ title: 'Sign In', body: LOGIN })]).includes('service.http.login_over_plaintext'));
  assert.ok(!hostTypes([http({ tls: true, title: 'Sign In', body: LOGIN })]).includes('service.http.login_over_plaintext'));
  assert.ok(!hostTypes([http({ title: 'Home', body: '<p>no form</p>' })]).includes('service.http.login_over_plaintext'));
});

test('HTTP Basic challenges over plain HTTP', () => {
  assert.ok(hostTypes([http({ status: 401, headers: { Www_Authenticate: ['Basic realm="admin"'] } })]).includes('service.http.basic_auth_over_plaintext'));
  assert.ok(!hostTypes([http({ tls: true, status: 401, headers: { Www_Authenticate: ['Basic realm="admin"'] } })]).includes('service.http.basic_auth_over_plaintext'));
  assert.ok(!hostTypes([http({ status: 401, headers: { Www_Authenticate: ['Bearer'] } })]).includes('service.http.basic_auth_over_plaintext'));
});

test('security headers: HSTS on HTTPS, clickjacking and MIME-sniffing protection', () => {
  assert.ok(hostTypes([http({ tls: true })]).includes('service.http.missing_hsts'));
  assert.ok(!hostTypes([http({ tls: true, headers: { Strict_Transport_Security: ['max-age=31536000'] } })]).includes('service.http.missing_hsts'));
  assert.ok(!hostTypes([http({ tls: false })]).includes('service.http.missing_hsts'), 'HSTS means nothing over plain HTTP');
  const r = detectHostRisks(host([http({})]), ctxWith()).find((x) => x.type === 'service.http.missing_security_headers');
  assert.deepEqual(r?.evidence.missing, ['X-Frame-Options', 'X-Content-Type-Options']);
  assert.ok(!hostTypes([http({ headers: { X_Frame_Options: ['DENY'], X_Content_Type_Options: ['nosniff'] } })]).includes('service.http.missing_security_headers'));
  assert.ok(!hostTypes([http({ headers: { Content_Security_Policy: ["frame-ancestors 'none'"], X_Content_Type_Options: ['nosniff'] } })]).includes('service.http.missing_security_headers'));
  assert.ok(!hostTypes([http({ status: 404 })]).includes('service.http.missing_security_headers'), 'error pages are not judged');
});

test('directory listings, admin panels and default pages', () => {
  assert.ok(hostTypes([http({ title: 'Index of /', body: '<h1>Index of /</h1>' })]).includes('service.http.directory_listing'));
  assert.ok(!hostTypes([http({ title: 'Index of our products' })]).includes('service.http.directory_listing'));
  assert.ok(hostTypes([http({ title: 'phpMyAdmin' })]).includes('service.http.admin_panel_exposed'));
  assert.ok(!hostTypes([http({ title: 'Acme | Home' })]).includes('service.http.admin_panel_exposed'));
  assert.ok(hostTypes([http({ title: 'Welcome to nginx!' })]).includes('service.http.default_page'));
  assert.ok(!hostTypes([http({ title: 'Acme | Home' })]).includes('service.http.default_page'));
});

// Software.

function ssh(version: string, update?: string, comment?: string, vendor = 'openbsd'): ServiceDoc {
  return svc('SSH', 22, { software: [cpe(vendor, 'openssh', version, update)], ssh: { endpoint_id: { software_version: `OpenSSH_${version}${update ?? ''}`, ...(comment ? { comment } : {}) } } });
}

test('regreSSHion: OpenSSH 8.5p1 to 9.7p1, not 9.8p1, not patched distribution packages, not OpenSSH for Windows', () => {
  const r = detectHostRisks(host([ssh('9.6', 'p1')]), ctxWith()).find((x) => x.type === 'software.vulnerable.openssh_regresshion');
  assert.ok(r);
  assert.deepEqual(r.context.cve, ['CVE-2024-6387']);
  assert.equal(r.context.software, 'OpenSSH 9.6p1');
  assert.equal(r.severity, 'critical');
  assert.equal(r.title, 'OpenSSH regreSSHion (CVE-2024-6387) (OpenSSH 9.6p1) on 192.0.2.10:22');
  assert.ok(hostTypes([ssh('8.5', 'p1')]).includes('software.vulnerable.openssh_regresshion'));
  assert.ok(!hostTypes([ssh('9.8', 'p1')]).includes('software.vulnerable.openssh_regresshion'));
  assert.ok(!hostTypes([ssh('8.4', 'p1')]).includes('software.vulnerable.openssh_regresshion'));
  assert.ok(hostTypes([ssh('8.9', 'p1', 'Ubuntu-3ubuntu0.6')]).includes('software.vulnerable.openssh_regresshion'));
  assert.ok(!hostTypes([ssh('8.9', 'p1', 'Ubuntu-3ubuntu0.10')]).includes('software.vulnerable.openssh_regresshion'));
  assert.ok(!hostTypes([ssh('9.2', 'p1', 'Debian-2+deb12u3')]).includes('software.vulnerable.openssh_regresshion'));
  assert.ok(!hostTypes([ssh('8.9', undefined, undefined, 'microsoft')]).includes('software.vulnerable.openssh_regresshion'));
  // Banner only, no CPE.
  assert.ok(hostTypes([svc('SSH', 22, { ssh: { endpoint_id: { software_version: 'OpenSSH_9.3' } } })]).includes('software.vulnerable.openssh_regresshion'));
  assert.ok(hostTypes([ssh('7.4')]).includes('software.vulnerable.openssh_user_enumeration'));
  assert.ok(!hostTypes([ssh('7.9', 'p1')]).includes('software.vulnerable.openssh_user_enumeration'));
});

test('vulnerable web, mail, FTP and cache software, each with a near miss', () => {
  const web = (product: [string, string], version: string): string[] => hostTypes([http({ software: [cpe(product[0], product[1], version)] })]);
  assert.ok(web(['apache', 'http_server'], '2.4.49').includes('software.vulnerable.apache_path_traversal'));
  assert.ok(web(['apache', 'http_server'], '2.4.50').includes('software.vulnerable.apache_path_traversal'));
  assert.ok(!web(['apache', 'http_server'], '2.4.51').includes('software.vulnerable.apache_path_traversal'));
  assert.ok(web(['f5', 'nginx'], '1.20.0').includes('software.vulnerable.nginx_resolver'));
  assert.ok(!web(['f5', 'nginx'], '1.20.1').includes('software.vulnerable.nginx_resolver'));
  assert.ok(web(['microsoft', 'internet_information_services'], '6.0').includes('software.vulnerable.iis6_webdav'));
  assert.ok(!web(['microsoft', 'internet_information_services'], '10.0').includes('software.vulnerable.iis6_webdav'));
  assert.ok(web(['apache', 'tomcat'], '9.0.30').includes('software.vulnerable.tomcat_ghostcat'));
  assert.ok(!web(['apache', 'tomcat'], '9.0.31').includes('software.vulnerable.tomcat_ghostcat'));
  // From headers alone: Apache and OpenSSL versions.
  const hdr = (server: string): string[] => hostTypes([http({ headers: { Server: [server] } })]);
  const both = hdr('Apache/2.4.49 (Unix) OpenSSL/1.0.1e');
  assert.ok(both.includes('software.vulnerable.apache_path_traversal') && both.includes('software.vulnerable.openssl_heartbleed'));
  assert.ok(!hdr('Apache/2.4.58 (Unix) OpenSSL/1.0.1g').includes('software.vulnerable.openssl_heartbleed'));
  assert.ok(!hdr('Apache/2.4.58 (Unix) OpenSSL/1.0.0').includes('software.vulnerable.openssl_heartbleed'));
  const smtp = (v: string): string[] => hostTypes([svc('SMTP', 25, { software: [cpe('exim', 'exim', v)] })]);
  assert.ok(smtp('4.89').includes('software.vulnerable.exim_remote_command'));
  assert.ok(smtp('4.89').includes('software.vulnerable.exim_ntlm_auth'));
  assert.ok(!smtp('4.92').includes('software.vulnerable.exim_remote_command'));
  assert.deepEqual(smtp('4.97.1').filter((t) => t.startsWith('software.vulnerable')), []);
  const ftp = (vendor: string, product: string, v: string): string[] => hostTypes([svc('FTP', 21, { software: [cpe(vendor, product, v)] })]);
  assert.ok(ftp('beasts', 'vsftpd', '2.3.4').includes('software.vulnerable.vsftpd_backdoor'));
  assert.ok(!ftp('beasts', 'vsftpd', '3.0.3').includes('software.vulnerable.vsftpd_backdoor'));
  assert.ok(ftp('proftpd', 'proftpd', '1.3.5').includes('software.vulnerable.proftpd_mod_copy'));
  assert.ok(!ftp('proftpd', 'proftpd', '1.3.5e').includes('software.vulnerable.proftpd_mod_copy'));
  const redis = (v: string): string[] => hostTypes([svc('REDIS', 6379, { software: [cpe('redis', 'redis', v)] })]);
  assert.ok(redis('6.2.12').includes('software.vulnerable.redis_lua_cjson'));
  assert.ok(redis('5.0.7').includes('software.vulnerable.redis_lua_cjson'));
  assert.ok(!redis('6.2.14').includes('software.vulnerable.redis_lua_cjson'));
  assert.ok(!redis('7.2.4').includes('software.vulnerable.redis_lua_cjson'));
  assert.ok(!hostTypes([svc('REDIS', 6379, { software: [cpe('redis', 'redis')] })]).includes('software.vulnerable.redis_lua_cjson'), 'no version, no claim');
});

test('end-of-life software follows the clock: PHP 8.2 is supported until 2026-12-31', () => {
  const php = (v: string, now = NOW): string[] => typesOf(host([http({ software: [cpe('php', 'php', v)] })]), ctxWith([], { now }));
  assert.ok(php('7.4.33').includes('software.eol.php'));
  assert.ok(php('8.1.2').includes('software.eol.php'));
  assert.ok(!php('8.2.24').includes('software.eol.php'));
  assert.ok(php('8.2.24', new Date('2027-01-02T00:00:00Z')).includes('software.eol.php'));
  assert.ok(!php('8.3.6').includes('software.eol.php'));
  const nginx = (v: string): string[] => hostTypes([http({ software: [cpe('f5', 'nginx', v)] })]);
  assert.ok(nginx('1.18.0').includes('software.eol.nginx'));
  assert.ok(!nginx('1.20.2').includes('software.eol.nginx'));
  assert.ok(hostTypes([http({ software: [cpe('apache', 'http_server', '2.2.34')] })]).includes('software.eol.apache_httpd'));
  assert.ok(!hostTypes([http({ software: [cpe('apache', 'http_server', '2.4.62')] })]).includes('software.eol.apache_httpd'));
  assert.ok(hostTypes([http({ software: [cpe('microsoft', 'internet_information_services', '8.5')] })]).includes('software.eol.iis'));
  assert.ok(!hostTypes([http({ software: [cpe('microsoft', 'internet_information_services', '10.0')] })]).includes('software.eol.iis'));
});

test('end-of-life operating systems are host-wide risks without a port', () => {
  const os = (vendor: string, product: string, version?: string): HostDoc => host([svc('RDP', 3389)], { operating_system: cpe(vendor, product, version, undefined, 'o') });
  const r = detectHostRisks(os('microsoft', 'windows_server_2012', 'r2'), ctxWith()).find((x) => x.type === 'software.eol.windows');
  assert.ok(r);
  assert.deepEqual(r.context, { software: 'Windows Server 2012' });
  assert.equal(r.title, 'End-of-life Windows (Windows Server 2012) on 192.0.2.10');
  assert.ok(!typesOf(os('microsoft', 'windows_server_2022')).includes('software.eol.windows'));
  assert.ok(typesOf(os('canonical', 'ubuntu_linux', '18.04')).includes('software.eol.ubuntu'));
  assert.ok(!typesOf(os('canonical', 'ubuntu_linux', '22.04')).includes('software.eol.ubuntu'));
  assert.ok(typesOf(os('centos', 'centos', '7')).includes('software.eol.centos'));
  assert.ok(!typesOf(os('debian', 'debian_linux', '12')).includes('software.eol.debian'));
  // An OS CPE found on a service counts as well, once per host.
  const viaService = host([svc('SSH', 22, { software: [cpe('debian', 'debian_linux', '10', undefined, 'o')] }), svc('SMTP', 25, { software: [cpe('debian', 'debian_linux', '10', undefined, 'o')] })]);
  assert.equal(typesOf(viaService).filter((t) => t === 'software.eol.debian').length, 1);
});

// Storage.

test('storage buckets: listable, readable, writable, private', () => {
  const types = (access: { list?: boolean; read?: boolean; write?: boolean }): string[] => detectStorageRisks({ bucket: 'acme-backups', provider: 'aws', access }, ctxWith()).map((r) => r.type);
  assert.deepEqual(types({ list: true, read: true }), ['storage.bucket.open']);
  assert.deepEqual(types({ read: true }), ['storage.bucket.public_read']);
  assert.deepEqual(types({ write: true }), ['storage.bucket.public_write']);
  assert.deepEqual(types({ list: false, read: false }), []);
  const r = detectStorageRisks({ bucket: 'acme-backups', access: { list: true } }, ctxWith())[0];
  assert.equal(r.subjectType, 'STORAGE_BUCKET');
  assert.deepEqual(r.subject, { bucket: 'acme-backups' });
  assert.equal(r.title, 'Publicly listable storage bucket on acme-backups');
});

// Overrides.

test('disabled types are not reported and severity overrides apply', () => {
  const h = host([svc('TELNET', 23), svc('RDP', 3389)]);
  const off = detectHostRisks(h, ctxWith([], { enabled: (t) => t !== 'service.remote_access.telnet_exposed' })).map((r) => r.type);
  assert.ok(!off.includes('service.remote_access.telnet_exposed'));
  assert.ok(off.includes('service.remote_access.rdp_exposed'));
  const sev = detectHostRisks(h, ctxWith([], { severity: (t) => (t === 'service.remote_access.rdp_exposed' ? 'critical' : 'low') }));
  assert.equal(sev.find((r) => r.type === 'service.remote_access.rdp_exposed')?.severity, 'critical');
  assert.equal(sev.find((r) => r.type === 'service.remote_access.telnet_exposed')?.severity, 'low');
});

test('virtual hosts are their own subject and appear in titles', () => {
  const r = detectHostRisks(host([http({ title: 'Sign In', body: LOGIN })], { name: 'shop.example.com' }), ctxWith()).find((x) => x.type === 'service.http.login_over_plaintext');
  assert.deepEqual(r?.subject, { ip: '192.0.2.10', name: 'shop.example.com' });
  assert.equal(r?.title, 'Login page over plain HTTP on shop.example.com (192.0.2.10):80');
});
