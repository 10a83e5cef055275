import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate, createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseCertificate, pemToDer, type CertificateDocument } from './index.ts';

let dir: string;
let rootDer: Uint8Array;
let rootPem: string;
let leafDer: Uint8Array;
let leafPem: string;
let poisonDer: Uint8Array;

function openssl(args: string[], input?: string): string {
  return execFileSync('openssl', args, { cwd: dir, encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
}

function parsed(der: Uint8Array, now?: Date): CertificateDocument {
  const r = parseCertificate(der, now ? { now } : {});
  if (!r.ok) assert.fail(r.error);
  return r.doc;
}

/** `AB:CD:..` from `openssl x509 -fingerprint` → `abcd..`. */
function opensslFingerprint(pemFile: string, alg: string): string {
  const out = openssl(['x509', '-in', pemFile, '-noout', '-fingerprint', `-${alg}`]);
  return out.trim().split('=')[1].replace(/:/g, '').toLowerCase();
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'periscope-x509-'));
  writeFileSync(
    join(dir, 'root.cnf'),
    [
      '[req]',
      'distinguished_name = dn',
      'prompt = no',
      '[dn]',
      'C = US',
      'O = Periscope Test CA',
      'CN = Periscope Test Root',
      '[v3]',
      'basicConstraints = critical, CA:TRUE',
      'keyUsage = critical, keyCertSign, cRLSign',
      'subjectKeyIdentifier = hash',
    ].join('\n'),
  );
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'root.key', '-out', 'root.pem', '-days', '3650', '-config', 'root.cnf', '-extensions', 'v3', '-set_serial', '4096']);
  writeFileSync(
    join(dir, 'leaf.ext'),
    [
      'basicConstraints = critical, CA:FALSE',
      'keyUsage = critical, digitalSignature',
      'extendedKeyUsage = serverAuth, clientAuth',
      'subjectKeyIdentifier = hash',
      'authorityKeyIdentifier = keyid',
      'subjectAltName = DNS:www.Example-Shop.test, DNS:example-shop.test, IP:192.0.2.10, IP:2001:db8::1, email:ops@example-shop.test, URI:https://example-shop.test/',
      'certificatePolicies = 2.23.140.1.2.2, @cps',
      'authorityInfoAccess = OCSP;URI:http://ocsp.example-ca.test, caIssuers;URI:http://certs.example-ca.test/root.crt',
      'crlDistributionPoints = URI:http://crl.example-ca.test/root.crl',
      '[cps]',
      'policyIdentifier = 1.3.6.1.4.1.99999.1',
      'CPS.1 = https://example-ca.test/cps',
    ].join('\n'),
  );
  openssl(['ecparam', '-name', 'secp384r1', '-genkey', '-noout', '-out', 'leaf.key']);
  openssl(['req', '-new', '-key', 'leaf.key', '-out', 'leaf.csr', '-subj', '/C=DE/ST=Berlin/L=Berlin/O=Example Shop GmbH/CN=www.example-shop.test']);
  openssl(['x509', '-req', '-in', 'leaf.csr', '-CA', 'root.pem', '-CAkey', 'root.key', '-set_serial', '0x0123456789abcdef01', '-days', '30', '-sha384', '-extfile', 'leaf.ext', '-out', 'leaf.pem']);
  writeFileSync(join(dir, 'poison.ext'), 'basicConstraints = critical, CA:FALSE\nsubjectAltName = DNS:pre.example-shop.test\n1.3.6.1.4.1.11129.2.4.3 = critical, ASN1:NULL\n');
  openssl(['x509', '-req', '-in', 'leaf.csr', '-CA', 'root.pem', '-CAkey', 'root.key', '-set_serial', '77', '-days', '30', '-extfile', 'poison.ext', '-out', 'poison.pem']);
  openssl(['req', '-new', '-key', 'leaf.key', '-out', 'dv.csr', '-subj', '/OU=Domain Control Validated/CN=shop.example-shop.test']);
  openssl(['x509', '-req', '-in', 'dv.csr', '-CA', 'root.pem', '-CAkey', 'root.key', '-set_serial', '78', '-days', '30', '-out', 'dv.pem']);
  openssl(['req', '-x509', '-key', 'leaf.key', '-out', 'ss.pem', '-days', '30', '-subj', '/CN=self.example-shop.test', '-addext', 'certificatePolicies = 2.23.140.1.2.1']);
  rootPem = readFileSync(join(dir, 'root.pem'), 'utf8');
  leafPem = readFileSync(join(dir, 'leaf.pem'), 'utf8');
  const ders = pemToDer(rootPem + leafPem + readFileSync(join(dir, 'poison.pem'), 'utf8'));
  assert.ok(ders.ok);
  [rootDer, leafDer, poisonDer] = ders.ders;
});

