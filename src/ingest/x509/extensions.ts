import type { ExtensionsDoc, KeyUsageDoc, NameConstraintsDoc, SignedCertificateTimestampDoc } from './certificate-document.ts';
import {
  base64Of,
  children,
  content,
  DerError,
  expect,
  hexOf,
  isContext,
  isUniversal,
  readBitString,
  readBoolean,
  readOid,
  readSmallInt,
  readString,
  readTlv,
  TAG_BOOLEAN,
  TAG_INTEGER,
  TAG_OCTET_STRING,
  TAG_OID,
  TAG_SEQUENCE,
  type Tlv,
} from './der-reader.ts';
import { parseName } from './distinguished-name.ts';
import { addGeneralName, parseGeneralNames } from './general-names.ts';
import {
  AIA_CA_ISSUERS,
  AIA_OCSP,
  EXT,
  EXTENDED_KEY_USAGES,
  KEY_USAGE_BITS,
  QUALIFIER_CPS,
  QUALIFIER_USER_NOTICE,
} from './oids.ts';

export interface RawExtension {
  readonly id: string;
  readonly critical: boolean;
  /** The extension's TLV inside the extensions SEQUENCE (for re-encoding without it). */
  readonly tlv: Tlv;
  /** The OCTET STRING holding the extension value. */
  readonly value: Tlv;
}

export interface ParsedExtensions {
  readonly extensions: ExtensionsDoc;
  readonly unknown: { id: string; critical: boolean; value: string }[];
  readonly raw: RawExtension[];
}

export function readExtensionList(buf: Uint8Array, seqTlv: Tlv): RawExtension[] {
  expect(seqTlv, TAG_SEQUENCE, 'Extensions');
  const out: RawExtension[] = [];
  for (const ext of children(buf, seqTlv)) {
    expect(ext, TAG_SEQUENCE, 'Extension');
    const parts = children(buf, ext);
    const id = readOid(buf, expect(parts[0], TAG_OID, 'extension id'));
    let i = 1;
    let critical = false;
    if (parts[i] && isUniversal(parts[i], TAG_BOOLEAN)) critical = readBoolean(buf, parts[i++]);
    const value = expect(parts[i], TAG_OCTET_STRING, 'extension value');
    out.push({ id, critical, tlv: ext, value });
  }
  return out;
}

function inner(buf: Uint8Array, value: Tlv): Tlv {
  const t = readTlv(buf, value.contentStart, value.end);
  if (t.end !== value.end) throw new DerError(`trailing data in extension at offset ${value.start}`);
  return t;
}

function keyUsage(buf: Uint8Array, t: Tlv): KeyUsageDoc {
  const { bytes } = readBitString(buf, t);
  const doc: KeyUsageDoc = { value: 0 };
  let value = 0;
  for (let bit = 0; bit < KEY_USAGE_BITS.length; bit++) {
    const byte = bytes[bit >> 3] ?? 0;
    if (byte & (0x80 >> (bit & 7))) {
      value |= 1 << bit;
      (doc as Record<string, boolean | number>)[KEY_USAGE_BITS[bit]] = true;
    }
  }
  doc.value = value;
  return doc;
}

function basicConstraints(buf: Uint8Array, t: Tlv): { is_ca: boolean; max_path_len?: number } {
  expect(t, TAG_SEQUENCE, 'BasicConstraints');
  let isCa = false;
  let maxPathLen: number | undefined;
  for (const c of children(buf, t)) {
    if (isUniversal(c, TAG_BOOLEAN)) isCa = readBoolean(buf, c);
    else if (isUniversal(c, TAG_INTEGER)) maxPathLen = readSmallInt(buf, c);
  }
  return maxPathLen === undefined ? { is_ca: isCa } : { is_ca: isCa, max_path_len: maxPathLen };
}

