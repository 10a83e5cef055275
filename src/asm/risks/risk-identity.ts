/**
 * The identity of a risk instance: subject, type and the place on the subject (port and
 * transport). Banners, versions, evidence, severity and titles are deliberately left out, so a
 * re-evaluation that finds the same problem in the same place updates the same instance.
 */
import type { DetectedRisk, RiskContext, RiskSubject } from './risk-model.ts';

export function subjectKey(subject: RiskSubject): string {
  if (subject.sha256) return `cert:${subject.sha256.toLowerCase()}`;
  if (subject.bucket) return `bucket:${subject.bucket}`;
  if (subject.ip) return subject.name ? `host:${subject.ip}+${subject.name.toLowerCase()}` : `host:${subject.ip}`;
  return `domain:${(subject.name ?? '').toLowerCase()}`;
}

export function contextKey(context: RiskContext): string {
  return context.port === undefined ? '' : `${context.port}/${(context.transportProtocol ?? 'TCP').toUpperCase()}`;
}

/** `host:1.2.3.4|tls.certificate.expired|443/TCP`, `cert:<sha256>|cert.expired|`. */
export function identity(risk: Pick<DetectedRisk, 'subject' | 'type' | 'context'>): string {
  return `${subjectKey(risk.subject)}|${risk.type}|${contextKey(risk.context)}`;
}
