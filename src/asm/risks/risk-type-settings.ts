/**
 * Risk types as a workspace configures them (contract §2B.6): list with sort and paging, get,
 * and PATCH (enabled, severity, categories, config). A change that alters what detection reports
 * re-evaluates the workspace, so disabling a type resolves its instances and a new severity
 * reaches every instance, each with its risk event.
 */
import type { RiskEvent, RiskTypeSetting } from '../../model/asm-risk.ts';
import { fail, ok, type Result } from '../../lib/problem.ts';
import type { AsmContext } from '../asm-context.ts';
import { effectiveType, effectiveTypes, type EffectiveRiskType } from './effective-types.ts';
import { evaluateWorkspace } from './evaluate-risks.ts';
import { presentRiskType, type WireObject } from './present-risks.ts';
import { SEVERITIES, type Severity } from './risk-model.ts';
import { RISK_TYPES, riskTypeById } from './risk-types.ts';

function invalid(message: string): Result<never> {
  return fail('invalid_request', message);
}

function typeNotFound(type: string): Result<never> {
  return fail('not_found', `No risk type ${JSON.stringify(type)}.`, { asmCode: 10073, details: `Risk type ${type} not found.` });
}

async function openCounts(ctx: AsmContext, workspaceId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const i of await ctx.store.asmRisks.listInstances(workspaceId, { status: 'open' })) counts.set(i.typeId, (counts.get(i.typeId) ?? 0) + 1);
  return counts;
}

async function typeEvents(ctx: AsmContext, workspaceId: string, type?: string): Promise<Map<string, RiskEvent[]>> {
  const out = new Map<string, RiskEvent[]>();
  for (const e of await ctx.store.asmRisks.readEvents(workspaceId, type ? { riskType: type } : {})) {
    if (e.riskId !== null) continue;
    const list = out.get(e.riskType) ?? [];
    list.push(e);
    out.set(e.riskType, list);
  }
  return out;
}

const SEVERITY_RANK: Readonly<Record<string, number>> = { low: 1, medium: 2, high: 3, critical: 4 };

const SORT_FIELDS: Readonly<Record<string, (t: WireObject) => unknown>> = {
  type: (t) => t.type,
  name: (t) => t.name,
  severity: (t) => SEVERITY_RANK[String(t.defaultSeverity)],
  defaultSeverity: (t) => SEVERITY_RANK[String(t.defaultSeverity)],
  recommendedSeverity: (t) => SEVERITY_RANK[String(t.recommendedSeverity)],
  riskCount: (t) => t.riskCount,
  enabled: (t) => (t.enabled ? 1 : 0),
  contextType: (t) => t.contextType,
  subjectType: (t) => t.subjectType,
  lastUpdatedAt: (t) => t.lastUpdatedAt ?? '',
};

export interface RiskTypeListOptions {
  readonly sort: readonly string[];
  readonly includeEvents: boolean;
  readonly page?: string;
  readonly limit?: string;
}

export interface RiskTypeList {
  readonly type: WireObject[];
  readonly total: number;
  readonly page: number;
  readonly limit: number;
}

function positiveInt(name: string, raw: string | undefined, fallback: number, max: number): Result<number> {
  if (raw === undefined || raw === '') return ok(fallback);
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) return invalid(`Query parameter '${name}' must be an integer from 1 to ${max}, not ${JSON.stringify(raw)}.`);
  return ok(Number(raw));
}

