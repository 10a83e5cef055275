/**
 * The pure half of risk evaluation: given what detection found on some assets and the instances
 * those assets already have, decide which instances open, stay, change, reopen or resolve, and
 * the risk events and logbook events each change writes. No I/O, so the rules are tested directly.
 */
import type { LogbookEventType, NewLogbookEvent } from '../../model/asm-asset.ts';
import type { NewRiskEvent, NewRiskInstance, RiskAssetType, RiskInstance, RiskInstanceChange } from '../../model/asm-risk.ts';
import type { DetectedRisk } from './risk-model.ts';
import type { EffectiveRiskType } from './effective-types.ts';
import { identity } from './risk-identity.ts';
import { riskTypeById } from './risk-types.ts';

export interface DetectedOnAsset {
  readonly risk: DetectedRisk;
  readonly assetType: RiskAssetType;
  readonly assetId: string;
  readonly cloud: string | null;
}

export interface EvaluationInput {
  readonly now: string;
  readonly types: ReadonlyMap<string, EffectiveRiskType>;
  /** Assets that were evaluated: their instances not detected again resolve. */
  readonly evaluated: ReadonlySet<string>;
  /** Assets that left the workspace: their open instances resolve. */
  readonly removed: ReadonlySet<string>;
  readonly detected: readonly DetectedOnAsset[];
  /** Every instance of the evaluated and removed assets, any status. */
  readonly existing: readonly RiskInstance[];
}

/** A logbook event for a risk change; `riskIdentity` becomes the instance id once it is written. */
export interface PlannedLogbookEvent extends NewLogbookEvent {
  readonly riskIdentity: string;
}

export interface EvaluationPlan {
  readonly insert: NewRiskInstance[];
  readonly update: RiskInstanceChange[];
  /** Open instances found again with nothing changed: only lastComputedAt moves. */
  readonly touch: number[];
  readonly events: NewRiskEvent[];
  readonly logbook: PlannedLogbookEvent[];
  readonly counts: { opened: number; reopened: number; resolved: number; updated: number; unchanged: number };
}

/** JSON with object keys sorted, to compare stored and detected values whatever their key order. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (x !== null && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));
}

/** Stored values come back in the key order they were written in, so plain JSON usually settles it. */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b) || canonical(a) === canonical(b);
}

export function assetKey(assetType: string, assetId: string): string {
  return `${assetType}\u0000${assetId}`;
}

/** What an instance stores as its context: the context type, the subject and the place. */
export function instanceContext(risk: DetectedRisk): Record<string, unknown> {
  const t = riskTypeById(risk.type);
  return { type: t?.contextType ?? 'host', ...risk.subject, ...risk.context };
}

const LOGBOOK_TYPE: Readonly<Record<RiskAssetType, LogbookEventType | undefined>> = {
  HOST: 'HOST_RISK',
  CERT: 'CERT_RISK',
  DOMAIN: 'DOMAIN_RISK',
  // The logbook has no risk event type for object storage; its risk events still record every change.
  STORAGE_BUCKET: undefined,
};

interface LogbookFacts {
  readonly assetType: RiskAssetType;
  readonly assetId: string;
  readonly typeId: string;
  readonly context: Readonly<Record<string, unknown>>;
  readonly title: string;
  readonly severity: string;
}

/** HOST_RISK `entity{ipAddress, hostname?}`, `data{port, title, severity, transportProtocol}` (contract §2B.4). */
export function riskLogbookEvent(f: LogbookFacts, operation: 'ADD' | 'CHANGE' | 'REMOVE', timestamp: string, riskIdentity: string): PlannedLogbookEvent | undefined {
  const type = LOGBOOK_TYPE[f.assetType];
  if (!type) return undefined;
  const c = f.context;
  const entity: Record<string, unknown> =
    f.assetType === 'HOST'
      ? { ipAddress: f.assetId, ...(typeof c.name === 'string' ? { hostname: c.name } : {}) }
      : f.assetType === 'CERT'
        ? { sha256: f.assetId }
        : { domain: f.assetId };
  const data: Record<string, unknown> = {
    ...(typeof c.port === 'number' ? { port: c.port, transportProtocol: typeof c.transportProtocol === 'string' ? c.transportProtocol : 'TCP' } : {}),
    title: f.title,
    severity: f.severity,
    riskType: f.typeId,
  };
  return { type, operation, entity, data, timestamp, riskIdentity };
}

function effectiveSeverity(i: Pick<RiskInstance, 'severity' | 'severityOverride'>): string {
  return i.severityOverride ?? i.severity;
}

