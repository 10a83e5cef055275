/**
 * Builds X.509 v3 certificates as DER with the DER writer and signs them with node:crypto
 * (RSA PKCS#1 v1.5, deterministic). Only what the demo needs: names, common extensions, CT.
 */
import { sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import * as der from '../x509/der-writer.ts';
import { AIA_CA_ISSUERS, AIA_OCSP, EXT, QUALIFIER_CPS } from '../x509/oids.ts';

const ATTRIBUTE_OIDS = {
  C: '2.5.4.6',
  ST: '2.5.4.8',
  L: '2.5.4.7',
  O: '2.5.4.10',
  OU: '2.5.4.11',
  CN: '2.5.4.3',
  serialNumber: '2.5.4.5',
  businessCategory: '2.5.4.15',
  jurisdictionC: '1.3.6.1.4.1.311.60.2.1.3',
  jurisdictionST: '1.3.6.1.4.1.311.60.2.1.2',
  emailAddress: '1.2.840.113549.1.9.1',
} as const;

export type NameAttribute = readonly [keyof typeof ATTRIBUTE_OIDS, string];

const PRINTABLE_ONLY = new Set(['C', 'serialNumber', 'jurisdictionC']);

export function encodeName(attrs: readonly NameAttribute[]): Buffer {
  return der.seq(
    ...attrs.map(([type, value]) =>
      der.set(
        der.seq(
          der.oid(ATTRIBUTE_OIDS[type]),
          type === 'emailAddress' ? der.ia5(value) : PRINTABLE_ONLY.has(type) ? der.printable(value) : der.utf8(value),
        ),
      ),
    ),
  );
}

export function extension(id: string, critical: boolean, value: Uint8Array): Buffer {
  return critical ? der.seq(der.oid(id), der.bool(true), der.octets(value)) : der.seq(der.oid(id), der.octets(value));
}

export const KU = {
  digitalSignature: 0,
  keyEncipherment: 2,
  keyCertSign: 5,
  cRLSign: 6,
} as const;

export function keyUsageExt(bits: readonly number[]): Buffer {
  return extension(EXT.keyUsage, true, der.namedBits(bits));
}

export function basicConstraintsExt(isCa: boolean, pathLen?: number): Buffer {
  const body = isCa ? (pathLen === undefined ? der.seq(der.bool(true)) : der.seq(der.bool(true), der.int(pathLen))) : der.seq();
  return extension(EXT.basicConstraints, true, body);
}

export function extKeyUsageExt(oids: readonly string[]): Buffer {
  return extension(EXT.extKeyUsage, false, der.seq(...oids.map((o) => der.oid(o))));
}

export function subjectKeyIdExt(keyId: Uint8Array): Buffer {
  return extension(EXT.subjectKeyId, false, der.octets(keyId));
}

export function authorityKeyIdExt(keyId: Uint8Array): Buffer {
  return extension(EXT.authorityKeyId, false, der.seq(der.implicitPrimitive(0, keyId)));
}

export function subjectAltNameExt(names: readonly string[]): Buffer {
  const items = names.map((n) => {
    if (isIP(n)) return der.implicitPrimitive(7, Uint8Array.from(ipaddr.parse(n).toByteArray()));
    return der.implicitPrimitive(2, Buffer.from(n, 'latin1'));
  });
  return extension(EXT.subjectAltName, false, der.seq(...items));
}

export function authorityInfoAccessExt(ocspUrl: string | undefined, issuerUrl: string | undefined): Buffer {
  const items: Buffer[] = [];
  if (ocspUrl) items.push(der.seq(der.oid(AIA_OCSP), der.implicitPrimitive(6, Buffer.from(ocspUrl, 'latin1'))));
  if (issuerUrl) items.push(der.seq(der.oid(AIA_CA_ISSUERS), der.implicitPrimitive(6, Buffer.from(issuerUrl, 'latin1'))));
  return extension(EXT.authorityInfoAccess, false, der.seq(...items));
}

export function crlDistributionPointsExt(url: string): Buffer {
  const fullName = der.implicitConstructed(0, der.implicitPrimitive(6, Buffer.from(url, 'latin1')));
  return extension(EXT.crlDistributionPoints, false, der.seq(der.seq(der.implicitConstructed(0, fullName))));
}

export function certificatePoliciesExt(policies: readonly { id: string; cps?: string }[]): Buffer {
  return extension(
    EXT.certificatePolicies,
    false,
    der.seq(
      ...policies.map((p) =>
        p.cps
          ? der.seq(der.oid(p.id), der.seq(der.seq(der.oid(QUALIFIER_CPS), der.ia5(p.cps))))
          : der.seq(der.oid(p.id)),
      ),
    ),
  );
}

export function ctPoisonExt(): Buffer {
  return extension(EXT.ctPoison, true, der.nul());
}

export interface SctSpec {
  readonly logId: Uint8Array;
  readonly timestampMs: number;
  /** An encoded signature (the demo's are well-formed but not real). */
  readonly signature: Uint8Array;
}

/** RFC 6962 SignedCertificateTimestampList (v1, SHA-256/ECDSA) wrapped as the X.509 extension. */
export function sctListExt(scts: readonly SctSpec[]): Buffer {
  const entries = scts.map((s) => {
    const body = Buffer.alloc(1 + 32 + 8 + 2 + 4 + s.signature.length);
    let p = 0;
    body[p++] = 0;
    Buffer.from(s.logId).copy(body, p);
    p += 32;
    body.writeBigUInt64BE(BigInt(s.timestampMs), p);
    p += 8;
    body.writeUInt16BE(0, p);
    p += 2;
    body[p++] = 4;
    body[p++] = 3;
    body.writeUInt16BE(s.signature.length, p);
    p += 2;
    Buffer.from(s.signature).copy(body, p);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(body.length);
    return Buffer.concat([len, body]);
  });
  const list = Buffer.concat(entries);
  const total = Buffer.alloc(2);
  total.writeUInt16BE(list.length);
  return extension(EXT.sctList, false, der.octets(Buffer.concat([total, list])));
}

export type SignatureHash = 'sha256' | 'sha384' | 'sha1';

const RSA_SIGNATURE_OIDS: Readonly<Record<SignatureHash, string>> = {
  sha1: '1.2.840.113549.1.1.5',
  sha256: '1.2.840.113549.1.1.11',
  sha384: '1.2.840.113549.1.1.12',
};

export interface CertificateSpec {
  readonly serial: Uint8Array;
  /** Encoded issuer Name. */
  readonly issuer: Buffer;
  /** Encoded subject Name. */
  readonly subject: Buffer;
  readonly notBefore: number;
  readonly notAfter: number;
  readonly spki: Buffer;
  readonly extensions: readonly Buffer[];
  readonly signer: KeyObject;
  readonly hash: SignatureHash;
}

/** DER of a signed certificate. The signer must be an RSA key. */
export function buildCertificate(spec: CertificateSpec): Buffer {
  const alg = der.seq(der.oid(RSA_SIGNATURE_OIDS[spec.hash]), der.nul());
  const tbs = der.seq(
    der.explicit(0, der.int(2)),
    der.intFromBytes(spec.serial),
    alg,
    spec.issuer,
    der.seq(der.time(spec.notBefore), der.time(spec.notAfter)),
    spec.subject,
    spec.spki,
    ...(spec.extensions.length ? [der.explicit(3, der.seq(...spec.extensions))] : []),
  );
  const signature = sign(spec.hash, tbs, spec.signer);
  return der.seq(tbs, alg, der.bitString(signature));
}
