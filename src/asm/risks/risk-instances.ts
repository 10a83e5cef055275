/**
 * Risk instances of a workspace through the API (contract §2B.6): list, get, search, and the user
 * changes PATCH makes (status, severity, categories, metadata), each a risk event by the user.
 */
import type { RiskEvent, RiskInstance, RiskInstanceChange, RiskSeverity, NewRiskEvent } from '../../model/asm-risk.ts';
import type { NewLogbookEvent } from '../../model/asm-asset.ts';
import { fail, ok, type Result } from '../../lib/problem.ts';
import type { AsmContext } from '../asm-context.ts';
import { effectiveTypes, type EffectiveRiskType } from './effective-types.ts';
import { presentRiskEvent, presentRiskInstance, type WireObject } from './present-risks.ts';
import { serialised } from './evaluate-risks.ts';

export const USER_SEVERITIES: readonly RiskSeverity[] = ['low', 'medium', 'high', 'critical', 'accepted'];

/** Counters PATCH answers with (contract §2B.6). */
export interface InstanceChangeCounts {
  changes: number;
  categoriesChanges: number;
  metadataAdded: number;
  metadataRemoved: number;
  severityChanges: number;
  skips: number;
  userStatusChanges: number;
}

function zeroCounts(): InstanceChangeCounts {
  return { changes: 0, categoriesChanges: 0, metadataAdded: 0, metadataRemoved: 0, severityChanges: 0, skips: 0, userStatusChanges: 0 };
}

function notFound(id: unknown): Result<never> {
  return fail('not_found', `No risk instance ${JSON.stringify(id)} in this workspace.`, { asmCode: 10073, details: `Risk instance ${String(id)} not found.` });
}

function invalid(message: string): Result<never> {
  return fail('invalid_request', message);
}

/** Instance ids are JSON numbers or decimal strings (path segments). */
export function parseRiskId(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw >= 0 ? raw : undefined;
  if (typeof raw === 'string' && /^(0|[1-9][0-9]{0,14})$/.test(raw)) return Number(raw);
  return undefined;
}

async function typesOf(ctx: AsmContext, workspaceId: string): Promise<Map<string, EffectiveRiskType>> {
  return effectiveTypes(await ctx.store.asmRisks.typeSettings(workspaceId));
}

async function eventsByRisk(ctx: AsmContext, workspaceId: string, ids: readonly number[]): Promise<Map<number, RiskEvent[]>> {
  const out = new Map<number, RiskEvent[]>();
  if (ids.length === 0) return out;
  const events = ids.length > 500 ? await ctx.store.asmRisks.readEvents(workspaceId, {}) : await ctx.store.asmRisks.readEvents(workspaceId, { riskIds: ids });
  for (const e of events) {
    if (e.riskId === null) continue;
    const list = out.get(e.riskId) ?? [];
    list.push(e);
    out.set(e.riskId, list);
  }
  return out;
}

async function present(ctx: AsmContext, workspaceId: string, instances: readonly RiskInstance[], includeEvents: boolean): Promise<WireObject[]> {
  const types = await typesOf(ctx, workspaceId);
  const events = includeEvents ? await eventsByRisk(ctx, workspaceId, instances.map((i) => i.id)) : undefined;
  return instances.map((i) => presentRiskInstance(i, types.get(i.typeId), events ? events.get(i.id) ?? [] : undefined));
}

export async function listRiskInstances(ctx: AsmContext, workspaceId: string, includeEvents: boolean): Promise<WireObject[]> {
  return present(ctx, workspaceId, await ctx.store.asmRisks.listInstances(workspaceId), includeEvents);
}

export async function getRiskInstance(ctx: AsmContext, workspaceId: string, rawId: string, includeEvents: boolean): Promise<Result<WireObject>> {
  const id = parseRiskId(rawId);
  const instance = id === undefined ? undefined : await ctx.store.asmRisks.getInstance(workspaceId, id);
  if (!instance) return notFound(rawId);
  return ok((await present(ctx, workspaceId, [instance], includeEvents))[0]);
}

// ---------------------------------------------------------------------------------------------
// PATCH

interface InstancePatch {
  readonly userStatus?: string | null;
  readonly severity?: RiskSeverity | null;
  readonly categories?: readonly string[] | null;
  readonly metadata?: readonly Record<string, unknown>[] | null;
  readonly reason: string;
}

