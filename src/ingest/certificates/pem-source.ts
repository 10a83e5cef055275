import type { Readable } from 'node:stream';
import type { IngestRecord, IngestSource } from '../observation.ts';
import { checkCertificate } from './certificate-check.ts';
import { lines } from './read-input.ts';
import { pemBlocks } from './pem-blocks.ts';
import { pkcs7Certificates } from './pkcs7.ts';

const CERT_LABELS = new Set(['CERTIFICATE', 'X509 CERTIFICATE', 'TRUSTED CERTIFICATE']);
const PKCS7_LABELS = new Set(['PKCS7', 'CMS']);
const SNIFF = /-----BEGIN (?:X509 |TRUSTED )?CERTIFICATE-----/;

/**
 * Certificate blocks found anywhere in `lines`: text around them (`openssl x509 -text`, comments)
 * and other block types (keys, CSRs) are skipped. Certificate blocks are counted from 1 in input
 * order, damaged ones included, and each yields one record at `block N`. A PKCS7 block inside a
 * PEM bundle is opened too (`block N certificate M`).
 */
export async function* pemRecords(input: AsyncIterable<string>, source: string): AsyncGenerator<IngestRecord> {
  let n = 0;
  for await (const block of pemBlocks(input)) {
    const isCert = CERT_LABELS.has(block.label);
    const isPkcs7 = PKCS7_LABELS.has(block.label);
    if (!isCert && !isPkcs7) continue;
    n++;
    const position = `block ${n}`;
    if (!block.ok) {
      yield { kind: 'rejected', position, reason: `${block.label} block at line ${block.line}: ${block.error}` };
      continue;
    }
    if (isCert) {
      const checked = checkCertificate(block.bytes);
      yield checked.ok
        ? { kind: 'certificate', position, certificate: { der: checked.der, source } }
        : { kind: 'rejected', position, reason: `${block.label} block at line ${block.line}: ${checked.error}` };
      continue;
    }
    yield* pkcs7Records(block.bytes, source, `${position} `);
  }
}

/** Records for the certificates of one PKCS#7 structure, at `<prefix>certificate M`. */
export function* pkcs7Records(bytes: Uint8Array, source: string, prefix = ''): Generator<IngestRecord> {
  const parsed = pkcs7Certificates(bytes);
  if (!parsed.ok) {
    yield { kind: 'rejected', position: prefix.trim() || 'byte 0', reason: parsed.error };
    return;
  }
  let m = 0;
  for (const c of parsed.certificates) {
    const position = `${prefix}certificate ${++m}`;
    const checked = c.ok ? checkCertificate(c.der) : c;
    yield checked.ok
      ? { kind: 'certificate', position, certificate: { der: checked.der, source } }
      : { kind: 'rejected', position, reason: checked.error };
  }
}

/** PEM certificates and bundles (`.pem`, `.crt`, CA bundles, `openssl x509 -text` output). */
export const pemSource: IngestSource = {
  format: 'pem',
  sniff(head: Buffer): boolean {
    return SNIFF.test(head.toString('latin1'));
  },
  read(input: Readable): AsyncIterable<IngestRecord> {
    return pemRecords(lines(input), 'pem');
  },
};
