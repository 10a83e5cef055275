/**
 * Runs the registered detectors over one subject and turns their findings into reported risks:
 * subject, context, severity (catalogue or override), a human title, and only enabled types.
 */
import { CERT_DETECTORS, HOST_DETECTORS, SERVICE_DETECTORS, STORAGE_DETECTORS } from './detectors/registry.ts';
import type { CertDoc, DetectContext, DetectedRisk, Finding, HostDoc, RiskContext, RiskSubject, Severity, StorageDoc } from './risk-model.ts';
import { riskTypeById } from './risk-types.ts';
import { serviceContext } from './service-view.ts';

function enabled(type: string, ctx: DetectContext): boolean {
  const t = riskTypeById(type);
  if (!t) return false;
  return ctx.enabled ? ctx.enabled(type) : t.enabled;
}

function severityOf(f: Finding, ctx: DetectContext): Severity {
  return ctx.severity?.(f.type) ?? f.severity ?? riskTypeById(f.type)?.defaultSeverity ?? 'medium';
}

function where(subject: RiskSubject, context: RiskContext): string {
  const base = subject.ip ? (subject.name ? `${subject.name} (${subject.ip})` : subject.ip) : subject.sha256 ?? subject.bucket ?? subject.name ?? '';
  if (context.port === undefined) return base;
  const ip = subject.ip && subject.ip.includes(':') && !subject.name ? `[${subject.ip}]` : base;
  return `${ip}:${context.port}${context.transportProtocol && context.transportProtocol !== 'TCP' ? `/${context.transportProtocol}` : ''}`;
}

function titleOf(type: string, subject: RiskSubject, context: RiskContext): string {
  const name = riskTypeById(type)?.name ?? type;
  const sw = context.software && type.startsWith('software.') ? ` (${context.software})` : '';
  return `${name}${sw} on ${where(subject, context)}`;
}

function toRisk(f: Finding, subject: RiskSubject, base: RiskContext, ctx: DetectContext): DetectedRisk {
  const t = riskTypeById(f.type)!;
  const context: RiskContext = { ...base, ...(f.context ?? {}) };
  return { type: f.type, subjectType: t.subjectType, subject, context, severity: severityOf(f, ctx), title: titleOf(f.type, subject, context), evidence: f.evidence };
}

export function hostSubject(host: HostDoc): RiskSubject {
  return typeof host.name === 'string' && host.name ? { ip: host.ip, name: host.name } : { ip: host.ip };
}

/** Risks of a host document (IP host or virtual host), service by service, then host-wide ones. */
export function detectHostRisks(host: HostDoc, ctx: DetectContext): DetectedRisk[] {
  const subject = hostSubject(host);
  const out: DetectedRisk[] = [];
  const services = Array.isArray(host.services) ? host.services : [];
  for (const s of services) {
    if (!s || typeof s !== 'object' || typeof s.port !== 'number') continue;
    // Pseudo services of hosts answering on every port (tarpits) say nothing about what runs there.
    if (s.truncated === true) continue;
    const base = serviceContext(s);
    for (const d of SERVICE_DETECTORS) {
      for (const f of d.detect(s, host, ctx)) if (enabled(f.type, ctx)) out.push(toRisk(f, subject, base, ctx));
    }
  }
  for (const d of HOST_DETECTORS) {
    for (const f of d.detect(host, ctx)) if (enabled(f.type, ctx)) out.push(toRisk(f, subject, {}, ctx));
  }
  return out;
}

/** Risks of a certificate asset. */
export function detectCertificateRisks(cert: CertDoc, ctx: DetectContext): DetectedRisk[] {
  const subject: RiskSubject = { sha256: cert.fingerprint_sha256 };
  const out: DetectedRisk[] = [];
  for (const d of CERT_DETECTORS) for (const f of d.detect(cert, ctx)) if (enabled(f.type, ctx)) out.push(toRisk(f, subject, {}, ctx));
  return out;
}

/** Risks of an object-storage asset. */
export function detectStorageRisks(bucket: StorageDoc, ctx: DetectContext): DetectedRisk[] {
  const subject: RiskSubject = { bucket: bucket.bucket };
  const out: DetectedRisk[] = [];
  for (const d of STORAGE_DETECTORS) for (const f of d.detect(bucket, ctx)) if (enabled(f.type, ctx)) out.push(toRisk(f, subject, {}, ctx));
  return out;
}
