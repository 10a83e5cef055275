/**
 * What risk detection needs to know about a certificate, read either from the full certificate
 * document (§3.3) or, when the index does not hold it, from the `leaf_data` summary a TLS service
 * carries (which has no validity dates or trust information).
 */
import type { CertDoc, ServiceDoc } from './risk-model.ts';
import { asObj, at, boolAt, numAt, strAt } from './service-view.ts';

export interface CertFacts {
  readonly sha256?: string;
  readonly names: readonly string[];
  readonly commonName?: string;
  readonly notBefore?: number;
  readonly notAfter?: number;
  readonly selfSigned?: boolean;
  readonly isCa?: boolean;
  readonly keyAlgorithm?: string;
  readonly keyBits?: number;
  readonly signatureAlgorithm?: string;
  /** false = known untrusted, true = known trusted, undefined = no trust information. */
  readonly trusted?: boolean;
  readonly revoked?: boolean;
  /** `document` or `leaf_data`. */
  readonly source: string;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function time(v: string | undefined): number | undefined {
  if (!v) return undefined;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : undefined;
}

function trustOf(doc: CertDoc): boolean | undefined {
  const nss = asObj(at(doc, 'validation.nss'));
  if (nss && (nss.is_valid === false || nss.has_trusted_path === false)) return false;
  if (nss && (nss.is_valid === true || nss.has_trusted_path === true)) return true;
  const labels = strings(doc.labels);
  if (labels.includes('untrusted')) return false;
  if (labels.includes('trusted')) return true;
  return undefined;
}

// Every certificate detector reads the same facts; documents are not changed while detected.
const documentFacts = new WeakMap<CertDoc, CertFacts>();

export function factsFromDocument(doc: CertDoc): CertFacts {
  let facts = documentFacts.get(doc);
  if (!facts) documentFacts.set(doc, (facts = readFactsFromDocument(doc)));
  return facts;
}

function readFactsFromDocument(doc: CertDoc): CertFacts {
  const labels = strings(doc.labels);
  const rsa = numAt(doc, 'parsed.subject_key_info.rsa.length');
  const ec = numAt(doc, 'parsed.subject_key_info.ecdsa.length');
  const keyAlgorithm = strAt(doc, 'parsed.subject_key_info.key_algorithm.name');
  const keyBits = rsa ?? ec;
  const selfSigned = boolAt(doc, 'parsed.signature.self_signed') ?? (labels.includes('self-signed') ? true : undefined);
  const isCa = boolAt(doc, 'parsed.extensions.basic_constraints.is_ca') ?? (labels.includes('ca') ? true : undefined);
  const signatureAlgorithm = strAt(doc, 'parsed.signature.signature_algorithm.name');
  const notBefore = time(strAt(doc, 'parsed.validity_period.not_before'));
  const notAfter = time(strAt(doc, 'parsed.validity_period.not_after'));
  const revoked = doc.revoked === true || boolAt(doc, 'revocation.ocsp.revoked') === true || boolAt(doc, 'revocation.crl.revoked') === true;
  const trusted = trustOf(doc);
  const commonName = strings(at(doc, 'parsed.subject.common_name'))[0];
  return {
    sha256: doc.fingerprint_sha256,
    names: strings(doc.names).map((n) => n.toLowerCase()),
    ...(commonName ? { commonName } : {}),
    ...(notBefore !== undefined ? { notBefore } : {}),
    ...(notAfter !== undefined ? { notAfter } : {}),
    ...(selfSigned !== undefined ? { selfSigned } : {}),
    ...(isCa !== undefined ? { isCa } : {}),
    ...(keyAlgorithm ? { keyAlgorithm } : {}),
    ...(keyBits !== undefined ? { keyBits } : {}),
    ...(signatureAlgorithm ? { signatureAlgorithm } : {}),
    ...(trusted !== undefined ? { trusted } : {}),
    revoked,
    source: 'document',
  };
}

/** The certificate a TLS service presents: the indexed document when known, else the service's leaf summary. */
const presented = new WeakMap<ServiceDoc, { readonly lookup: unknown; readonly facts: CertFacts | undefined }>();

export function presentedFacts(service: ServiceDoc, lookup: (sha256: string) => CertDoc | undefined): CertFacts | undefined {
  const hit = presented.get(service);
  if (hit && hit.lookup === lookup) return hit.facts;
  const facts = readPresentedFacts(service, lookup);
  presented.set(service, { lookup, facts });
  return facts;
}

function readPresentedFacts(service: ServiceDoc, lookup: (sha256: string) => CertDoc | undefined): CertFacts | undefined {
  const fp = typeof service.certificate === 'string' ? service.certificate : strAt(service, 'tls.certificates.leaf_fp_sha_256');
  const doc = fp ? lookup(fp) : undefined;
  if (doc) return factsFromDocument(doc);
  const leaf = asObj(at(service, 'tls.certificates.leaf_data'));
  if (!leaf) return undefined;
  const sig = at(leaf, 'signature.signature_algorithm');
  const signatureAlgorithm = typeof sig === 'string' ? sig : strAt(sig, 'name');
  const selfSigned = boolAt(leaf, 'signature.self_signed');
  const keyAlgorithm = strAt(leaf, 'pubkey_algorithm') ?? strAt(leaf, 'public_key.key_algorithm');
  const keyBits = numAt(leaf, 'pubkey_bit_size') ?? numAt(leaf, 'public_key.rsa.length');
  const commonName = strings(at(leaf, 'subject.common_name'))[0];
  return {
    ...(fp ? { sha256: fp } : {}),
    names: strings(leaf.names).map((n) => n.toLowerCase()),
    ...(commonName ? { commonName } : {}),
    ...(selfSigned !== undefined ? { selfSigned } : {}),
    ...(keyAlgorithm ? { keyAlgorithm } : {}),
    ...(keyBits ? { keyBits } : {}),
    ...(signatureAlgorithm ? { signatureAlgorithm } : {}),
    source: 'leaf_data',
  };
}

const DAY = 86_400_000;

/** `expired`, `expiring` (within `days`), or undefined when valid for longer or the dates are unknown. */
export function expiryState(f: CertFacts, now: Date, days: number): { state: 'expired' | 'expiring'; notAfter: string; daysLeft: number } | undefined {
  if (f.notAfter === undefined) return undefined;
  const left = f.notAfter - now.getTime();
  const notAfter = new Date(f.notAfter).toISOString();
  if (left < 0) return { state: 'expired', notAfter, daysLeft: Math.floor(left / DAY) };
  if (left <= days * DAY) return { state: 'expiring', notAfter, daysLeft: Math.floor(left / DAY) };
  return undefined;
}

/** The key when it is too short: RSA or DSA under 2048 bits, EC under 224 bits. */
export function weakKey(f: CertFacts): { algorithm: string; bits: number } | undefined {
  if (f.keyBits === undefined || f.keyBits <= 0) return undefined;
  const alg = (f.keyAlgorithm ?? '').toUpperCase();
  const ec = alg.includes('EC');
  const min = ec ? 224 : 2048;
  return f.keyBits < min ? { algorithm: f.keyAlgorithm ?? 'unknown', bits: f.keyBits } : undefined;
}

const WEAK_SIGNATURE = /(md2|md4|md5|sha-?1)(?![0-9])/i;

export function weakSignature(f: CertFacts): string | undefined {
  return f.signatureAlgorithm && WEAK_SIGNATURE.test(f.signatureAlgorithm) ? f.signatureAlgorithm : undefined;
}

/** `name` is covered by a certificate name, exactly or by a one-label wildcard (`*.a.b` covers `x.a.b`, not `a.b` nor `y.x.a.b`). */
export function nameCovered(name: string, certNames: readonly string[]): boolean {
  const n = name.toLowerCase().replace(/\.$/, '');
  for (const raw of certNames) {
    const c = raw.toLowerCase().replace(/\.$/, '');
    if (c === n) return true;
    if (c.startsWith('*.')) {
      const suffix = c.slice(1);
      if (n.endsWith(suffix) && !n.slice(0, -suffix.length).includes('.') && n.length > suffix.length) return true;
    }
  }
  return false;
}
