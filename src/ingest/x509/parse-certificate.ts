import { createHash, createPublicKey, verify } from 'node:crypto';
import { isIP } from 'node:net';
import type {
  CertificateDocument,
  DistinguishedNameParts,
  ParseCertificateResult,
  ParsedCertificate,
  SubjectKeyInfoDoc,
  ValidationLevel,
} from './certificate-document.ts';
import {
  base64Of,
  children,
  DerError,
  expect,
  hexOf,
  isContext,
  isUniversal,
  raw,
  readBigInt,
  readBitString,
  readOid,
  readSmallInt,
  readTime,
  readTlv,
  TAG_BIT_STRING,
  TAG_INTEGER,
  TAG_OID,
  TAG_SEQUENCE,
  unsignedBytes,
  type Tlv,
} from './der-reader.ts';
import { seq, tlv } from './der-writer.ts';
import { parseName } from './distinguished-name.ts';
import { parseExtensions, readExtensionList, type RawExtension } from './extensions.ts';
import {
  CURVES,
  EXT,
  OID_DSA,
  OID_EC,
  OID_ED25519,
  OID_ED448,
  OID_RSA,
  OID_RSA_PSS,
  OID_X25519,
  SIGNATURE_ALGORITHMS,
  SIGNATURE_DIGESTS,
  VALIDATION_POLICIES,
} from './oids.ts';

const hash = (alg: string, data: Uint8Array): string => createHash(alg).update(data).digest('hex');

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function subjectKeyInfo(buf: Uint8Array, spki: Tlv, fingerprint: string): SubjectKeyInfoDoc {
  expect(spki, TAG_SEQUENCE, 'SubjectPublicKeyInfo');
  const [algTlv, keyTlv] = children(buf, spki);
  const algParts = children(buf, expect(algTlv, TAG_SEQUENCE, 'AlgorithmIdentifier'));
  const algOid = readOid(buf, expect(algParts[0], TAG_OID, 'key algorithm'));
  const key = readBitString(buf, expect(keyTlv, TAG_BIT_STRING, 'subjectPublicKey')).bytes;
  const info: SubjectKeyInfoDoc = { key_algorithm: { name: 'unknown', oid: algOid }, fingerprint_sha256: fingerprint };
  if (algOid === OID_RSA || algOid === OID_RSA_PSS) {
    const rsaSeq = readTlv(key, 0);
    const [mod, exp] = children(key, expect(rsaSeq, TAG_SEQUENCE, 'RSAPublicKey'));
    const modulus = unsignedBytes(key, expect(mod, TAG_INTEGER, 'modulus'));
    const exponent = readSmallInt(key, expect(exp, TAG_INTEGER, 'publicExponent'));
    const bits = modulus.length * 8 - Math.clz32(modulus[0]) + 24;
    info.key_algorithm.name = 'RSA';
    info.rsa = { exponent, modulus: base64Of(modulus), length: bits };
  } else if (algOid === OID_EC) {
    const params = algParts[1];
    const curveOid = params && isUniversal(params, TAG_OID) ? readOid(buf, params) : undefined;
    const curve = curveOid ? CURVES[curveOid] : undefined;
    info.key_algorithm.name = 'ECDSA';
    const ecdsa: NonNullable<SubjectKeyInfoDoc['ecdsa']> = {
      curve: curve?.name ?? curveOid ?? 'unknown',
      length: curve?.bits ?? 0,
      pub: base64Of(key),
    };
    if (key[0] === 4 && key.length % 2 === 1) {
      const half = (key.length - 1) / 2;
      ecdsa.x = base64Of(key.subarray(1, 1 + half));
      ecdsa.y = base64Of(key.subarray(1 + half));
    }
    info.ecdsa = ecdsa;
  } else if (algOid === OID_DSA) {
    info.key_algorithm.name = 'DSA';
    const params = algParts[1];
    const [p, q, g] = params && isUniversal(params, TAG_SEQUENCE) ? children(buf, params) : [];
    const y = readTlv(key, 0);
    if (p && q && g) {
      info.dsa = {
        p: base64Of(unsignedBytes(buf, p)),
        q: base64Of(unsignedBytes(buf, q)),
        g: base64Of(unsignedBytes(buf, g)),
        y: base64Of(unsignedBytes(key, y)),
      };
    }
  } else {
    info.key_algorithm.name =
      algOid === OID_ED25519 ? 'Ed25519' : algOid === OID_ED448 ? 'Ed448' : algOid === OID_X25519 ? 'X25519' : 'unknown';
    info.unrecognized = { raw: base64Of(key) };
  }
  return info;
}

