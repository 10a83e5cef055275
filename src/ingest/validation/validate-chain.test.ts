import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { parseCertificate, pemToDer } from '../x509/index.ts';
import { createIntermediatePool, loadRootStore, validateChain, type KnownCertificates, type RootStore } from './index.ts';

let dir: string;
const der: Record<string, Uint8Array> = {};
let mozilla: RootStore;
let withTestRoot: RootStore;
const none: KnownCertificates = { bySubject: () => [] };
const fp = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const DAY = 86_400_000;

function openssl(args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'periscope-validation-'));
  writeFileSync(join(dir, 'ca.ext'), 'basicConstraints = critical, CA:TRUE\nkeyUsage = critical, keyCertSign, cRLSign\nsubjectKeyIdentifier = hash\nauthorityKeyIdentifier = keyid\n');
  writeFileSync(join(dir, 'leaf.ext'), 'basicConstraints = critical, CA:FALSE\nkeyUsage = critical, digitalSignature\nsubjectKeyIdentifier = hash\nauthorityKeyIdentifier = keyid\nsubjectAltName = DNS:www.validation.test\n');
  writeFileSync(join(dir, 'notca.ext'), 'basicConstraints = critical, CA:FALSE\nsubjectKeyIdentifier = hash\nauthorityKeyIdentifier = keyid\n');
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'root.key', '-out', 'root.pem', '-days', '3650', '-subj', '/O=Periscope Validation/CN=Validation Root', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  openssl(['ecparam', '-name', 'secp384r1', '-genkey', '-noout', '-out', 'int.key']);
  openssl(['req', '-new', '-key', 'int.key', '-subj', '/O=Periscope Validation/CN=Validation Intermediate', '-out', 'int.csr']);
  openssl(['x509', '-req', '-in', 'int.csr', '-CA', 'root.pem', '-CAkey', 'root.key', '-set_serial', '2', '-days', '1800', '-sha512', '-extfile', 'ca.ext', '-out', 'int.pem']);
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'leaf.key']);
  openssl(['req', '-new', '-key', 'leaf.key', '-subj', '/CN=www.validation.test', '-out', 'leaf.csr']);
  openssl(['x509', '-req', '-in', 'leaf.csr', '-CA', 'int.pem', '-CAkey', 'int.key', '-set_serial', '3', '-days', '30', '-sha384', '-extfile', 'leaf.ext', '-out', 'leaf.pem']);
  // RSA-PSS signature (SHA-256, salt 32) straight from the RSA root.
  openssl(['x509', '-req', '-in', 'leaf.csr', '-CA', 'root.pem', '-CAkey', 'root.key', '-set_serial', '4', '-days', '30', '-sha256', '-sigopt', 'rsa_padding_mode:pss', '-sigopt', 'rsa_pss_saltlen:32', '-extfile', 'leaf.ext', '-out', 'pss.pem']);
  // A leaf certificate used as if it were an issuer.
  openssl(['x509', '-req', '-in', 'int.csr', '-CA', 'root.pem', '-CAkey', 'root.key', '-set_serial', '5', '-days', '30', '-extfile', 'notca.ext', '-out', 'notca.pem']);
  openssl(['x509', '-req', '-in', 'leaf.csr', '-CA', 'notca.pem', '-CAkey', 'int.key', '-set_serial', '6', '-days', '30', '-extfile', 'leaf.ext', '-out', 'undernotca.pem']);
  openssl(['req', '-x509', '-key', 'leaf.key', '-out', 'self.pem', '-days', '30', '-subj', '/CN=self.validation.test']);
  for (const name of ['root', 'int', 'leaf', 'pss', 'notca', 'undernotca', 'self']) {
    const r = pemToDer(readFileSync(join(dir, `${name}.pem`), 'utf8'));
    assert.ok(r.ok && r.ders.length === 1);
    der[name] = r.ders[0];
  }
  mozilla = loadRootStore({ bundlePath: null });
  withTestRoot = loadRootStore({ bundlePath: null, extraRoots: [der.root] });
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('root → intermediate → leaf made by openssl validates when the root is a trust anchor', async () => {
  const v = await validateChain(der.leaf, [der.int], none, withTestRoot);
  assert.equal(v.reason, undefined);
  assert.equal(v.is_valid, true);
  assert.equal(v.has_trusted_path, true);
  assert.equal(v.ever_valid, true);
  assert.equal(v.type, 'LEAF');
  assert.deepEqual(v.parents, [fp(der.int)]);
  assert.deepEqual(v.chains, [{ sha256fp: [fp(der.int), fp(der.root)] }]);
  const doc = parseCertificate(der.leaf);
  assert.ok(doc.ok);
  assert.deepEqual(await validateChain(doc.doc, [der.int], none, withTestRoot), v, 'a certificate document validates like its DER');
});

test('the intermediate can come from known certificates instead of the presented chain', async () => {
  const asked: string[] = [];
  const known: KnownCertificates = {
    bySubject: async (dn) => {
      asked.push(dn);
      return dn === 'O=Periscope Validation, CN=Validation Intermediate' ? [der.int] : [];
    },
  };
  const v = await validateChain(der.leaf, [], known, withTestRoot);
  assert.equal(v.is_valid, true);
  assert.ok(asked.includes('O=Periscope Validation, CN=Validation Intermediate'));
  const inter = await validateChain(der.int, [], none, withTestRoot);
  assert.equal(inter.is_valid, true);
  assert.equal(inter.type, 'INTERMEDIATE');
  assert.deepEqual(inter.chains, [{ sha256fp: [fp(der.root)] }]);
});

