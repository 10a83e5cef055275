/**
 * Detector shapes. A detector is a small pure function over one subject that reports findings of
 * the risk types it declares; the registry (registry.ts) lists them all.
 */
import type { CertDoc, DetectContext, Finding, HostDoc, RiskContext, ServiceDoc, StorageDoc } from '../risk-model.ts';

export type Family = 'certificates' | 'tls' | 'exposure' | 'http' | 'software' | 'storage';

interface Base {
  readonly id: string;
  readonly family: Family;
  /** Every type the detector can report (checked against the catalogue by the tests). */
  readonly types: readonly string[];
}

/** Runs once per service of a host; findings get the service's port and transport as context. */
export interface ServiceDetector extends Base {
  readonly on: 'service';
  detect(service: ServiceDoc, host: HostDoc, ctx: DetectContext): Finding[];
}

/** Runs once per host (risks without a port, such as the operating system). */
export interface HostDetector extends Base {
  readonly on: 'host';
  detect(host: HostDoc, ctx: DetectContext): Finding[];
}

export interface CertDetector extends Base {
  readonly on: 'cert';
  detect(cert: CertDoc, ctx: DetectContext): Finding[];
}

export interface StorageDetector extends Base {
  readonly on: 'storage';
  detect(bucket: StorageDoc, ctx: DetectContext): Finding[];
}

export type Detector = ServiceDetector | HostDetector | CertDetector | StorageDetector;

export function finding(type: string, evidence: Record<string, unknown>, context?: RiskContext): Finding {
  return context ? { type, evidence, context } : { type, evidence };
}
