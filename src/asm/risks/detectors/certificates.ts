/**
 * Certificate problems: on the certificate a TLS service presents (subject: the host) and on a
 * certificate asset itself (subject: the certificate).
 */
import { expiryState, factsFromDocument, nameCovered, presentedFacts, weakKey, weakSignature, type CertFacts } from '../cert-facts.ts';
import { configNumber, riskTypeById } from '../risk-types.ts';
import type { DetectContext, Finding, HostDoc, ServiceDoc } from '../risk-model.ts';
import { asObj, at } from '../service-view.ts';
import { finding, type CertDetector, type ServiceDetector } from './detector.ts';

/** A workspace's config of the type when it has one, else the catalogue's. */
function soonDays(type: string, ctx: DetectContext): number {
  return configNumber(ctx.config?.(type) ?? riskTypeById(type)?.config ?? '', 'days', 30);
}

function certEvidence(f: CertFacts): Record<string, unknown> {
  return { ...(f.sha256 ? { sha256: f.sha256 } : {}), ...(f.commonName ? { commonName: f.commonName } : {}), source: f.source };
}

function presented(s: ServiceDoc, ctx: DetectContext): CertFacts | undefined {
  return presentedFacts(s, ctx.certificates);
}

export const presentedCertificateExpiry: ServiceDetector = {
  id: 'presented-certificate-expiry',
  family: 'certificates',
  on: 'service',
  types: ['tls.certificate.expired', 'tls.certificate.expiring_soon'],
  detect(s, _host, ctx) {
    const f = presented(s, ctx);
    const e = f && expiryState(f, ctx.now, soonDays('tls.certificate.expiring_soon', ctx));
    if (!f || !e) return [];
    const type = e.state === 'expired' ? 'tls.certificate.expired' : 'tls.certificate.expiring_soon';
    return [finding(type, { ...certEvidence(f), notAfter: e.notAfter, daysLeft: e.daysLeft })];
  },
};

export const presentedSelfSigned: ServiceDetector = {
  id: 'presented-self-signed',
  family: 'certificates',
  on: 'service',
  types: ['tls.certificate.self_signed'],
  detect(s, _host, ctx) {
    const f = presented(s, ctx);
    return f?.selfSigned ? [finding('tls.certificate.self_signed', certEvidence(f))] : [];
  },
};

export const presentedUntrusted: ServiceDetector = {
  id: 'presented-untrusted',
  family: 'certificates',
  on: 'service',
  types: ['tls.certificate.untrusted_chain'],
  detect(s, _host, ctx) {
    const f = presented(s, ctx);
    // A self-signed certificate is reported as such; calling it untrusted too would double-count it.
    return f && f.trusted === false && !f.selfSigned ? [finding('tls.certificate.untrusted_chain', certEvidence(f))] : [];
  },
};

export const presentedWeakKey: ServiceDetector = {
  id: 'presented-weak-key',
  family: 'certificates',
  on: 'service',
  types: ['tls.certificate.weak_key'],
  detect(s, _host, ctx) {
    const f = presented(s, ctx);
    const w = f && weakKey(f);
    return f && w ? [finding('tls.certificate.weak_key', { ...certEvidence(f), keyAlgorithm: w.algorithm, keyBits: w.bits })] : [];
  },
};

export const presentedWeakSignature: ServiceDetector = {
  id: 'presented-weak-signature',
  family: 'certificates',
  on: 'service',
  types: ['tls.certificate.weak_signature'],
  detect(s, _host, ctx) {
    const f = presented(s, ctx);
    const w = f && weakSignature(f);
    return f && w ? [finding('tls.certificate.weak_signature', { ...certEvidence(f), signatureAlgorithm: w })] : [];
  },
};

/** Names a host is reached by: its virtual-host name, else its forward DNS names. Reverse names are the provider's, not the service's. */
export function hostNames(host: HostDoc): string[] {
  if (typeof host.name === 'string' && host.name) return [host.name];
  const names = at(host, 'dns.names');
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string' && n !== '') : [];
}

export const presentedNameMismatch: ServiceDetector = {
  id: 'presented-name-mismatch',
  family: 'certificates',
  on: 'service',
  types: ['tls.certificate.name_mismatch'],
  detect(s, host, ctx) {
    const f = presented(s, ctx);
    const names = hostNames(host);
    if (!f || !names.length) return [];
    // Without any certificate names there is nothing to compare (and the certificate has worse problems).
    if (!f.names.length && !f.commonName) return [];
    const certNames = f.names.length ? f.names : [f.commonName!.toLowerCase()];
    if (names.some((n) => nameCovered(n, certNames)) || nameCovered(host.ip, certNames)) return [];
    return [finding('tls.certificate.name_mismatch', { ...certEvidence(f), hostNames: names, certificateNames: certNames })];
  },
};

// Certificate assets.

function assetEvidence(f: CertFacts): Record<string, unknown> {
  return { ...(f.commonName ? { commonName: f.commonName } : {}), names: f.names.slice(0, 20) };
}

export const certificateExpiry: CertDetector = {
  id: 'certificate-expiry',
  family: 'certificates',
  on: 'cert',
  types: ['cert.expired', 'cert.expiring_soon'],
  detect(cert, ctx) {
    const f = factsFromDocument(cert);
    const e = expiryState(f, ctx.now, soonDays('cert.expiring_soon', ctx));
    if (!e) return [];
    return [finding(e.state === 'expired' ? 'cert.expired' : 'cert.expiring_soon', { ...assetEvidence(f), notAfter: e.notAfter, daysLeft: e.daysLeft })];
  },
};

export const certificateTrust: CertDetector = {
  id: 'certificate-trust',
  family: 'certificates',
  on: 'cert',
  types: ['cert.self_signed', 'cert.untrusted', 'cert.revoked'],
  detect(cert) {
    const f = factsFromDocument(cert);
    const out: Finding[] = [];
    // Roots are self-signed by design; only end-entity certificates are at fault.
    if (f.isCa) return out;
    if (f.selfSigned) out.push(finding('cert.self_signed', assetEvidence(f)));
    else if (f.trusted === false) out.push(finding('cert.untrusted', { ...assetEvidence(f), ...(asObj(at(cert, 'validation.nss')) ? { nss: at(cert, 'validation.nss') } : {}) }));
    if (f.revoked) out.push(finding('cert.revoked', { ...assetEvidence(f), revocation: at(cert, 'revocation') ?? null }));
    return out;
  },
};

export const certificateCrypto: CertDetector = {
  id: 'certificate-crypto',
  family: 'certificates',
  on: 'cert',
  types: ['cert.weak_key', 'cert.weak_signature'],
  detect(cert) {
    const f = factsFromDocument(cert);
    const out: Finding[] = [];
    const k = weakKey(f);
    if (k) out.push(finding('cert.weak_key', { ...assetEvidence(f), keyAlgorithm: k.algorithm, keyBits: k.bits }));
    const sig = weakSignature(f);
    // A root's own signature is never checked by clients, so SHA-1 there is harmless.
    if (sig && !(f.isCa && f.selfSigned)) out.push(finding('cert.weak_signature', { ...assetEvidence(f), signatureAlgorithm: sig }));
    return out;
  },
};