function extKeyUsage(buf: Uint8Array, t: Tlv): Record<string, boolean | string[]> {
  expect(t, TAG_SEQUENCE, 'ExtKeyUsageSyntax');
  const out: Record<string, boolean | string[]> = {};
  const unknown: string[] = [];
  for (const c of children(buf, t)) {
    const id = readOid(buf, expect(c, TAG_OID, 'KeyPurposeId'));
    const name = EXTENDED_KEY_USAGES[id];
    if (name) out[name] = true;
    else unknown.push(id);
  }
  if (unknown.length) out.unknown = unknown;
  return out;
}

function keyIdentifierHex(buf: Uint8Array, t: Tlv): string {
  return hexOf(content(buf, expect(t, TAG_OCTET_STRING, 'KeyIdentifier')));
}

function authorityKeyId(buf: Uint8Array, t: Tlv): string | undefined {
  expect(t, TAG_SEQUENCE, 'AuthorityKeyIdentifier');
  const keyId = children(buf, t).find((c) => isContext(c, 0));
  return keyId ? hexOf(content(buf, keyId)) : undefined;
}

function crlDistributionPoints(buf: Uint8Array, t: Tlv): string[] {
  expect(t, TAG_SEQUENCE, 'CRLDistributionPoints');
  const urls: string[] = [];
  for (const dp of children(buf, t)) {
    for (const field of children(buf, dp)) {
      if (!isContext(field, 0)) continue;
      for (const dpName of children(buf, field)) {
        if (!isContext(dpName, 0)) continue;
        const names = parseGeneralNames(buf, dpName);
        urls.push(...(names.uniform_resource_identifiers ?? []));
      }
    }
  }
  return urls;
}

function authorityInfoAccess(buf: Uint8Array, t: Tlv): { issuer_urls?: string[]; ocsp_urls?: string[] } {
  expect(t, TAG_SEQUENCE, 'AuthorityInfoAccessSyntax');
  const out: { issuer_urls?: string[]; ocsp_urls?: string[] } = {};
  for (const ad of children(buf, t)) {
    const [method, location] = children(buf, ad);
    if (!method || !location) throw new DerError(`bad AccessDescription at offset ${ad.start}`);
    const id = readOid(buf, method);
    const names: { uniform_resource_identifiers?: string[] } = {};
    addGeneralName(buf, location, names);
    const uris = names.uniform_resource_identifiers ?? [];
    if (id === AIA_OCSP) (out.ocsp_urls ??= []).push(...uris);
    else if (id === AIA_CA_ISSUERS) (out.issuer_urls ??= []).push(...uris);
  }
  return out;
}

type PolicyDoc = NonNullable<ExtensionsDoc['certificate_policies']>[number];

function certificatePolicies(buf: Uint8Array, t: Tlv): PolicyDoc[] {
  expect(t, TAG_SEQUENCE, 'CertificatePolicies');
  const out: PolicyDoc[] = [];
  for (const pi of children(buf, t)) {
    const [idTlv, qualifiers] = children(buf, pi);
    const policy: PolicyDoc = { id: readOid(buf, expect(idTlv, TAG_OID, 'policy id')) };
    if (qualifiers) {
      for (const q of children(buf, qualifiers)) {
        const [qid, qv] = children(buf, q);
        const qualifierId = readOid(buf, qid);
        if (qualifierId === QUALIFIER_CPS && qv) {
          const s = readString(buf, qv);
          if (s !== undefined) (policy.cps ??= []).push(s);
        } else if (qualifierId === QUALIFIER_USER_NOTICE && qv && isUniversal(qv, TAG_SEQUENCE)) {
          const notice: NonNullable<PolicyDoc['user_notice']>[number] = {};
          for (const part of children(buf, qv)) {
            if (isUniversal(part, TAG_SEQUENCE)) {
              const [org, numbers] = children(buf, part);
              notice.notice_reference = {};
              const o = org ? readString(buf, org) : undefined;
              if (o !== undefined) notice.notice_reference.organization = o;
              if (numbers) notice.notice_reference.notice_numbers = children(buf, numbers).map((n) => readSmallInt(buf, n));
            } else {
              const s = readString(buf, part);
              if (s !== undefined) notice.explicit_text = s;
            }
          }
          (policy.user_notice ??= []).push(notice);
        }
      }
    }
    out.push(policy);
  }
  return out;
}

