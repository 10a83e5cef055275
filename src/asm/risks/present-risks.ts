/**
 * The wire shapes of the risk endpoints (contract §2B.6): RiskInstance, RiskEvent, RiskType.
 * They live beside the use cases because instance search filters and sorts on these shapes
 * (`context.type`, `severity`, `firstComputedAt`), exactly as a client sees them.
 */
import type { RiskEvent, RiskInstance } from '../../model/asm-risk.ts';
import type { EffectiveRiskType } from './effective-types.ts';
import { riskTypeById } from './risk-types.ts';

export type WireObject = Record<string, unknown>;

/** `{id, ts, op, src, srcID, riskID, riskType, reason, delta}`; riskID 0 for an event about a type. */
export function presentRiskEvent(e: RiskEvent): WireObject {
  return { id: e.id, ts: e.ts, op: e.op, src: e.src, srcID: e.srcId, riskID: e.riskId ?? 0, riskType: e.riskType, reason: e.reason, delta: e.delta };
}

/** A stable resource identifier of what the risk is about, in the `cri:` form real payloads use. */
export function criOf(i: Pick<RiskInstance, 'assetType' | 'assetId' | 'context'>): string {
  const c = i.context;
  if (i.assetType === 'CERT') return `cri:cert:${i.assetId}`;
  if (i.assetType === 'STORAGE_BUCKET') return `cri:bucket:${typeof c.provider === 'string' ? `${c.provider}:` : ''}${i.assetId}`;
  if (i.assetType === 'DOMAIN') return `cri:domain:${i.assetId}`;
  const host = typeof c.name === 'string' ? `${i.assetId}+${c.name}` : i.assetId;
  if (typeof c.port !== 'number') return `cri:host:${host}`;
  return `cri:service:${host}:${c.port}/${String(c.transportProtocol ?? 'TCP').toLowerCase()}`;
}

export function effectiveSeverity(i: Pick<RiskInstance, 'severity' | 'severityOverride'>): string {
  return i.severityOverride ?? i.severity;
}

export function presentRiskInstance(i: RiskInstance, type: EffectiveRiskType | undefined, events?: readonly RiskEvent[]): WireObject {
  const catalogue = type?.catalogue ?? riskTypeById(i.typeId);
  return {
    id: i.id,
    typeID: i.typeId,
    type: i.typeId,
    name: catalogue?.name ?? i.typeId,
    displayName: i.title,
    severity: effectiveSeverity(i),
    detectedSeverity: i.severity,
    isSeverityModified: i.severityOverride !== null,
    status: i.status,
    userStatus: i.userStatus,
    categories: i.categories ?? type?.categories ?? catalogue?.defaultCategories.flat() ?? [],
    context: { ...i.context, type: i.context.type ?? catalogue?.contextType ?? 'host', cri: criOf(i) },
    assetType: i.assetType,
    assetID: i.assetId,
    evidence: i.evidence,
    metadata: [{ src: 'system' }, ...i.metadata],
    firstComputedAt: i.firstComputedAt,
    lastComputedAt: i.lastComputedAt,
    resolvedAt: i.resolvedAt,
    lastUpdatedAt: i.updatedAt,
    ...(events ? { events: events.map(presentRiskEvent) } : {}),
  };
}

export function presentRiskType(t: EffectiveRiskType, riskCount: number, events?: readonly RiskEvent[]): WireObject {
  const c = t.catalogue;
  return {
    type: c.type,
    name: c.name,
    description: c.description,
    contextType: c.contextType,
    subjectType: c.subjectType,
    defaultSeverity: t.severity,
    recommendedSeverity: c.recommendedSeverity,
    defaultCategories: t.setting?.categories ? t.setting.categories.map((x) => [x]) : c.defaultCategories,
    enabled: t.enabled,
    config: t.config,
    remediations: c.remediations,
    riskCount,
    lastUpdatedAt: t.setting?.updatedAt ?? null,
    lastDisableReason: t.setting?.lastDisableReason ?? null,
    lastSeverityChangeReason: t.setting?.lastSeverityChangeReason ?? null,
    ...(events ? { events: events.map(presentRiskEvent) } : {}),
  };
}
