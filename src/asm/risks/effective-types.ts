/**
 * A risk type as one workspace sees it: the catalogue entry with the workspace's settings
 * (enabled, severity, categories, config) laid over it, and the detection context those imply.
 */
import type { RiskTypeSetting } from '../../model/asm-risk.ts';
import type { DetectContext, CertDoc, RiskType, Severity } from './risk-model.ts';
import { RISK_TYPES } from './risk-types.ts';

export interface EffectiveRiskType {
  readonly catalogue: RiskType;
  readonly enabled: boolean;
  /** The workspace's severity for the type, else the catalogue's default. */
  readonly severity: Severity;
  /** Whether the workspace changed the severity. */
  readonly severityModified: boolean;
  /** Flat category names: the workspace's, else the catalogue's. */
  readonly categories: readonly string[];
  readonly config: string;
  readonly setting: RiskTypeSetting | undefined;
}

/** The catalogue's categories as flat names (`[['Exposure'], ['Databases']]` → `['Exposure', 'Databases']`). */
export function flatCategories(t: RiskType): string[] {
  return t.defaultCategories.flat();
}

export function effectiveType(t: RiskType, setting: RiskTypeSetting | undefined): EffectiveRiskType {
  return {
    catalogue: t,
    enabled: setting?.enabled ?? t.enabled,
    severity: setting?.severity ?? t.defaultSeverity,
    severityModified: setting?.severity != null && setting.severity !== t.defaultSeverity,
    categories: setting?.categories ?? flatCategories(t),
    config: setting?.config ?? t.config,
    setting,
  };
}

/** Every catalogue type for a workspace, by id. */
export function effectiveTypes(settings: readonly RiskTypeSetting[]): Map<string, EffectiveRiskType> {
  const byType = new Map(settings.map((s) => [s.type, s]));
  return new Map(RISK_TYPES.map((t) => [t.type, effectiveType(t, byType.get(t.type))]));
}

/** What detectors need from the workspace: which types run, which severity and config they use. */
export function detectContextFor(types: ReadonlyMap<string, EffectiveRiskType>, now: Date, certificates: (sha256: string) => CertDoc | undefined): DetectContext {
  return {
    now,
    certificates,
    enabled: (type) => types.get(type)?.enabled ?? false,
    // Only a workspace's explicit severity replaces a finding's own (a vulnerability row's rating).
    severity: (type) => types.get(type)?.setting?.severity ?? undefined,
    config: (type) => types.get(type)?.setting?.config ?? undefined,
  };
}