function subtreeList(buf: Uint8Array, t: Tlv, nc: NameConstraintsDoc, which: 'permitted' | 'excluded'): void {
  for (const subtree of children(buf, t)) {
    const [base] = children(buf, subtree);
    if (!base) continue;
    const c = content(buf, base);
    switch (base.tag) {
      case 1:
        (nc[`${which}_email_addresses`] ??= []).push(new TextDecoder('latin1').decode(c));
        break;
      case 2:
        (nc[`${which}_names`] ??= []).push(new TextDecoder('latin1').decode(c));
        break;
      case 4: {
        const [name] = children(buf, base);
        if (name) (nc[`${which}_directory_names`] ??= []).push(parseName(buf, name).parts);
        break;
      }
      case 6:
        (nc[`${which}_uris`] ??= []).push(new TextDecoder('latin1').decode(c));
        break;
      case 7: {
        const entry = ipConstraint(c);
        if (entry) (nc[`${which}_ip_addresses`] ??= []).push(entry);
        break;
      }
      default:
        break;
    }
  }
}

function ipConstraint(c: Uint8Array): { cidr: string; begin: string; end: string; mask: string } | undefined {
  const half = c.length / 2;
  if (half !== 4 && half !== 16) return undefined;
  const addr = Array.from(c.subarray(0, half));
  const mask = Array.from(c.subarray(half));
  let bits = 0;
  for (const m of mask) for (let b = 7; b >= 0; b--) if (m & (1 << b)) bits++;
  const begin = addr.map((a, i) => a & mask[i]);
  const end = addr.map((a, i) => (a & mask[i]) | (~mask[i] & 0xff));
  const text = (bytes: number[]): string =>
    half === 4 ? bytes.join('.') : formatV6(bytes);
  return { cidr: `${text(begin)}/${bits}`, begin: text(begin), end: text(end), mask: text(mask) };
}

function formatV6(bytes: number[]): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups.join(':');
}

function nameConstraints(buf: Uint8Array, t: Tlv, critical: boolean): NameConstraintsDoc {
  expect(t, TAG_SEQUENCE, 'NameConstraints');
  const nc: NameConstraintsDoc = { critical };
  for (const c of children(buf, t)) {
    if (isContext(c, 0)) subtreeList(buf, c, nc, 'permitted');
    else if (isContext(c, 1)) subtreeList(buf, c, nc, 'excluded');
  }
  return nc;
}

const SCT_HASHES = ['NONE', 'MD5', 'SHA1', 'SHA224', 'SHA256', 'SHA384', 'SHA512'];
const SCT_SIGNATURES = ['ANONYMOUS', 'RSA', 'DSA', 'ECDSA'];