/** The TBS re-encoded without the CT poison and SCT list extensions (RFC 6962 §3.2). */
function tbsWithoutCt(buf: Uint8Array, tbs: Tlv, fields: Tlv[], exts: readonly RawExtension[]): Uint8Array {
  const ct = new Set<string>([EXT.ctPoison, EXT.sctList]);
  if (!exts.some((e) => ct.has(e.id))) return raw(buf, tbs);
  const parts: Uint8Array[] = [];
  for (const f of fields) {
    if (!isContext(f, 3)) {
      parts.push(raw(buf, f));
      continue;
    }
    const kept = exts.filter((e) => !ct.has(e.id)).map((e) => raw(buf, e.tlv));
    if (kept.length) parts.push(tlv(0xa3, seq(...kept)));
  }
  return seq(...parts);
}

function hostnameLike(s: string): boolean {
  if (isIP(s)) return true;
  return /^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)+\.?$/i.test(s) || s.toLowerCase() === 'localhost';
}

function verifiesItself(buf: Uint8Array, sigOid: string, tbs: Tlv, spki: Tlv, signature: Uint8Array): boolean | undefined {
  if (!(sigOid in SIGNATURE_DIGESTS)) return undefined;
  try {
    const key = createPublicKey({ key: Buffer.from(raw(buf, spki)), format: 'der', type: 'spki' });
    return verify(SIGNATURE_DIGESTS[sigOid], raw(buf, tbs), key, signature);
  } catch {
    return undefined;
  }
}

/**
 * DV/OV/EV from the CA/Browser Forum policy OIDs; without them, the old DV subject conventions
 * (O equal to CN, or an OU saying "Domain Control Validated", and no address). Self-signed → UNKNOWN.
 */