/** `GET /v2/risk-types`: every catalogue type with the workspace's settings, sorted and paged. */
export async function listRiskTypes(ctx: AsmContext, workspaceId: string, o: RiskTypeListOptions): Promise<Result<RiskTypeList>> {
  const page = positiveInt('page', o.page, 1, 1_000_000);
  if (!page.ok) return page;
  const limit = positiveInt('limit', o.limit, 1000, 10_000);
  if (!limit.ok) return limit;
  const keys: { get: (t: WireObject) => unknown; desc: boolean }[] = [];
  for (const s of o.sort.flatMap((x) => x.split(',')).filter((x) => x.trim() !== '')) {
    const [field, dir = 'asc'] = s.trim().split(':');
    const get = SORT_FIELDS[field];
    if (!get) return invalid(`Cannot sort risk types by ${JSON.stringify(field)}; use ${Object.keys(SORT_FIELDS).join(', ')} (optionally :asc or :desc).`);
    if (!['asc', 'desc'].includes(dir.toLowerCase())) return invalid(`Sort direction of ${field} must be asc or desc, not ${JSON.stringify(dir)}.`);
    keys.push({ get, desc: dir.toLowerCase() === 'desc' });
  }
  keys.push({ get: (t) => t.type, desc: false });
  const types = effectiveTypes(await ctx.store.asmRisks.typeSettings(workspaceId));
  const counts = await openCounts(ctx, workspaceId);
  const events = o.includeEvents ? await typeEvents(ctx, workspaceId) : undefined;
  const all = [...types.values()].map((t) => presentRiskType(t, counts.get(t.catalogue.type) ?? 0, events ? events.get(t.catalogue.type) ?? [] : undefined));
  all.sort((a, b) => {
    for (const k of keys) {
      const x = k.get(a) as string | number;
      const y = k.get(b) as string | number;
      if (x === y) continue;
      const d = x < y ? -1 : 1;
      return k.desc ? -d : d;
    }
    return 0;
  });
  const start = (page.value - 1) * limit.value;
  return ok({ type: all.slice(start, start + limit.value), total: all.length, page: page.value, limit: limit.value });
}

async function effectiveOf(ctx: AsmContext, workspaceId: string, type: string): Promise<EffectiveRiskType | undefined> {
  const t = riskTypeById(type);
  if (!t) return undefined;
  const setting = (await ctx.store.asmRisks.typeSettings(workspaceId)).find((s) => s.type === type);
  return effectiveType(t, setting);
}

export async function getRiskType(ctx: AsmContext, workspaceId: string, type: string, includeEvents: boolean): Promise<Result<WireObject>> {
  const t = await effectiveOf(ctx, workspaceId, type);
  if (!t) return typeNotFound(type);
  const count = (await ctx.store.asmRisks.listInstances(workspaceId, { typeId: type, status: 'open' })).length;
  const events = includeEvents ? (await typeEvents(ctx, workspaceId, type)).get(type) ?? [] : undefined;
  return ok(presentRiskType(t, count, events));
}

/** Counters PATCH answers with (contract §2B.6). */
export interface TypeChangeCounts {
  changes: number;
  configChanges: number;
  defaultCategoriesChanges: number;
  defaultSeverityChanges: number;
  enabledChanges: number;
}

const PATCH_KEYS = new Set([
  'type',
  'enabled',
  'severity',
  'defaultSeverity',
  'categories',
  'defaultCategories',
  'config',
  'reason',
  'changeReason',
  'disableReason',
  'severityChangeReason',
]);

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function configText(v: unknown): string | null | undefined {
  if (v === undefined || v === null) return v as null | undefined;
  if (typeof v === 'string') return v;
  if (isObject(v) && Object.values(v).every((x) => ['string', 'number', 'boolean'].includes(typeof x))) {
    return Object.entries(v)
      .map(([k, x]) => `${k}=${String(x)}`)
      .join(';');
  }
  return undefined;
}