/** The TLS-encoded SignedCertificateTimestampList of RFC 6962 §3.3, wrapped in an OCTET STRING. */
function signedCertificateTimestamps(buf: Uint8Array, t: Tlv): SignedCertificateTimestampDoc[] {
  const data = content(buf, expect(t, TAG_OCTET_STRING, 'SignedCertificateTimestampList'));
  const u16 = (p: number): number => {
    if (p + 2 > data.length) throw new DerError('truncated SCT list');
    return (data[p] << 8) | data[p + 1];
  };
  const total = u16(0);
  if (total + 2 !== data.length) throw new DerError('bad SCT list length');
  const out: SignedCertificateTimestampDoc[] = [];
  let p = 2;
  while (p < data.length) {
    const len = u16(p);
    const start = p + 2;
    const end = start + len;
    if (end > data.length || len < 47) throw new DerError('truncated SCT');
    const version = data[start];
    const logId = data.subarray(start + 1, start + 33);
    let ts = 0;
    for (let i = 0; i < 8; i++) ts = ts * 256 + data[start + 33 + i];
    const extLen = (data[start + 41] << 8) | data[start + 42];
    let q = start + 43 + extLen;
    if (q + 4 > end) throw new DerError('truncated SCT signature');
    const hash = data[q];
    const sigAlg = data[q + 1];
    const sigLen = (data[q + 2] << 8) | data[q + 3];
    q += 4;
    if (q + sigLen !== end) throw new DerError('bad SCT signature length');
    const when = new Date(ts);
    out.push({
      version,
      log_id: base64Of(logId),
      timestamp: Number.isNaN(when.getTime()) ? String(ts) : when.toISOString(),
      signature: {
        hash_algorithm: SCT_HASHES[hash] ?? String(hash),
        signature_algorithm: SCT_SIGNATURES[sigAlg] ?? String(sigAlg),
        signature: base64Of(data.subarray(q, end)),
      },
    });
    p = end;
  }
  return out;
}

/**
 * Decodes the extensions Censys names. An extension that does not decode is kept in
 * `unknown` rather than failing the whole certificate: real certificates carry odd encodings.
 */
export function parseExtensions(buf: Uint8Array, list: readonly RawExtension[]): ParsedExtensions {
  const ext: ExtensionsDoc = {};
  const unknown: { id: string; critical: boolean; value: string }[] = [];
  const seen = new Set<string>();
  for (const e of list) {
    const keepUnknown = (): void => {
      unknown.push({ id: e.id, critical: e.critical, value: base64Of(content(buf, e.value)) });
    };
    if (seen.has(e.id)) {
      keepUnknown();
      continue;
    }
    seen.add(e.id);
    try {
      switch (e.id) {
        case EXT.keyUsage:
          ext.key_usage = keyUsage(buf, inner(buf, e.value));
          break;
        case EXT.basicConstraints:
          ext.basic_constraints = basicConstraints(buf, inner(buf, e.value));
          break;
        case EXT.subjectAltName:
          ext.subject_alt_name = parseGeneralNames(buf, expect(inner(buf, e.value), TAG_SEQUENCE, 'GeneralNames'));
          break;
        case EXT.issuerAltName:
          ext.issuer_alt_name = parseGeneralNames(buf, expect(inner(buf, e.value), TAG_SEQUENCE, 'GeneralNames'));
          break;
        case EXT.nameConstraints:
          ext.name_constraints = nameConstraints(buf, inner(buf, e.value), e.critical);
          break;
        case EXT.crlDistributionPoints:
          ext.crl_distribution_points = crlDistributionPoints(buf, inner(buf, e.value));
          break;
        case EXT.subjectKeyId:
          ext.subject_key_id = keyIdentifierHex(buf, inner(buf, e.value));
          break;
        case EXT.authorityKeyId: {
          const id = authorityKeyId(buf, inner(buf, e.value));
          if (id !== undefined) ext.authority_key_id = id;
          break;
        }
        case EXT.extKeyUsage:
          ext.extended_key_usage = extKeyUsage(buf, inner(buf, e.value));
          break;
        case EXT.certificatePolicies:
          ext.certificate_policies = certificatePolicies(buf, inner(buf, e.value));
          break;
        case EXT.authorityInfoAccess:
          ext.authority_info_access = authorityInfoAccess(buf, inner(buf, e.value));
          break;
        case EXT.ctPoison:
          ext.ct_poison = true;
          break;
        case EXT.sctList:
          ext.signed_certificate_timestamps = signedCertificateTimestamps(buf, inner(buf, e.value));
          break;
        default:
          keepUnknown();
      }
    } catch (err) {
      if (!(err instanceof DerError)) throw err;
      keepUnknown();
    }
  }
  return { extensions: ext, unknown, raw: [...list] };
}