after(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('fingerprints agree with openssl x509 -fingerprint', () => {
  const root = parsed(rootDer);
  const leaf = parsed(leafDer);
  assert.equal(root.fingerprint_sha256, opensslFingerprint('root.pem', 'sha256'));
  assert.equal(root.fingerprint_sha1, opensslFingerprint('root.pem', 'sha1'));
  assert.equal(root.fingerprint_md5, opensslFingerprint('root.pem', 'md5'));
  assert.equal(leaf.fingerprint_sha256, opensslFingerprint('leaf.pem', 'sha256'));
  assert.equal(leaf.raw, Buffer.from(leafDer).toString('base64'));
});

test('SPKI fingerprint is the SHA-256 of the DER public key openssl extracts', () => {
  const pub = execFileSync('openssl', ['x509', '-in', 'leaf.pem', '-noout', '-pubkey'], { cwd: dir });
  const spkiDer = execFileSync('openssl', ['pkey', '-pubin', '-outform', 'DER'], { cwd: dir, input: pub });
  const leaf = parsed(leafDer);
  assert.equal(leaf.spki_fingerprint_sha256, createHash('sha256').update(spkiDer).digest('hex'));
  assert.equal(leaf.parsed.subject_key_info.fingerprint_sha256, leaf.spki_fingerprint_sha256);
});

test('serial, dates and names agree with openssl and node X509Certificate', () => {
  const leaf = parsed(leafDer);
  const serialHex = openssl(['x509', '-in', 'leaf.pem', '-noout', '-serial']).trim().split('=')[1].toLowerCase();
  assert.equal(leaf.parsed.serial_number_hex.replace(/^0+/, ''), serialHex.replace(/^0+/, ''));
  assert.equal(leaf.parsed.serial_number, BigInt('0x' + serialHex).toString(10));
  const node = new X509Certificate(leafDer);
  assert.equal(leaf.parsed.validity_period.not_before, new Date(node.validFrom).toISOString().replace('.000Z', 'Z'));
  assert.equal(leaf.parsed.validity_period.not_after, new Date(node.validTo).toISOString().replace('.000Z', 'Z'));
  assert.equal(leaf.parsed.validity_period.length_seconds, 30 * 86400);
  assert.equal(leaf.parsed.subject_dn, 'C=DE, ST=Berlin, L=Berlin, O=Example Shop GmbH, CN=www.example-shop.test');
  assert.equal(leaf.parsed.issuer_dn, 'C=US, O=Periscope Test CA, CN=Periscope Test Root');
  assert.deepEqual(leaf.parsed.subject.organization, ['Example Shop GmbH']);
  assert.deepEqual(leaf.parsed.subject.locality, ['Berlin']);
  assert.deepEqual(leaf.names, ['www.example-shop.test', 'example-shop.test', '192.0.2.10', '2001:db8::1']);
  const san = leaf.parsed.extensions.subject_alt_name!;
  assert.deepEqual(san.dns_names, ['www.Example-Shop.test', 'example-shop.test']);
  assert.deepEqual(san.ip_addresses, ['192.0.2.10', '2001:db8::1']);
  assert.deepEqual(san.email_addresses, ['ops@example-shop.test']);
  assert.deepEqual(san.uniform_resource_identifiers, ['https://example-shop.test/']);
});

test('key sizes and algorithms match openssl -text', () => {
  const rootText = openssl(['x509', '-in', 'root.pem', '-noout', '-text']);
  const leafText = openssl(['x509', '-in', 'leaf.pem', '-noout', '-text']);
  const root = parsed(rootDer);
  const leaf = parsed(leafDer);
  assert.match(rootText, new RegExp(`Public-Key: \\(${root.parsed.subject_key_info.rsa!.length} bit\\)`));
  assert.equal(root.parsed.subject_key_info.rsa!.length, 2048);
  assert.equal(root.parsed.subject_key_info.rsa!.exponent, 65537);
  assert.equal(root.parsed.subject_key_info.key_algorithm.name, 'RSA');
  assert.match(leafText, /Public-Key: \(384 bit\)/);
  assert.deepEqual(
    { curve: leaf.parsed.subject_key_info.ecdsa!.curve, length: leaf.parsed.subject_key_info.ecdsa!.length, name: leaf.parsed.subject_key_info.key_algorithm.name },
    { curve: 'P-384', length: 384, name: 'ECDSA' },
  );
  assert.equal(Buffer.from(leaf.parsed.subject_key_info.ecdsa!.pub, 'base64').length, 97);
  assert.equal(leaf.parsed.signature.signature_algorithm.name, 'SHA384-RSA');
  assert.equal(root.parsed.signature.signature_algorithm.name, 'SHA256-RSA');
  assert.equal(leaf.parsed.signature.signature_algorithm.oid, '1.2.840.113549.1.1.12');
});

test('extensions of an openssl leaf', () => {
  const leaf = parsed(leafDer);
  const root = parsed(rootDer);
  const e = leaf.parsed.extensions;
  assert.deepEqual(e.basic_constraints, { is_ca: false });
  assert.deepEqual(e.key_usage, { digital_signature: true, value: 1 });
  assert.deepEqual(e.extended_key_usage, { server_auth: true, client_auth: true });
  assert.equal(e.authority_key_id, root.parsed.extensions.subject_key_id);
  assert.match(e.subject_key_id!, /^[0-9a-f]{40}$/);
  assert.deepEqual(e.authority_info_access, { ocsp_urls: ['http://ocsp.example-ca.test'], issuer_urls: ['http://certs.example-ca.test/root.crt'] });
  assert.deepEqual(e.crl_distribution_points, ['http://crl.example-ca.test/root.crl']);
  assert.deepEqual(e.certificate_policies, [{ id: '2.23.140.1.2.2' }, { id: '1.3.6.1.4.1.99999.1', cps: ['https://example-ca.test/cps'] }]);
  assert.equal(leaf.validation_level, 'OV');
  assert.equal(leaf.parsed.version, 3);
  assert.deepEqual(root.parsed.extensions.key_usage, { certificate_sign: true, crl_sign: true, value: 96 });
  assert.deepEqual(root.parsed.extensions.basic_constraints, { is_ca: true });
});

test('labels: root vs leaf, self-signature checked, expiry relative to now', () => {
  const root = parsed(rootDer);
  const leaf = parsed(leafDer);
  assert.equal(root.parsed.signature.self_signed, true);
  assert.equal(root.parsed.signature.valid, true);
  assert.deepEqual(root.labels, ['ca', 'root', 'self-signed', 'unexpired']);
  assert.equal(leaf.parsed.signature.self_signed, false);
  assert.equal(leaf.parsed.signature.valid, undefined);
  assert.deepEqual(leaf.labels, ['leaf', 'unexpired', 'ov']);
  const later = parsed(leafDer, new Date(Date.now() + 40 * 86400_000));
  assert.ok(later.labels.includes('expired'));
  assert.ok(!later.labels.includes('unexpired'));
  // The same name but a foreign signature is not self-signed.
  assert.equal(root.precert, false);
  assert.equal(root.parse_status, 'CERTIFICATE_PARSE_STATUS_SUCCESS');
});

test('CT poison marks a precertificate; tbs_no_ct differs from tbs only when CT extensions are present', () => {
  const pre = parsed(poisonDer);
  assert.equal(pre.precert, true);
  assert.equal(pre.parsed.extensions.ct_poison, true);
  assert.ok(pre.labels.includes('precert'));
  assert.notEqual(pre.tbs_no_ct_fingerprint_sha256, pre.tbs_fingerprint_sha256);
  const leaf = parsed(leafDer);
  assert.equal(leaf.tbs_no_ct_fingerprint_sha256, leaf.tbs_fingerprint_sha256);
  assert.equal(pre.parsed.unknown_extensions, undefined);
});

test('spki_subject fingerprint is SHA-256 over the encoded SPKI then subject (offsets from openssl asn1parse)', () => {
  // Children of the TBS (depth 2): version, serial, signature, issuer, validity, subject, spki, extensions.
  const lines = openssl(['asn1parse', '-in', 'leaf.pem']).split('\n').filter((l) => /\bd=2\b/.test(l));
  const slice = (line: string): Buffer => {
    const m = line.match(/^\s*(\d+):d=2\s+hl=(\d+)\s+l=\s*(\d+)/);
    assert.ok(m, line);
    const off = Number(m[1]);
    return Buffer.from(leafDer.subarray(off, off + Number(m[2]) + Number(m[3])));
  };
  const subject = slice(lines[5]);
  const spki = slice(lines[6]);
  const leaf = parsed(leafDer);
  assert.equal(leaf.spki_fingerprint_sha256, createHash('sha256').update(spki).digest('hex'));
  assert.equal(leaf.spki_subject_fingerprint_sha256, createHash('sha256').update(spki).update(subject).digest('hex'));
});

test('validation level: policy OIDs first, old DV subject conventions, never for self-signed', () => {
  const read = (f: string): CertificateDocument => {
    const r = pemToDer(readFileSync(join(dir, f), 'utf8'));
    assert.ok(r.ok && r.ders.length === 1);
    return parsed(r.ders[0]);
  };
  const dv = read('dv.pem');
  assert.equal(dv.validation_level, 'DV');
  assert.ok(dv.labels.includes('dv'));
  const ss = read('ss.pem');
  assert.equal(ss.parsed.signature.self_signed, true);
  assert.equal(ss.parsed.extensions.certificate_policies?.[0].id, '2.23.140.1.2.1');
  assert.equal(ss.validation_level, 'UNKNOWN');
  assert.equal(ss.parsed.signature.signature_algorithm.name, 'ECDSA-SHA256');
  assert.equal(ss.parsed.signature.valid, true);
});

test('malformed DER is an error value, never a throw', () => {
  const cases: Uint8Array[] = [
    new Uint8Array(),
    Uint8Array.from([0x30]),
    Uint8Array.from([0x30, 0x82, 0xff, 0xff, 0x00]),
    Uint8Array.from([0x30, 0x80, 0x00, 0x00]),
    Uint8Array.from([0x02, 0x01, 0x01]),
    leafDer.subarray(0, leafDer.length - 20),
    Buffer.from('-----BEGIN CERTIFICATE-----'),
    Uint8Array.from(leafDer).map((b, i) => (i === 6 ? 0x13 : b)),
  ];
  for (const c of cases) {
    const r = parseCertificate(c);
    assert.equal(r.ok, false);
    if (!r.ok) assert.ok(r.error.length > 0);
  }
});

test('random corruption of a certificate never throws', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(leafDer.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), fc.nat(leafDer.length), (edits, cut) => {
      const bytes = Uint8Array.from(leafDer);
      for (const [i, v] of edits) bytes[i] = v;
      const r = parseCertificate(bytes.subarray(0, Math.max(1, cut)));
      assert.equal(typeof r.ok, 'boolean');
    }),
    { numRuns: 300 },
  );
});