const PATCH_KEYS = new Set(['id', 'ids', 'userStatus', 'severity', 'categories', 'metadata', 'reason']);

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function parsePatch(body: Record<string, unknown>, where: string): Result<InstancePatch> {
  for (const k of Object.keys(body)) if (!PATCH_KEYS.has(k)) return invalid(`${where}: unknown key '${k}'; a patch may set userStatus, severity, categories, metadata and reason.`);
  const { userStatus, severity, categories, metadata, reason } = body;
  if (userStatus !== undefined && userStatus !== null && (typeof userStatus !== 'string' || userStatus.length > 100)) {
    return invalid(`${where}: 'userStatus' must be a string of at most 100 characters, or null.`);
  }
  if (severity !== undefined && severity !== null && !USER_SEVERITIES.includes(severity as RiskSeverity)) {
    return invalid(`${where}: 'severity' must be one of ${USER_SEVERITIES.join(', ')}, or null to restore the detected severity.`);
  }
  if (categories !== undefined && categories !== null && (!Array.isArray(categories) || !categories.every((c) => typeof c === 'string' && c.trim() !== ''))) {
    return invalid(`${where}: 'categories' must be an array of non-empty strings, or null to restore the type's categories.`);
  }
  if (metadata !== undefined && metadata !== null && (!Array.isArray(metadata) || !metadata.every(isObject))) {
    return invalid(`${where}: 'metadata' must be an array of objects, or null.`);
  }
  if (reason !== undefined && typeof reason !== 'string') return invalid(`${where}: 'reason' must be a string.`);
  return ok({
    ...(userStatus !== undefined ? { userStatus: userStatus as string | null } : {}),
    ...(severity !== undefined ? { severity: severity as RiskSeverity | null } : {}),
    ...(categories !== undefined ? { categories: categories === null ? null : [...new Set(categories as string[])] } : {}),
    // The system entry every instance shows is not user metadata; echoing it back changes nothing.
    ...(metadata !== undefined ? { metadata: metadata === null ? null : (metadata as Record<string, unknown>[]).filter((m) => !(Object.keys(m).length === 1 && m.src === 'system')) } : {}),
    reason: (reason as string | undefined) ?? '',
  });
}

