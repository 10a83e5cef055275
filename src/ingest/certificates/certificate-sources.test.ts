import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { IngestRecord, IngestSource } from '../observation.ts';
import { parseCertificate, pemToDer } from '../x509/index.ts';
import { ctEntriesSource, derSource, issuanceKey, pemSource, pkcs7Source } from './index.ts';

const fixture = (name: string): Buffer => readFileSync(new URL(`../../../test/fixtures/certificates/${name}`, import.meta.url));
const ctFixture = (name: string): Buffer => readFileSync(new URL(`../../../test/fixtures/ct/${name}`, import.meta.url));
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const now = new Date('2026-01-01T00:00:00Z');

/** Feeds `data` in small chunks so readers must handle records split across chunks. */
async function readAll(source: IngestSource, data: Buffer, chunk = 97): Promise<IngestRecord[]> {
  const parts: Buffer[] = [];
  for (let i = 0; i < data.length; i += chunk) parts.push(data.subarray(i, i + chunk));
  const out: IngestRecord[] = [];
  for await (const r of source.read(Readable.from(parts), { now })) out.push(r);
  return out;
}

function fp(name: string): string {
  const r = pemToDer(fixture(name).toString('utf8'));
  assert.ok(r.ok && r.ders.length === 1);
  return sha256(r.ders[0]);
}

function certs(records: IngestRecord[]): { position: string; fp: string }[] {
  return records.flatMap((r) => (r.kind === 'certificate' ? [{ position: r.position, fp: sha256(r.certificate.der) }] : []));
}

test('PEM with openssl -text output around a leaf and its chain: one record per block, in order', async () => {
  const records = await readAll(pemSource, fixture('chain-with-text.pem'));
  assert.deepEqual(certs(records), [
    { position: 'block 1', fp: fp('leaf.pem') },
    { position: 'block 2', fp: fp('intermediate.pem') },
    { position: 'block 3', fp: fp('root.pem') },
  ]);
  assert.equal(records.length, 3);
  for (const r of records) if (r.kind === 'certificate') assert.equal(r.certificate.source, 'pem');
});

test('PEM: a damaged block is rejected with its position and the others still come through', async () => {
  const records = await readAll(pemSource, fixture('damaged-bundle.pem'));
  assert.equal(records.length, 3);
  assert.deepEqual(certs(records), [
    { position: 'block 1', fp: fp('leaf.pem') },
    { position: 'block 3', fp: fp('root.pem') },
  ]);
  const bad = records[1];
  assert.equal(bad.kind, 'rejected');
  assert.equal(bad.position, 'block 2');
  assert.match(bad.kind === 'rejected' ? bad.reason : '', /line 14: malformed certificate/);
});

test('PEM: missing END line and bad base64 are rejected, later blocks continue', async () => {
  const leaf = fixture('leaf.pem').toString();
  const text = `-----BEGIN CERTIFICATE-----\nAAAA\n${leaf}-----BEGIN CERTIFICATE-----\n@@@@\n-----END CERTIFICATE-----\n${leaf}-----BEGIN CERTIFICATE-----\nMIIB`;
  const records = await readAll(pemSource, Buffer.from(text), 5);
  assert.deepEqual(
    records.map((r) => [r.kind, r.position]),
    [
      ['rejected', 'block 1'],
      ['certificate', 'block 2'],
      ['rejected', 'block 3'],
      ['certificate', 'block 4'],
      ['rejected', 'block 5'],
    ],
  );
  const reasons = records.flatMap((r) => (r.kind === 'rejected' ? [r.reason] : []));
  assert.match(reasons[0], /no END line before line 3/);
  assert.match(reasons[1], /not valid base64/);
  assert.match(reasons[2], /no END line before the end of the input/);
});

test('PEM: TRUSTED CERTIFICATE blocks yield the certificate without the OpenSSL trust data', async () => {
  const records = await readAll(pemSource, fixture('trusted-root.pem'));
  assert.deepEqual(certs(records), [{ position: 'block 1', fp: fp('root.pem') }]);
});

test('PEM: keys and other blocks are skipped, CRLF lines are accepted', async () => {
  const text = `-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n${fixture('leaf.pem').toString()}`.replace(/\n/g, '\r\n');
  const records = await readAll(pemSource, Buffer.from(text));
  assert.deepEqual(certs(records), [{ position: 'block 1', fp: fp('leaf.pem') }]);
});

test('DER: one binary certificate; concatenated ones by byte offset; garbage rejected', async () => {
  const der = fixture('leaf.der');
  assert.deepEqual(certs(await readAll(derSource, der)), [{ position: 'byte 0', fp: fp('leaf.pem') }]);
  const two = Buffer.concat([der, der]);
  assert.deepEqual(
    certs(await readAll(derSource, two)).map((c) => c.position),
    ['byte 0', `byte ${der.length}`],
  );
  const bad = await readAll(derSource, Buffer.concat([der, Buffer.from([0x30, 0x03, 0x02, 0x01, 0x05])]));
  assert.equal(bad.length, 2);
  assert.equal(bad[1].kind, 'rejected');
  assert.equal(bad[1].position, `byte ${der.length}`);
});