/** `PATCH /v2/risk-types/{type}`. */
export async function patchRiskType(ctx: AsmContext, workspaceId: string, type: string, body: unknown, userId: string): Promise<Result<TypeChangeCounts>> {
  const current = await effectiveOf(ctx, workspaceId, type);
  if (!current) return typeNotFound(type);
  if (!isObject(body)) return invalid('The body must be a JSON object of the settings to change.');
  for (const k of Object.keys(body)) if (!PATCH_KEYS.has(k)) return invalid(`Unknown key '${k}'; a risk type patch may set enabled, severity, categories, config and reason.`);
  if (body.type !== undefined && body.type !== type) return invalid(`The body's 'type' (${JSON.stringify(body.type)}) differs from the type in the path (${type}).`);
  if (body.enabled !== undefined && typeof body.enabled !== 'boolean') return invalid("'enabled' must be true or false.");
  const severity = body.defaultSeverity !== undefined ? body.defaultSeverity : body.severity;
  if (severity !== undefined && severity !== null && !SEVERITIES.includes(severity as Severity)) return invalid(`'severity' must be one of ${SEVERITIES.join(', ')}, or null for the catalogue's.`);
  const rawCategories = body.defaultCategories !== undefined ? body.defaultCategories : body.categories;
  let categories: string[] | null | undefined;
  if (rawCategories === null) categories = null;
  else if (rawCategories !== undefined) {
    const flat = Array.isArray(rawCategories) ? rawCategories.flat() : undefined;
    if (!flat || flat.length === 0 || !flat.every((c) => typeof c === 'string' && c.trim() !== '')) return invalid("'categories' must be a non-empty array of category names (flat or nested), or null.");
    categories = [...new Set(flat as string[])];
  }
  const config = configText(body.config);
  if (body.config !== undefined && config === undefined) return invalid("'config' must be a string like 'days=14', an object of simple values, or null.");
  for (const k of ['reason', 'changeReason', 'disableReason', 'severityChangeReason']) {
    if (body[k] !== undefined && typeof body[k] !== 'string') return invalid(`'${k}' must be a string.`);
  }
  const reason = (body.reason ?? body.changeReason ?? '') as string;

  const before = current.setting;
  const counts: TypeChangeCounts = { changes: 0, configChanges: 0, defaultCategoriesChanges: 0, defaultSeverityChanges: 0, enabledChanges: 0 };
  const delta: Record<string, unknown> = {};
  const next: { -readonly [K in keyof RiskTypeSetting]: RiskTypeSetting[K] } = {
    type,
    enabled: before?.enabled ?? null,
    severity: before?.severity ?? null,
    categories: before?.categories ?? null,
    config: before?.config ?? null,
    lastDisableReason: before?.lastDisableReason ?? null,
    lastSeverityChangeReason: before?.lastSeverityChangeReason ?? null,
    updatedAt: ctx.now().toISOString(),
  };
  if (typeof body.enabled === 'boolean' && body.enabled !== current.enabled) {
    next.enabled = body.enabled;
    delta.enabled = body.enabled;
    counts.enabledChanges = 1;
    if (!body.enabled) next.lastDisableReason = (body.disableReason as string | undefined) ?? reason;
  }
  if (severity !== undefined) {
    const effective = (severity as Severity | null) ?? current.catalogue.defaultSeverity;
    if ((severity as Severity | null) !== (before?.severity ?? null)) {
      next.severity = severity as Severity | null;
      if (effective !== current.severity) {
        delta.defaultSeverity = effective;
        counts.defaultSeverityChanges = 1;
        next.lastSeverityChangeReason = (body.severityChangeReason as string | undefined) ?? reason;
      }
    }
  }
  if (categories !== undefined && JSON.stringify(categories) !== JSON.stringify(before?.categories ?? null)) {
    next.categories = categories;
    if (JSON.stringify(categories ?? current.catalogue.defaultCategories.flat()) !== JSON.stringify(current.categories)) {
      delta.defaultCategories = categories ?? current.catalogue.defaultCategories.flat();
      counts.defaultCategoriesChanges = 1;
    }
  }
  if (config !== undefined && config !== (before?.config ?? null)) {
    next.config = config;
    if ((config ?? current.catalogue.config) !== current.config) {
      delta.config = config ?? current.catalogue.config;
      counts.configChanges = 1;
    }
  }
  if (Object.keys(delta).length === 0) return ok(counts);
  counts.changes = 1;
  const now = next.updatedAt;
  await ctx.store.asmRisks.putTypeSetting(workspaceId, next, [{ ts: now, op: 'type-update', src: 'user', srcId: userId, riskId: null, riskType: type, reason, delta }]);
  await ctx.store.asmLogbook.append(workspaceId, [{ type: 'RISK_USER_CONFIG', operation: 'CHANGE', entity: { riskType: type }, data: delta, timestamp: now }]);
  // What detection reports changed: bring every instance in line (categories only change how they read).
  if (counts.enabledChanges || counts.defaultSeverityChanges || counts.configChanges) await evaluateWorkspace(ctx, workspaceId);
  return ok(counts);
}

/** Ids of the catalogue, for routes that validate a type before reading settings. */
export function isRiskType(type: string): boolean {
  return RISK_TYPES.some((t) => t.type === type);
}