const canon = (v: unknown): string => JSON.stringify(v, (_k, x) => (isObject(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));

interface PlannedPatch {
  readonly change: RiskInstanceChange;
  readonly event: NewRiskEvent;
  readonly logbook: NewLogbookEvent;
}

function planPatch(i: RiskInstance, p: InstancePatch, counts: InstanceChangeCounts, userId: string, now: string): PlannedPatch | undefined {
  const delta: Record<string, unknown> = {};
  const change: { -readonly [K in keyof RiskInstanceChange]: RiskInstanceChange[K] } = { id: i.id };
  if (p.userStatus !== undefined && p.userStatus !== i.userStatus) {
    change.userStatus = p.userStatus;
    delta.userStatus = p.userStatus;
    counts.userStatusChanges++;
  }
  if (p.severity !== undefined && p.severity !== i.severityOverride) {
    change.severityOverride = p.severity;
    delta.severity = p.severity ?? i.severity;
    counts.severityChanges++;
  }
  if (p.categories !== undefined && canon(p.categories) !== canon(i.categories)) {
    change.categories = p.categories;
    delta.categories = p.categories;
    counts.categoriesChanges++;
  }
  if (p.metadata !== undefined) {
    const next = p.metadata ?? [];
    const before = new Set(i.metadata.map(canon));
    const after = new Set(next.map(canon));
    const added = next.filter((m) => !before.has(canon(m)));
    const removed = i.metadata.filter((m) => !after.has(canon(m)));
    if (added.length || removed.length) {
      change.metadata = next;
      if (added.length) delta.metadata_added = added;
      if (removed.length) delta.metadata_removed = removed;
      counts.metadataAdded += added.length;
      counts.metadataRemoved += removed.length;
    }
  }
  if (Object.keys(delta).length === 0) {
    counts.skips++;
    return undefined;
  }
  counts.changes++;
  return {
    change,
    event: { ts: now, op: 'update', src: 'user', srcId: userId, riskId: i.id, riskType: i.typeId, reason: p.reason, delta },
    logbook: { type: 'RISK_USER_CONFIG', operation: 'CHANGE', entity: { riskId: i.id, riskType: i.typeId, assetType: i.assetType, assetId: i.assetId }, data: delta, timestamp: now },
  };
}

async function applyPatches(ctx: AsmContext, workspaceId: string, targets: readonly { id: number | undefined; raw: unknown; patch: InstancePatch }[], userId: string): Promise<InstanceChangeCounts> {
  return serialised(ctx, workspaceId, async () => {
    const counts = zeroCounts();
    const now = ctx.now().toISOString();
    const ids = targets.flatMap((t) => (t.id === undefined ? [] : [t.id]));
    const byId = new Map((await ctx.store.asmRisks.listInstances(workspaceId, { ids })).map((i) => [i.id, i]));
    const planned: PlannedPatch[] = [];
    for (const t of targets) {
      const current = t.id === undefined ? undefined : byId.get(t.id);
      if (!current) {
        counts.skips++;
        continue;
      }
      const p = planPatch(current, t.patch, counts, userId, now);
      if (!p) continue;
      planned.push(p);
      // A later entry for the same instance sees this one's result.
      byId.set(current.id, { ...current, ...p.change } as RiskInstance);
    }
    if (planned.length) {
      await ctx.store.asmRisks.write(workspaceId, { insert: [], update: planned.map((p) => p.change) }, planned.map((p) => p.event), now);
      await ctx.store.asmLogbook.append(workspaceId, planned.map((p) => p.logbook));
    }
    return counts;
  });
}

export async function patchRiskInstance(ctx: AsmContext, workspaceId: string, rawId: string, body: unknown, userId: string): Promise<Result<InstanceChangeCounts>> {
  const id = parseRiskId(rawId);
  if (id === undefined || !(await ctx.store.asmRisks.getInstance(workspaceId, id))) return notFound(rawId);
  if (!isObject(body)) return invalid('The body must be a JSON object of the fields to change.');
  const { id: _ignored, ...rest } = body;
  const patch = parsePatch(rest, 'body');
  if (!patch.ok) return patch;
  return ok(await applyPatches(ctx, workspaceId, [{ id, raw: rawId, patch: patch.value }], userId));
}

/**
 * Bulk PATCH: one patch object with `id` or `ids`, an array of such objects, or `{"risks": [...]}`.
 * Ids that name no instance of the workspace are counted as skips, not errors.
 */
export async function patchRiskInstances(ctx: AsmContext, workspaceId: string, body: unknown, userId: string): Promise<Result<InstanceChangeCounts>> {
  const items = Array.isArray(body) ? body : isObject(body) && Array.isArray(body.risks) && Object.keys(body).length === 1 ? body.risks : [body];
  if (items.length > 10_000) return invalid('At most 10000 patches per request.');
  const targets: { id: number | undefined; raw: unknown; patch: InstancePatch }[] = [];
  for (const [n, item] of items.entries()) {
    const where = items.length > 1 ? `patch ${n}` : 'body';
    if (!isObject(item)) return invalid(`${where}: each patch must be a JSON object with 'id' or 'ids'.`);
    const ids: unknown[] = item.ids !== undefined ? (Array.isArray(item.ids) ? item.ids : [Symbol('bad')]) : item.id !== undefined ? [item.id] : [];
    if (ids.length === 0) return invalid(`${where}: name the instances to change with 'id' (a number) or 'ids' (an array of numbers).`);
    if (!ids.every((x) => typeof x === 'number' || typeof x === 'string')) return invalid(`${where}: 'ids' must be an array of instance ids.`);
    const patch = parsePatch(item, where);
    if (!patch.ok) return patch;
    for (const raw of ids) targets.push({ id: parseRiskId(raw), raw, patch: patch.value });
  }
  return ok(await applyPatches(ctx, workspaceId, targets, userId));
}

// ---------------------------------------------------------------------------------------------
// Search

const SEVERITY_RANK: Readonly<Record<string, number>> = { accepted: 0, low: 1, medium: 2, high: 3, critical: 4 };

const SEARCH_FIELDS = new Set([
  'id',
  'typeID',
  'type',
  'name',
  'displayName',
  'severity',
  'detectedSeverity',
  'isSeverityModified',
  'status',
  'userStatus',
  'categories',
  'context',
  'assetType',
  'assetID',
  'evidence',
  'metadata',
  'firstComputedAt',
  'lastComputedAt',
  'resolvedAt',
  'lastUpdatedAt',
  'events',
]);

const OPERATORS = ['=', '!=', '<', '<=', '>', '>=', 'in', 'not in', 'contains', 'exists'] as const;
type Operator = (typeof OPERATORS)[number];

type Condition =
  | { readonly kind: 'leaf'; readonly field: string; readonly operator: Operator; readonly value: unknown }
  | { readonly kind: 'and'; readonly parts: readonly Condition[] }
  | { readonly kind: 'or'; readonly parts: readonly Condition[] }
  | { readonly kind: 'not'; readonly part: Condition };

function knownField(field: string): boolean {
  const root = field.split('.')[0];
  return SEARCH_FIELDS.has(root) && root !== 'events' && (field === root || ['context', 'evidence'].includes(root));
}

function parseCondition(q: unknown, path: string): Result<Condition> {
  if (!isObject(q)) return invalid(`${path} must be an object {field, operator, value}, or {and: [...]}, {or: [...]}, {not: {...}}.`);
  for (const kind of ['and', 'or'] as const) {
    if (q[kind] !== undefined) {
      const list = q[kind];
      if (!Array.isArray(list) || Object.keys(q).length !== 1) return invalid(`${path}.${kind} must be the only key and hold an array of conditions.`);
      const parts: Condition[] = [];
      for (const [n, x] of list.entries()) {
        const c = parseCondition(x, `${path}.${kind}[${n}]`);
        if (!c.ok) return c;
        parts.push(c.value);
      }
      return ok({ kind, parts });
    }
  }
  if (q.not !== undefined) {
    if (Object.keys(q).length !== 1) return invalid(`${path}.not must be the only key.`);
    const c = parseCondition(q.not, `${path}.not`);
    return c.ok ? ok({ kind: 'not', part: c.value }) : c;
  }
  const { field, operator = '=', value } = q;
  for (const k of Object.keys(q)) if (!['field', 'operator', 'value'].includes(k)) return invalid(`${path}: unknown key '${k}'.`);
  if (typeof field !== 'string' || !knownField(field)) {
    return invalid(`${path}.field ${JSON.stringify(field)} is not a risk instance field; use one of ${[...SEARCH_FIELDS].filter((f) => f !== 'events').join(', ')} (context.* and evidence.* reach inside).`);
  }
  if (typeof operator !== 'string' || !(OPERATORS as readonly string[]).includes(operator.toLowerCase())) {
    return invalid(`${path}.operator ${JSON.stringify(operator)} is not one of ${OPERATORS.join(', ')}.`);
  }
  const op = operator.toLowerCase() as Operator;
  if ((op === 'in' || op === 'not in') && !Array.isArray(value)) return invalid(`${path}.value must be an array for '${op}'.`);
  if (op !== 'exists' && value === undefined) return invalid(`${path}.value is required for '${op}'.`);
  if (field.endsWith('At') && ['<', '<=', '>', '>='].includes(op) && (typeof value !== 'string' || Number.isNaN(Date.parse(value)))) {
    return fail('invalid_request', `${path}.value ${JSON.stringify(value)} is not an RFC 3339 time.`, { asmCode: 10078 });
  }
  return ok({ kind: 'leaf', field, operator: op, value });
}

function valueAt(doc: WireObject, field: string): unknown {
  let node: unknown = doc;
  for (const part of field.split('.')) {
    if (!isObject(node)) return undefined;
    node = node[part];
  }
  return node;
}

function compareValues(field: string, a: unknown, b: unknown): number {
  if (field === 'severity' || field === 'detectedSeverity') return (SEVERITY_RANK[String(a)] ?? -1) - (SEVERITY_RANK[String(b)] ?? -1);
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (field.endsWith('At') && typeof a === 'string' && typeof b === 'string') {
    const x = Date.parse(a);
    const y = Date.parse(b);
    if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function equal(field: string, a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return a.some((x) => equal(field, x, b));
  if (typeof a === 'string' && typeof b === 'string' && !field.endsWith('At')) return a.toLowerCase() === b.toLowerCase();
  if (typeof a === 'number' && typeof b === 'string' && /^-?\d+$/.test(b)) return a === Number(b);
  return compareValues(field, a, b) === 0 && (a === null) === (b === null);
}

function matches(c: Condition, doc: WireObject): boolean {
  if (c.kind === 'and') return c.parts.every((p) => matches(p, doc));
  if (c.kind === 'or') return c.parts.some((p) => matches(p, doc));
  if (c.kind === 'not') return !matches(c.part, doc);
  const v = valueAt(doc, c.field);
  switch (c.operator) {
    case 'exists':
      return c.value === false ? v === undefined || v === null : v !== undefined && v !== null;
    case '=':
      return equal(c.field, v, c.value);
    case '!=':
      return !equal(c.field, v, c.value);
    case 'in':
      return (c.value as unknown[]).some((x) => equal(c.field, v, x));
    case 'not in':
      return !(c.value as unknown[]).some((x) => equal(c.field, v, x));
    case 'contains': {
      const needle = String(c.value).toLowerCase();
      if (Array.isArray(v)) return v.some((x) => String(x).toLowerCase().includes(needle));
      return v !== undefined && v !== null && String(typeof v === 'object' ? JSON.stringify(v) : v).toLowerCase().includes(needle);
    }
    default: {
      if (v === undefined || v === null) return false;
      const d = compareValues(c.field, v, c.value);
      return c.operator === '<' ? d < 0 : c.operator === '<=' ? d <= 0 : c.operator === '>' ? d > 0 : d >= 0;
    }
  }
}

interface SortKey {
  readonly field: string;
  readonly desc: boolean;
}

function parseSort(raw: unknown): Result<SortKey[]> {
  const items = raw === undefined || raw === null ? [] : Array.isArray(raw) ? raw : [raw];
  const out: SortKey[] = [];
  for (const item of items) {
    let field: unknown;
    let dir: unknown = 'asc';
    if (typeof item === 'string') [field, dir = 'asc'] = item.split(':');
    else if (isObject(item) && Object.keys(item).length === 1) [[field, dir]] = Object.entries(item);
    if (typeof field !== 'string' || !knownField(field)) return invalid(`sort: ${JSON.stringify(item)} does not name a risk instance field.`);
    if (typeof dir !== 'string' || !['asc', 'desc'].includes(dir.toLowerCase())) return invalid(`sort: the direction of ${field} must be asc or desc.`);
    out.push({ field, desc: dir.toLowerCase() === 'desc' });
  }
  return ok(out);
}

function project(doc: WireObject, fields: readonly string[]): WireObject {
  const out: WireObject = {};
  for (const f of fields) {
    const v = valueAt(doc, f);
    if (v === undefined) continue;
    const parts = f.split('.');
    let node = out;
    for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as WireObject;
    node[parts[parts.length - 1]] = v;
  }
  return out;
}

export interface RiskSearchResult {
  readonly risks: WireObject[];
  readonly total: number;
  readonly page: number;
  readonly limit: number;
}

const MAX_LIMIT = 10_000;

/** `POST /v2/risk-instances/search` body: `{fields?, limit?, page?, query?, sort?}`. */
export async function searchRiskInstances(ctx: AsmContext, workspaceId: string, body: unknown): Promise<Result<RiskSearchResult>> {
  const b = body === undefined || body === null ? {} : body;
  if (!isObject(b)) return invalid('The search body must be a JSON object {fields, limit, page, query, sort}.');
  for (const k of Object.keys(b)) if (!['fields', 'limit', 'page', 'query', 'sort'].includes(k)) return invalid(`Unknown search key '${k}'; use fields, limit, page, query and sort.`);
  const limit = b.limit ?? 1000;
  const page = b.page ?? 1;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return invalid(`'limit' must be an integer from 1 to ${MAX_LIMIT}.`);
  if (typeof page !== 'number' || !Number.isInteger(page) || page < 1) return invalid("'page' must be an integer of at least 1.");
  let fields: string[] | undefined;
  if (b.fields !== undefined && b.fields !== null) {
    if (!Array.isArray(b.fields) || !b.fields.every((f) => typeof f === 'string')) return invalid("'fields' must be an array of field names.");
    const unknown = b.fields.find((f: string) => !(knownField(f) || f === 'events'));
    if (unknown !== undefined) return invalid(`'fields': ${JSON.stringify(unknown)} is not a risk instance field.`);
    fields = b.fields as string[];
  }
  let condition: Condition | undefined;
  if (b.query !== undefined && b.query !== null) {
    const c = parseCondition(b.query, 'query');
    if (!c.ok) return c;
    condition = c.value;
  }
  const sort = parseSort(b.sort);
  if (!sort.ok) return sort;

  const all = await present(ctx, workspaceId, await ctx.store.asmRisks.listInstances(workspaceId), false);
  const hits = condition ? all.filter((d) => matches(condition, d)) : all;
  const keys = [...sort.value, { field: 'id', desc: false }];
  hits.sort((x, y) => {
    for (const k of keys) {
      const d = compareValues(k.field, valueAt(x, k.field), valueAt(y, k.field));
      if (d !== 0) return k.desc ? -d : d;
    }
    return 0;
  });
  let pageHits = hits.slice((page - 1) * limit, page * limit);
  if (fields?.includes('events') && pageHits.length) {
    const events = await eventsByRisk(ctx, workspaceId, pageHits.map((h) => h.id as number));
    pageHits = pageHits.map((h) => ({ ...h, events: (events.get(h.id as number) ?? []).map(presentRiskEvent) }));
  }
  const risks = fields ? pageHits.map((h) => project(h, fields)) : pageHits;
  return ok({ risks, total: hits.length, page, limit });
}