export function planEvaluation(input: EvaluationInput): EvaluationPlan {
  const { now } = input;
  const plan: EvaluationPlan = { insert: [], update: [], touch: [], events: [], logbook: [], counts: { opened: 0, reopened: 0, resolved: 0, updated: 0, unchanged: 0 } };
  const byIdentity = new Map(input.existing.map((i) => [i.identity, i]));
  const seen = new Set<string>();
  const system = (assetType: string, assetId: string) => ({ src: 'system', srcId: `${assetType}:${assetId}` });
  const log = (e: PlannedLogbookEvent | undefined) => {
    if (e) plan.logbook.push(e);
  };

  for (const d of input.detected) {
    const key = identity(d.risk);
    if (seen.has(key)) continue;
    seen.add(key);
    const context = instanceContext(d.risk);
    const t = input.types.get(d.risk.type)?.catalogue ?? riskTypeById(d.risk.type);
    const old = byIdentity.get(key);
    if (!old) {
      plan.insert.push({
        typeId: d.risk.type,
        identity: key,
        assetType: d.assetType,
        assetId: d.assetId,
        context,
        title: d.risk.title,
        severity: d.risk.severity,
        evidence: d.risk.evidence,
        cloud: d.cloud,
        status: 'open',
        firstComputedAt: now,
        lastComputedAt: now,
        resolvedAt: null,
      });
      plan.events.push({
        ts: now,
        op: 'open',
        ...system(d.assetType, d.assetId),
        riskId: null,
        riskIdentity: key,
        riskType: d.risk.type,
        reason: 'detected',
        delta: {
          status: 'open',
          severity: d.risk.severity,
          displayName: d.risk.title,
          name: t?.name ?? d.risk.type,
          contextType: t?.contextType ?? context.type,
          subjectType: t?.subjectType ?? d.assetType,
        },
      });
      log(riskLogbookEvent({ assetType: d.assetType, assetId: d.assetId, typeId: d.risk.type, context, title: d.risk.title, severity: d.risk.severity }, 'ADD', now, key));
      plan.counts.opened++;
      continue;
    }
    const delta: Record<string, unknown> = {};
    if (old.severity !== d.risk.severity) delta.severity = d.risk.severity;
    if (old.title !== d.risk.title) delta.displayName = d.risk.title;
    const change: RiskInstanceChange = {
      id: old.id,
      lastComputedAt: now,
      ...(sameJson(old.context, context) ? {} : { context }),
      ...(sameJson(old.evidence, d.risk.evidence) ? {} : { evidence: d.risk.evidence }),
      ...(old.cloud !== d.cloud ? { cloud: d.cloud } : {}),
      ...(delta.severity !== undefined ? { severity: d.risk.severity } : {}),
      ...(delta.displayName !== undefined ? { title: d.risk.title } : {}),
      ...(old.status === 'resolved' ? { status: 'open' as const, resolvedAt: null } : {}),
    };
    // Most re-evaluations find most risks unchanged: those are one batched update, not one each.
    if (Object.keys(change).length === 2) plan.touch.push(old.id);
    else plan.update.push(change);
    const facts = { assetType: old.assetType, assetId: old.assetId, typeId: old.typeId, context, title: d.risk.title, severity: effectiveSeverity({ severity: d.risk.severity, severityOverride: old.severityOverride }) };
    if (old.status === 'resolved') {
      plan.events.push({ ts: now, op: 'reopen', ...system(old.assetType, old.assetId), riskId: old.id, riskType: old.typeId, reason: 'detected again', delta: { status: 'open', ...delta } });
      log(riskLogbookEvent(facts, 'ADD', now, key));
      plan.counts.reopened++;
    } else if (Object.keys(delta).length > 0) {
      plan.events.push({ ts: now, op: 'update', ...system(old.assetType, old.assetId), riskId: old.id, riskType: old.typeId, reason: 'detection changed', delta });
      if (delta.severity !== undefined && old.severityOverride === null) log(riskLogbookEvent(facts, 'CHANGE', now, key));
      plan.counts.updated++;
    } else plan.counts.unchanged++;
  }

  for (const old of input.existing) {
    if (old.status !== 'open' || seen.has(old.identity)) continue;
    const k = assetKey(old.assetType, old.assetId);
    const removed = input.removed.has(k);
    if (!removed && !input.evaluated.has(k)) continue;
    const typeEnabled = input.types.get(old.typeId)?.enabled ?? false;
    const reason = removed ? 'asset removed' : typeEnabled ? 'no longer detected' : 'risk type disabled';
    plan.update.push({ id: old.id, status: 'resolved', resolvedAt: now, lastComputedAt: now });
    plan.events.push({ ts: now, op: 'resolve', ...system(old.assetType, old.assetId), riskId: old.id, riskType: old.typeId, reason, delta: { status: 'resolved' } });
    log(riskLogbookEvent({ assetType: old.assetType, assetId: old.assetId, typeId: old.typeId, context: old.context, title: old.title, severity: effectiveSeverity(old) }, 'REMOVE', now, old.identity));
    plan.counts.resolved++;
  }
  return plan;
}
