/**
 * Path building for `validation.nss`: from a certificate up to a trust anchor, through the chain
 * presented with it and the intermediates already known, checking at each step that names chain
 * (issuer DN = subject DN; AKI = SKI when both are present), the issuer's key verifies the
 * signature, and the issuer may issue (a CA, with room in its path length). Validity periods are
 * checked separately so a path can be trusted but expired, which is how `has_trusted_path`
 * differs from `is_valid`.
 */
import { readChainCertificate, type ChainCertificate } from './chain-certificate.ts';
import type { RootStore } from './root-store.ts';
import { verifySignature } from './verify-signature.ts';

/** Intermediates known from earlier input (the store's CA certificates), looked up by subject DN (Censys `parsed.subject_dn` form). */
export interface KnownCertificates {
  bySubject(subjectDn: string): Promise<readonly Uint8Array[]> | readonly Uint8Array[];
}

export type CertificateRole = 'LEAF' | 'INTERMEDIATE' | 'ROOT';

/** Shaped for the certificate document's `validation.nss`. */
export interface ChainValidation {
  readonly is_valid: boolean;
  readonly has_trusted_path: boolean;
  /** A trusted path whose certificates were all valid at one moment (possibly in the past). */
  readonly ever_valid: boolean;
  /** SHA-256 fingerprints of the issuers found for this certificate (first link of each path). */
  readonly parents: string[];
  /** Each trusted path, issuer first, ending at the root; the certificate itself is not listed. */
  readonly chains: { sha256fp: string[] }[];
  readonly type: CertificateRole;
  /** Why the certificate is not valid (absent when it is). */
  readonly reason?: string;
}

export interface ValidateOptions {
  /** When validity is judged. Default now. */
  readonly at?: Date;
  /** Longest path in certificates above the subject. Default 8. */
  readonly maxDepth?: number;
  /** Most paths reported. Default 4. */
  readonly maxChains?: number;
}

interface Path {
  readonly certs: ChainCertificate[]; // issuers, nearest first, ending at an anchor
}

/**
 * Validates `certificate` (DER, or a certificate document whose `raw` is its base64 DER) against
 * `roots`, building paths through `presentedChain` (DER, any order) and `known` intermediates.
 */