test('the same leaf is unknown issuer against the Mozilla roots alone', async () => {
  const v = await validateChain(der.leaf, [der.int], none, mozilla);
  assert.equal(v.is_valid, false);
  assert.equal(v.has_trusted_path, false);
  assert.match(v.reason ?? '', /^unknown issuer/);
  assert.deepEqual(v.parents, [fp(der.int)], 'the presented intermediate is still its parent');
  const bare = await validateChain(der.leaf, [], none, mozilla);
  assert.equal(bare.reason, 'unknown issuer');
  assert.deepEqual(bare.parents, []);
});

test('an expired leaf keeps its trusted path but is not valid', async () => {
  const later = new Date(Date.now() + 60 * DAY);
  const v = await validateChain(der.leaf, [der.int], none, withTestRoot, { at: later });
  assert.equal(v.is_valid, false);
  assert.equal(v.has_trusted_path, true);
  assert.equal(v.ever_valid, true);
  assert.equal(v.reason, 'expired');
  const early = await validateChain(der.leaf, [der.int], none, withTestRoot, { at: new Date(Date.now() - 2 * DAY) });
  assert.equal(early.reason, 'not yet valid');
  const rootGone = await validateChain(der.int, [], none, withTestRoot, { at: new Date(Date.now() + 1900 * DAY) });
  assert.equal(rootGone.reason, 'expired');
});

test('a flipped byte in the signature is a bad signature', async () => {
  const broken = new Uint8Array(der.leaf);
  broken[broken.length - 3] ^= 0x01;
  const v = await validateChain(broken, [der.int], none, withTestRoot);
  assert.equal(v.is_valid, false);
  assert.equal(v.has_trusted_path, false);
  assert.equal(v.reason, 'bad signature');
  const brokenInt = new Uint8Array(der.int);
  brokenInt[brokenInt.length - 3] ^= 0x01;
  const viaBadInt = await validateChain(der.leaf, [brokenInt], none, withTestRoot);
  assert.equal(viaBadInt.is_valid, false);
  assert.equal(viaBadInt.reason, 'bad signature');
});

test('RSA-PSS signatures verify', async () => {
  const v = await validateChain(der.pss, [], none, withTestRoot);
  assert.equal(v.reason, undefined);
  assert.deepEqual(v.chains, [{ sha256fp: [fp(der.root)] }]);
});

test('an issuer that is not a CA does not make a path', async () => {
  const v = await validateChain(der.undernotca, [der.notca], none, withTestRoot);
  assert.equal(v.is_valid, false);
  assert.equal(v.reason, 'issuer is not a CA');
});

test('self-signed certificates that are not anchors', async () => {
  const v = await validateChain(der.self, [], none, mozilla);
  assert.equal(v.is_valid, false);
  assert.equal(v.reason, 'self-signed, not a trusted root');
  const root = await validateChain(der.root, [], none, mozilla);
  assert.equal(root.type, 'ROOT');
  assert.equal(root.reason, 'self-signed, not a trusted root');
  const anchored = await validateChain(der.root, [], none, withTestRoot);
  assert.equal(anchored.is_valid, true);
  assert.equal(anchored.type, 'ROOT');
});

test('a real public CA root from Node’s bundled Mozilla store validates as ROOT', async () => {
  assert.ok(mozilla.size > 100);
  assert.match(mozilla.sources[0].version, new RegExp(process.version.replace(/\./g, '\\.')));
  const isrg = rootCertificates.find((p) => {
    const r = pemToDer(p);
    return r.ok && Buffer.from(r.ders[0]).includes(Buffer.from('ISRG Root X1'));
  });
  assert.ok(isrg, 'ISRG Root X1 is in the bundle');
  const r = pemToDer(isrg);
  assert.ok(r.ok);
  const v = await validateChain(r.ders[0], [], none, mozilla, { at: new Date('2026-01-01T00:00:00Z') });
  assert.equal(v.is_valid, true);
  assert.equal(v.has_trusted_path, true);
  assert.equal(v.type, 'ROOT');
  assert.deepEqual(v.chains, []);
});

test('malformed input is a reason, not an exception', async () => {
  const v = await validateChain(new Uint8Array([0x30, 0x03, 1, 2, 3]), [], none, mozilla);
  assert.equal(v.is_valid, false);
  assert.match(v.reason ?? '', /malformed/);
});

test('the Debian bundle, when present, is an optional second source', () => {
  const debianPath = '/etc/ssl/certs/ca-certificates.crt';
  let exists = true;
  try {
    readFileSync(debianPath);
  } catch {
    exists = false;
  }
  const both = loadRootStore();
  assert.equal(both.sources.length, exists ? 2 : 1);
  if (exists) assert.equal(both.sources[1].name, debianPath);
  const onlyExtra = loadRootStore({ node: false, bundlePath: null, extraRoots: [der.root, der.root] });
  assert.equal(onlyExtra.size, 1);
});

test('an intermediate pool keeps CA certificates only and serves them by subject', async () => {
  const pool = createIntermediatePool();
  assert.equal(pool.add(der.leaf), false);
  assert.equal(pool.add(der.int), true);
  assert.equal(pool.add(der.int), false);
  assert.equal(pool.size, 1);
  const v = await validateChain(der.leaf, [], pool, withTestRoot);
  assert.equal(v.is_valid, true);
  assert.deepEqual(v.parents, [fp(der.int)]);
});