test('sniffing tells the certificate formats apart', () => {
  const der = fixture('leaf.der');
  const p7b = fixture('chain.p7b');
  const p7c = fixture('chain-pem.p7c');
  const pem = fixture('chain-with-text.pem');
  const ct = ctFixture('get-entries.json');
  const ctBare = ctFixture('get-entries-bare.json');
  const claims = (b: Buffer): string[] => [pemSource, derSource, pkcs7Source, ctEntriesSource].filter((s) => s.sniff(b)).map((s) => s.format);
  assert.deepEqual(claims(der), ['der']);
  assert.deepEqual(claims(der.subarray(0, 40)), ['der'], 'a head cut inside the certificate');
  assert.deepEqual(claims(p7b), ['pkcs7']);
  assert.deepEqual(claims(p7c), ['pkcs7']);
  assert.deepEqual(claims(pem), ['pem']);
  assert.deepEqual(claims(ct), ['ct-entries']);
  assert.deepEqual(claims(ctBare), ['ct-entries']);
  assert.deepEqual(claims(Buffer.from('{"ip":"192.0.2.1","data":{}}\n')), []);
});

test('PKCS#7 in DER (.p7b) and PEM (.p7c): every certificate of the SignedData', async () => {
  const fromDer = certs(await readAll(pkcs7Source, fixture('chain.p7b')));
  assert.deepEqual(fromDer, [
    { position: 'certificate 1', fp: fp('leaf.pem') },
    { position: 'certificate 2', fp: fp('intermediate.pem') },
    { position: 'certificate 3', fp: fp('root.pem') },
  ]);
  const fromPem = certs(await readAll(pkcs7Source, fixture('chain-pem.p7c')));
  assert.deepEqual(fromPem, [
    { position: 'block 1 certificate 1', fp: fp('leaf.pem') },
    { position: 'block 1 certificate 2', fp: fp('intermediate.pem') },
  ]);
  const truncated = await readAll(pkcs7Source, fixture('chain.p7b').subarray(0, 300));
  assert.equal(truncated.length, 1);
  assert.equal(truncated[0].kind, 'rejected');
});

test('CT get-entries: x509 and precert entries with chains, log and indexes from the wrapper', async () => {
  const records = await readAll(ctEntriesSource, ctFixture('get-entries.json'), 61);
  assert.equal(records.length, 4);
  const [pre, leaf, broken, inter] = records;
  assert.ok(pre.kind === 'certificate' && leaf.kind === 'certificate' && inter.kind === 'certificate');
  assert.equal(pre.position, 'entry 0');
  assert.equal(sha256(pre.certificate.der), fp('precert.pem'));
  assert.deepEqual(pre.certificate.ct, { log: 'https://ct.fixture.test/log/', index: 100, timestamp: '2023-11-14T22:13:20.123Z' });
  assert.deepEqual(pre.certificate.chain?.map(sha256), [fp('intermediate.pem'), fp('root.pem')]);
  assert.equal(sha256(leaf.certificate.der), fp('leaf.pem'));
  assert.deepEqual(leaf.certificate.ct, { log: 'https://ct.fixture.test/log/', index: 101, timestamp: '2023-11-14T22:13:21.456Z' });
  assert.equal(broken.kind, 'rejected');
  assert.equal(broken.position, 'entry 2');
  assert.match(broken.kind === 'rejected' ? broken.reason : '', /truncated/);
  assert.equal(inter.certificate.ct?.index, 103);
  assert.deepEqual(inter.certificate.chain?.map(sha256), [fp('root.pem')]);

  // The precertificate carries the poison extension; it and the final certificate are one issuance.
  const preDoc = parseCertificate(pre.certificate.der, { now });
  const leafDoc = parseCertificate(leaf.certificate.der, { now });
  assert.ok(preDoc.ok && leafDoc.ok);
  assert.equal(preDoc.doc.precert, true);
  assert.equal(leafDoc.doc.precert, false);
  assert.equal(issuanceKey(preDoc.doc), issuanceKey(leafDoc.doc));
  assert.notEqual(preDoc.doc.fingerprint_sha256, leafDoc.doc.fingerprint_sha256);
});

test('CT get-entries without a wrapper: log unknown, indexes from 0', async () => {
  const records = await readAll(ctEntriesSource, ctFixture('get-entries-bare.json'), 1000);
  assert.deepEqual(
    records.map((r) => (r.kind === 'certificate' ? r.certificate.ct : r)),
    [
      { log: 'unknown', index: 0, timestamp: '2023-11-14T22:13:20.123Z' },
      { log: 'unknown', index: 1, timestamp: '2023-11-14T22:13:21.456Z' },
    ],
  );
});

test('CT get-entries: bad entries and a truncated document are rejected with positions', async () => {
  const good = JSON.parse(ctFixture('get-entries-bare.json').toString()).entries[1];
  const text = JSON.stringify({ entries: [{ leaf_input: 'AAEC', extra_data: '' }, 'x', { leaf_input: '%%%', extra_data: '' }, good] });
  const records = await readAll(ctEntriesSource, Buffer.from(text), 7);
  assert.deepEqual(
    records.map((r) => [r.kind, r.position]),
    [
      ['rejected', 'entry 0'],
      ['rejected', 'entry 1'],
      ['rejected', 'entry 2'],
      ['certificate', 'entry 3'],
    ],
  );
  const cut = await readAll(ctEntriesSource, Buffer.from(text.slice(0, text.length - 40)), 7);
  assert.deepEqual(
    cut.map((r) => [r.kind, r.position]),
    [
      ['rejected', 'entry 0'],
      ['rejected', 'entry 1'],
      ['rejected', 'entry 2'],
      ['rejected', 'end of input'],
    ],
  );
});