export async function validateChain(
  certificate: Uint8Array | { readonly raw: string },
  presentedChain: readonly Uint8Array[],
  known: KnownCertificates,
  roots: RootStore,
  options: ValidateOptions = {},
): Promise<ChainValidation> {
  const at = (options.at ?? new Date()).getTime();
  const maxDepth = options.maxDepth ?? 8;
  const maxChains = options.maxChains ?? 4;
  const parsed = readChainCertificate(certificate instanceof Uint8Array ? certificate : new Uint8Array(Buffer.from(certificate.raw, 'base64')));
  if (!parsed.ok) return { is_valid: false, has_trusted_path: false, ever_valid: false, parents: [], chains: [], type: 'LEAF', reason: parsed.error };
  const subject = parsed.cert;
  const selfSigned = subject.selfIssued && verifySignature(subject, subject) === 'ok';
  const type: CertificateRole = roots.isRoot(subject) || (selfSigned && subject.isCa !== false) ? 'ROOT' : subject.isCa ? 'INTERMEDIATE' : 'LEAF';

  if (roots.isRoot(subject)) {
    const inTime = subject.notBefore <= at && at <= subject.notAfter;
    return { is_valid: inTime, has_trusted_path: true, ever_valid: true, parents: [], chains: [], type, ...(inTime ? {} : { reason: timeReason(subject, at, 'root') }) };
  }

  const presented: ChainCertificate[] = [];
  for (const der of presentedChain) {
    const r = readChainCertificate(der);
    if (r.ok) presented.push(r.cert);
  }
  const knownCache = new Map<string, ChainCertificate[]>();
  const candidatesFor = async (dn: string): Promise<ChainCertificate[]> => {
    let fromKnown = knownCache.get(dn);
    if (!fromKnown) {
      fromKnown = [];
      for (const der of await known.bySubject(dn)) {
        const r = readChainCertificate(der);
        if (r.ok) fromKnown.push(r.cert);
      }
      knownCache.set(dn, fromKnown);
    }
    const seen = new Set<string>();
    const out: ChainCertificate[] = [];
    for (const c of [...roots.bySubject(dn), ...presented.filter((p) => p.subjectDn === dn), ...fromKnown]) {
      if (!seen.has(c.fingerprint)) {
        seen.add(c.fingerprint);
        out.push(c);
      }
    }
    return out;
  };

  // What went wrong on the best attempt, for the reason when no path is found.
  const problems = new Set<string>();
  const paths: Path[] = [];
  const parents = new Set<string>();

  const extend = async (child: ChainCertificate, above: ChainCertificate[], visited: Set<string>): Promise<void> => {
    if (paths.length >= maxChains) return;
    if (above.length >= maxDepth) {
      problems.add('path too long');
      return;
    }
    const candidates = await candidatesFor(child.issuerDn);
    if (candidates.length === 0) problems.add(child === subject ? 'unknown issuer' : `unknown issuer (of intermediate ${child.subjectDn})`);
    for (const issuer of candidates) {
      if (visited.has(issuer.fingerprint) || issuer.fingerprint === child.fingerprint) continue;
      if (child.authorityKeyId && issuer.subjectKeyId && child.authorityKeyId !== issuer.subjectKeyId) continue;
      const sig = verifySignature(child, issuer);
      if (sig !== 'ok') {
        problems.add(sig === 'bad' ? 'bad signature' : `unsupported signature algorithm ${child.signatureOid}`);
        continue;
      }
      const anchor = roots.isRoot(issuer);
      // Anchors are trusted as configured; intermediates must say they are CAs with room in their path length.
      if (!anchor) {
        if (issuer.isCa !== true) {
          problems.add('issuer is not a CA');
          continue;
        }
        if (issuer.keyCertSign === false) {
          problems.add('issuer may not sign certificates (key usage)');
          continue;
        }
      }
      const intermediatesBelow = above.filter((c) => !c.selfIssued).length;
      if (issuer.pathLen !== undefined && intermediatesBelow > issuer.pathLen) {
        problems.add('path length constraint exceeded');
        continue;
      }
      if (child === subject) parents.add(issuer.fingerprint);
      const next = [...above, issuer];
      if (anchor) {
        paths.push({ certs: next });
        if (paths.length >= maxChains) return;
        continue;
      }
      await extend(issuer, next, new Set([...visited, issuer.fingerprint]));
    }
  };

  await extend(subject, [], new Set([subject.fingerprint]));

  if (paths.length === 0) {
    let reason: string;
    if (selfSigned) reason = 'self-signed, not a trusted root';
    else if (problems.has('bad signature') && !parents.size) reason = 'bad signature';
    else reason = [...problems][0] ?? 'unknown issuer';
    return { is_valid: false, has_trusted_path: false, ever_valid: false, parents: [...parents], chains: [], type, reason };
  }

  const window = (p: Path): [number, number] =>
    [subject, ...p.certs].reduce<[number, number]>((w, c) => [Math.max(w[0], c.notBefore), Math.min(w[1], c.notAfter)], [-Infinity, Infinity]);
  const validNow = paths.filter((p) => {
    const [from, to] = window(p);
    return from <= at && at <= to;
  });
  const everValid = paths.some((p) => {
    const [from, to] = window(p);
    return from <= to;
  });
  const chains = paths.map((p) => ({ sha256fp: p.certs.map((c) => c.fingerprint) }));
  const base = { has_trusted_path: true, ever_valid: everValid, parents: [...parents], chains, type };
  if (validNow.length) return { is_valid: true, ...base };
  return { is_valid: false, ...base, reason: timeReason(subject, at, 'certificate') ?? pathTimeReason(paths[0], at) };
}

function timeReason(c: ChainCertificate, at: number, what: string): string | undefined {
  if (at > c.notAfter) return what === 'certificate' ? 'expired' : `${what} expired`;
  if (at < c.notBefore) return what === 'certificate' ? 'not yet valid' : `${what} not yet valid`;
  return undefined;
}

function pathTimeReason(p: Path, at: number): string {
  for (const c of p.certs) {
    const r = timeReason(c, at, 'issuer');
    if (r) return r;
  }
  return 'no path valid at one time';
}
