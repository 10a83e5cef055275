/**
 * Encoders for RFC 6962 log entries: what a log serves from get-entries. Periscope does not run a
 * log; these build entries for the local log server of the tests and for fixtures, from real
 * certificates, so the decoder is tested against independent bytes.
 */
import { createHash } from 'node:crypto';
import { children, expect, isContext, raw, readOid, readTlv, TAG_OID, TAG_SEQUENCE } from '../x509/der-reader.ts';
import { seq, tlv } from '../x509/der-writer.ts';

const POISON = '1.3.6.1.4.1.11129.2.4.3';

function u(n: number, bytes: number): Buffer {
  const b = Buffer.alloc(bytes);
  for (let i = bytes - 1, v = n; i >= 0; i--, v = Math.floor(v / 256)) b[i] = v & 0xff;
  return b;
}
const vec = (data: Uint8Array, lenBytes: number): Buffer => Buffer.concat([u(data.length, lenBytes), data]);

/** extra_data of an x509_entry: certificate_chain. */
export function encodeCertificateChain(chain: readonly Uint8Array[]): Buffer {
  return vec(Buffer.concat(chain.map((c) => vec(c, 3))), 3);
}

/** extra_data of a precert_entry: PrecertChainEntry. */
export function encodePrecertChainEntry(preCertificate: Uint8Array, chain: readonly Uint8Array[]): Buffer {
  return Buffer.concat([vec(preCertificate, 3), encodeCertificateChain(chain)]);
}

function leafHeader(timestamp: number, entryType: number): Buffer {
  return Buffer.concat([Buffer.from([0, 0]), u(timestamp, 8), u(entryType, 2)]);
}

export function encodeX509Leaf(timestamp: number, certificate: Uint8Array): Buffer {
  return Buffer.concat([leafHeader(timestamp, 0), vec(certificate, 3), u(0, 2)]);
}

export function encodePrecertLeaf(timestamp: number, issuerSpki: Uint8Array, tbsCertificate: Uint8Array): Buffer {
  const issuerKeyHash = createHash('sha256').update(issuerSpki).digest();
  return Buffer.concat([leafHeader(timestamp, 1), issuerKeyHash, vec(tbsCertificate, 3), u(0, 2)]);
}

/** The TBSCertificate of a precertificate with its poison extension removed (what the log signs). */
export function precertTbs(preCertificate: Uint8Array): Buffer {
  const cert = readTlv(preCertificate, 0);
  const [tbs] = children(preCertificate, cert);
  const parts: Uint8Array[] = [];
  for (const f of children(preCertificate, expect(tbs, TAG_SEQUENCE, 'TBSCertificate'))) {
    if (!isContext(f, 3)) {
      parts.push(raw(preCertificate, f));
      continue;
    }
    const [list] = children(preCertificate, f);
    const kept = children(preCertificate, list).filter((ext) => {
      const [id] = children(preCertificate, ext);
      return readOid(preCertificate, expect(id, TAG_OID, 'extnID')) !== POISON;
    });
    if (kept.length) parts.push(tlv(0xa3, seq(...kept.map((e) => raw(preCertificate, e)))));
  }
  return seq(...parts);
}

/** The SubjectPublicKeyInfo of a certificate (for issuer_key_hash). */
export function spkiOf(certificate: Uint8Array): Uint8Array {
  const [tbs] = children(certificate, readTlv(certificate, 0));
  const fields = children(certificate, tbs);
  const offset = isContext(fields[0], 0) ? 1 : 0;
  return raw(certificate, fields[offset + 5]);
}

/** One get-entries element for a certificate with its issuer chain. */
export function x509Entry(timestamp: number, certificate: Uint8Array, chain: readonly Uint8Array[]): { leaf_input: string; extra_data: string } {
  return { leaf_input: encodeX509Leaf(timestamp, certificate).toString('base64'), extra_data: encodeCertificateChain(chain).toString('base64') };
}

/** One get-entries element for a precertificate; `chain[0]` is its issuer. */
export function precertEntry(timestamp: number, preCertificate: Uint8Array, chain: readonly Uint8Array[]): { leaf_input: string; extra_data: string } {
  return {
    leaf_input: encodePrecertLeaf(timestamp, spkiOf(chain[0]), precertTbs(preCertificate)).toString('base64'),
    extra_data: encodePrecertChainEntry(preCertificate, chain).toString('base64'),
  };
}
