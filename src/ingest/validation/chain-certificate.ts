/**
 * The facts chain building needs from a certificate, read once: exact TBS and SPKI bytes for
 * signature checks, names for chaining, key identifiers, CA constraints and validity.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import {
  children,
  content,
  DerError,
  expect,
  hexOf,
  isContext,
  isUniversal,
  raw,
  readBitString,
  readBoolean,
  readOid,
  readSmallInt,
  readTime,
  readTlv,
  TAG_BIT_STRING,
  TAG_BOOLEAN,
  TAG_INTEGER,
  TAG_OID,
  TAG_SEQUENCE,
} from '../x509/der-reader.ts';
import { parseName } from '../x509/distinguished-name.ts';
import { readExtensionList } from '../x509/extensions.ts';
import { EXT } from '../x509/oids.ts';

export interface ChainCertificate {
  readonly der: Uint8Array;
  readonly fingerprint: string;
  readonly tbs: Uint8Array;
  readonly signatureOid: string;
  /** Encoded AlgorithmIdentifier parameters (RSA-PSS needs them). */
  readonly signatureParams?: Uint8Array;
  readonly signature: Uint8Array;
  readonly issuerDn: string;
  readonly subjectDn: string;
  readonly spki: Uint8Array;
  readonly notBefore: number;
  readonly notAfter: number;
  /** undefined when there is no basicConstraints extension (v1 certificates, some old roots). */
  readonly isCa?: boolean;
  readonly pathLen?: number;
  /** keyUsage keyCertSign bit; undefined without a keyUsage extension. */
  readonly keyCertSign?: boolean;
  readonly subjectKeyId?: string;
  readonly authorityKeyId?: string;
  readonly selfIssued: boolean;
  /** Cached public key of this certificate (issuers are checked against many children). */
  publicKey?: KeyObject | null;
}

export function readChainCertificate(input: Uint8Array): { ok: true; cert: ChainCertificate } | { ok: false; error: string } {
  try {
    const outer = expect(readTlv(input, 0), TAG_SEQUENCE, 'Certificate');
    const der = input.subarray(0, outer.end);
    const [tbsTlv, algTlv, sigTlv] = children(der, outer);
    expect(tbsTlv, TAG_SEQUENCE, 'TBSCertificate');
    const algParts = children(der, expect(algTlv, TAG_SEQUENCE, 'signatureAlgorithm'));
    const signatureOid = readOid(der, expect(algParts[0], TAG_OID, 'signature algorithm'));
    const signature = readBitString(der, expect(sigTlv, TAG_BIT_STRING, 'signature')).bytes;
    const f = children(der, tbsTlv);
    let i = f[0] && isContext(f[0], 0) ? 1 : 0;
    expect(f[i++], TAG_INTEGER, 'serialNumber');
    i++; // signature AlgorithmIdentifier
    const issuerTlv = f[i++];
    const [nb, na] = children(der, expect(f[i++], TAG_SEQUENCE, 'Validity'));
    const subjectTlv = f[i++];
    const spkiTlv = expect(f[i++], TAG_SEQUENCE, 'SubjectPublicKeyInfo');
    const issuerDn = parseName(der, issuerTlv).dn;
    const subjectDn = parseName(der, subjectTlv).dn;
    let isCa: boolean | undefined;
    let pathLen: number | undefined;
    let keyCertSign: boolean | undefined;
    let subjectKeyId: string | undefined;
    let authorityKeyId: string | undefined;
    for (; i < f.length; i++) {
      if (!isContext(f[i], 3)) continue;
      const [list] = children(der, f[i]);
      for (const ext of list ? readExtensionList(der, list) : []) {
        const v = readTlv(der, ext.value.contentStart, ext.value.end);
        if (ext.id === EXT.basicConstraints) {
          const parts = children(der, expect(v, TAG_SEQUENCE, 'BasicConstraints'));
          let j = 0;
          isCa = parts[j] && isUniversal(parts[j], TAG_BOOLEAN) ? readBoolean(der, parts[j++]) : false;
          if (parts[j] && isUniversal(parts[j], TAG_INTEGER)) pathLen = readSmallInt(der, parts[j]);
        } else if (ext.id === EXT.keyUsage) {
          const bits = readBitString(der, expect(v, TAG_BIT_STRING, 'KeyUsage')).bytes;
          keyCertSign = bits.length > 0 && (bits[0] & 0x04) !== 0;
        } else if (ext.id === EXT.subjectKeyId) {
          subjectKeyId = hexOf(content(der, v));
        } else if (ext.id === EXT.authorityKeyId) {
          const keyId = children(der, expect(v, TAG_SEQUENCE, 'AuthorityKeyIdentifier')).find((p) => isContext(p, 0));
          if (keyId) authorityKeyId = hexOf(content(der, keyId));
        }
      }
    }
    const cert: ChainCertificate = {
      der,
      fingerprint: createHash('sha256').update(der).digest('hex'),
      tbs: raw(der, tbsTlv),
      signatureOid,
      ...(algParts[1] && !isUniversal(algParts[1], 5) ? { signatureParams: raw(der, algParts[1]) } : {}),
      signature,
      issuerDn,
      subjectDn,
      spki: raw(der, spkiTlv),
      notBefore: readTime(der, nb),
      notAfter: readTime(der, na),
      isCa,
      pathLen,
      keyCertSign,
      subjectKeyId,
      authorityKeyId,
      selfIssued: issuerDn === subjectDn,
    };
    return { ok: true, cert };
  } catch (err) {
    return { ok: false, error: err instanceof DerError ? `malformed certificate: ${err.message}` : String(err) };
  }
}

export function publicKeyOf(cert: ChainCertificate): KeyObject | null {
  if (cert.publicKey === undefined) {
    try {
      cert.publicKey = createPublicKey({ key: Buffer.from(cert.spki), format: 'der', type: 'spki' });
    } catch {
      cert.publicKey = null;
    }
  }
  return cert.publicKey;
}