function validationLevel(policies: readonly { id: string }[], subject: DistinguishedNameParts, selfSigned: boolean): ValidationLevel {
  if (selfSigned) return 'UNKNOWN';
  const levels = new Set(policies.map((p) => VALIDATION_POLICIES[p.id]));
  if (levels.has('EV')) return 'EV';
  if (levels.has('OV')) return 'OV';
  if (levels.has('DV')) return 'DV';
  const cn = subject.common_name?.[0];
  const dvSubject = (cn !== undefined && subject.organization?.[0] === cn) || subject.organizational_unit?.[0]?.includes('Domain Control Validated');
  if (dvSubject && !subject.locality?.length && !subject.province?.length && !subject.postal_code?.length) return 'DV';
  return 'UNKNOWN';
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

function parse(input: Uint8Array, now: Date): CertificateDocument {
  const outer = readTlv(input, 0);
  const der = input.subarray(0, outer.end);
  expect(outer, TAG_SEQUENCE, 'Certificate');
  const [tbs, sigAlgTlv, sigTlv, extra] = children(der, outer);
  if (extra) throw new DerError('Certificate has more than three elements');
  expect(tbs, TAG_SEQUENCE, 'TBSCertificate');
  const sigAlgParts = children(der, expect(sigAlgTlv, TAG_SEQUENCE, 'signatureAlgorithm'));
  const sigOid = readOid(der, expect(sigAlgParts[0], TAG_OID, 'signature algorithm'));
  const signature = readBitString(der, expect(sigTlv, TAG_BIT_STRING, 'signatureValue')).bytes;

  const fields = children(der, tbs);
  let i = 0;
  let version = 1;
  if (fields[i] && isContext(fields[i], 0)) {
    const [v] = children(der, fields[i++]);
    version = readSmallInt(der, expect(v, TAG_INTEGER, 'version')) + 1;
  }
  const serialTlv = expect(fields[i++], TAG_INTEGER, 'serialNumber');
  expect(fields[i++], TAG_SEQUENCE, 'signature');
  const issuerTlv = fields[i++];
  const validityTlv = expect(fields[i++], TAG_SEQUENCE, 'Validity');
  const subjectTlv = fields[i++];
  const spkiTlv = fields[i++];
  if (!subjectTlv || !spkiTlv) throw new DerError('TBSCertificate is missing fields');
  let extList: RawExtension[] = [];
  for (; i < fields.length; i++) {
    if (isContext(fields[i], 3)) {
      const [extSeq] = children(der, fields[i]);
      if (extSeq) extList = readExtensionList(der, extSeq);
    }
  }

  const serial = readBigInt(der, serialTlv);
  const serialMagnitude = serial < 0n ? -serial : serial;
  const issuer = parseName(der, issuerTlv);
  const subject = parseName(der, subjectTlv);
  const [nbTlv, naTlv] = children(der, validityTlv);
  if (!nbTlv || !naTlv) throw new DerError('Validity is missing a time');
  const notBefore = readTime(der, nbTlv);
  const notAfter = readTime(der, naTlv);

  const spkiFp = hash('sha256', raw(der, spkiTlv));
  const keyInfo = subjectKeyInfo(der, spkiTlv, spkiFp);
  const { extensions, unknown } = parseExtensions(der, extList);

  const sameName = sameBytes(raw(der, issuerTlv), raw(der, subjectTlv)) || issuer.dn === subject.dn;
  let selfSigned = false;
  let signatureValid: boolean | undefined;
  if (sameName) {
    const verified = verifiesItself(der, sigOid, tbs, spkiTlv, signature);
    if (verified === undefined) {
      const aki = extensions.authority_key_id;
      selfSigned = aki === undefined || aki === extensions.subject_key_id;
    } else {
      selfSigned = verified;
      if (verified) signatureValid = true;
    }
  }

  const parsed: ParsedCertificate = {
    version,
    serial_number: serial.toString(10),
    serial_number_hex: serialMagnitude.toString(16).padStart(2, '0'),
    issuer_dn: issuer.dn,
    subject_dn: subject.dn,
    issuer: issuer.parts,
    subject: subject.parts,
    validity_period: {
      not_before: rfc3339(notBefore),
      not_after: rfc3339(notAfter),
      length_seconds: Math.round((notAfter - notBefore) / 1000),
    },
    subject_key_info: keyInfo,
    signature: {
      signature_algorithm: { name: SIGNATURE_ALGORITHMS[sigOid] ?? sigOid, oid: sigOid },
      value: hexOf(signature),
      ...(signatureValid ? { valid: true } : {}),
      self_signed: selfSigned,
    },
    extensions,
  };
  if (unknown.length) parsed.unknown_extensions = unknown;

  const names: string[] = [];
  const seen = new Set<string>();
  const addName = (n: string): void => {
    const v = n.trim().toLowerCase();
    if (v && !seen.has(v)) {
      seen.add(v);
      names.push(v);
    }
  };
  for (const cn of subject.parts.common_name ?? []) if (hostnameLike(cn.trim())) addName(cn);
  for (const n of extensions.subject_alt_name?.dns_names ?? []) addName(n);
  for (const n of extensions.subject_alt_name?.ip_addresses ?? []) addName(n);

  const level = validationLevel(extensions.certificate_policies ?? [], subject.parts, selfSigned);
  const levels = new Set((extensions.certificate_policies ?? []).map((p) => VALIDATION_POLICIES[p.id]).filter(Boolean));

  const isCa = extensions.basic_constraints?.is_ca === true;
  const precert = extensions.ct_poison === true;
  const labels: string[] = [];
  if (isCa) labels.push('ca', selfSigned ? 'root' : 'intermediate');
  else labels.push('leaf');
  if (selfSigned) labels.push('self-signed');
  if (precert) labels.push('precert');
  labels.push(now.getTime() > notAfter ? 'expired' : 'unexpired');
  if (level !== 'UNKNOWN') labels.push(level.toLowerCase());
  if (levels.has('IV')) labels.push('iv');

  const subjectRaw = raw(der, subjectTlv);
  const spkiRaw = raw(der, spkiTlv);
  return {
    fingerprint_sha256: hash('sha256', der),
    fingerprint_sha1: hash('sha1', der),
    fingerprint_md5: hash('md5', der),
    tbs_fingerprint_sha256: hash('sha256', raw(der, tbs)),
    tbs_no_ct_fingerprint_sha256: hash('sha256', tbsWithoutCt(der, tbs, fields, extList)),
    spki_fingerprint_sha256: spkiFp,
    spki_subject_fingerprint_sha256: createHash('sha256').update(spkiRaw).update(subjectRaw).digest('hex'),
    names,
    validation_level: level,
    labels,
    precert,
    parse_status: 'CERTIFICATE_PARSE_STATUS_SUCCESS',
    raw: base64Of(der),
    parsed,
  };
}

/**
 * Parses one DER certificate into the Censys certificate document. Malformed input is answered
 * with `{ ok: false, error }`; this function does not throw. `now` decides expired/unexpired.
 * added_at/modified_at are left to the caller; chain validation is not attempted.
 */
export function parseCertificate(der: Uint8Array, options: { now?: Date } = {}): ParseCertificateResult {
  if (!(der instanceof Uint8Array) || der.length === 0) return { ok: false, error: 'empty input' };
  try {
    return { ok: true, doc: parse(der, options.now ?? new Date()) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, error: err instanceof DerError ? `malformed certificate: ${message}` : `cannot parse certificate: ${message}` };
  }
}

