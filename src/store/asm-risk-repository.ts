import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type {
  NewRiskEvent,
  NewRiskInstance,
  RiskAssetType,
  RiskEvent,
  RiskInstance,
  RiskInstanceChange,
  RiskSeverity,
  RiskStatus,
  RiskTypeSetting,
} from '../model/asm-risk.ts';
import { parseJson, type AsmRiskEventsTable, type AsmRiskInstancesTable, type AsmRiskTypeSettingsTable, type Database, type Dialect } from './database.ts';
import type { AsmRiskRepository, RiskEventQuery, RiskInstanceFilter } from './store.ts';
import { decodeNulFromPostgres, encodeNulForPostgres } from './pg-nul.ts';
import { isoTime } from './iso-time.ts';

/**
 * Every risk-event writer takes this lock until its transaction ends: PostgreSQL draws identity
 * values at insert time, so without it a writer holding id 7 could commit after one holding 8 and
 * a reader paging by `afterID` past 8 would never see 7. SQLite has a single writer already.
 */
const RISK_EVENTS_LOCK = 7_305_218_431_006;

// Twenty columns a row keeps a chunk well under SQLite's bound-parameter limit.
const CHUNK = 200;

/** Ids beyond this are not integers a JS number holds exactly, so no row can have them. */
const MAX_ID = 999_999_999_999_999;

function validId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 0 && id <= MAX_ID;
}

function jsonIn(dialect: Dialect, value: unknown): string {
  const text = JSON.stringify(value);
  return dialect === 'postgres' ? encodeNulForPostgres(text) : text;
}

function jsonOut(dialect: Dialect, value: unknown): unknown {
  const parsed = parseJson(value);
  return dialect === 'postgres' ? decodeNulFromPostgres(parsed) : parsed;
}

function toInstance(dialect: Dialect, r: Selectable<AsmRiskInstancesTable>): RiskInstance {
  const categories = r.categories === null || r.categories === undefined ? null : (jsonOut(dialect, r.categories) as string[]);
  return {
    id: Number(r.id),
    workspaceId: r.workspace_id,
    typeId: r.type_id,
    identity: r.identity,
    assetType: r.asset_type as RiskAssetType,
    assetId: r.asset_id,
    context: jsonOut(dialect, r.context) as Record<string, unknown>,
    title: r.title,
    severity: r.severity as NewRiskInstance['severity'],
    severityOverride: (r.severity_override ?? null) as RiskSeverity | null,
    status: r.status as RiskStatus,
    userStatus: r.user_status ?? null,
    categories,
    metadata: jsonOut(dialect, r.metadata) as Record<string, unknown>[],
    evidence: jsonOut(dialect, r.evidence) as Record<string, unknown>,
    cloud: r.cloud ?? null,
    firstComputedAt: r.first_computed_at,
    lastComputedAt: r.last_computed_at,
    resolvedAt: r.resolved_at ?? null,
    updatedAt: r.updated_at,
  };
}

function toEvent(dialect: Dialect, r: Selectable<AsmRiskEventsTable>): RiskEvent {
  return {
    id: Number(r.id),
    workspaceId: r.workspace_id,
    ts: r.ts,
    op: r.op,
    src: r.src,
    srcId: r.src_id,
    riskId: r.risk_id === null || r.risk_id === undefined ? null : Number(r.risk_id),
    riskType: r.risk_type,
    reason: r.reason,
    delta: jsonOut(dialect, r.delta) as Record<string, unknown>,
  };
}

function toSetting(dialect: Dialect, r: Selectable<AsmRiskTypeSettingsTable>): RiskTypeSetting {
  return {
    type: r.type,
    enabled: r.enabled === null || r.enabled === undefined ? null : Number(r.enabled) === 1,
    severity: (r.severity ?? null) as RiskTypeSetting['severity'],
    categories: r.categories === null || r.categories === undefined ? null : (jsonOut(dialect, r.categories) as string[]),
    config: r.config ?? null,
    lastDisableReason: r.last_disable_reason ?? null,
    lastSeverityChangeReason: r.last_severity_change_reason ?? null,
    updatedAt: r.updated_at,
  };
}

export class KyselyAsmRiskRepository implements AsmRiskRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async listInstances(workspaceId: string, filter: RiskInstanceFilter = {}): Promise<RiskInstance[]> {
    if (filter.ids !== undefined && filter.ids.filter(validId).length === 0) return [];
    if (filter.assetIds !== undefined && filter.assetIds.length === 0) return [];
    const run = async (assetIds?: readonly string[]) => {
      let q = this.#db.selectFrom('asm_risk_instances').selectAll().where('workspace_id', '=', workspaceId);
      if (filter.ids !== undefined) q = q.where('id', 'in', filter.ids.filter(validId));
      if (filter.typeId !== undefined) q = q.where('type_id', '=', filter.typeId);
      if (filter.assetType !== undefined) q = q.where('asset_type', '=', filter.assetType);
      if (filter.status !== undefined) q = q.where('status', '=', filter.status);
      if (assetIds !== undefined) q = q.where('asset_id', 'in', [...assetIds]);
      return (await q.orderBy('id').execute()).map((r) => toInstance(this.#dialect, r));
    };
    if (filter.assetIds === undefined) return run();
    const out: RiskInstance[] = [];
    for (let i = 0; i < filter.assetIds.length; i += CHUNK) out.push(...(await run(filter.assetIds.slice(i, i + CHUNK))));
    return out.sort((a, b) => a.id - b.id);
  }

  async getInstance(workspaceId: string, id: number): Promise<RiskInstance | undefined> {
    if (!validId(id)) return undefined;
    const row = await this.#db
      .selectFrom('asm_risk_instances')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toInstance(this.#dialect, row);
  }

  async write(
    workspaceId: string,
    changes: { readonly insert: readonly NewRiskInstance[]; readonly update: readonly RiskInstanceChange[]; readonly touch?: readonly number[] },
    events: readonly NewRiskEvent[],
    at: string,
  ): Promise<{ inserted: RiskInstance[]; events: RiskEvent[] }> {
    const d = this.#dialect;
    const updatedAt = isoTime(at);
    return this.#db.transaction().execute(async (trx) => {
      const inserted: RiskInstance[] = [];
      for (let i = 0; i < changes.insert.length; i += CHUNK) {
        const rows = await trx
          .insertInto('asm_risk_instances')
          .values(
            changes.insert.slice(i, i + CHUNK).map((r) => ({
              workspace_id: workspaceId,
              type_id: r.typeId,
              identity: r.identity,
              asset_type: r.assetType,
              asset_id: r.assetId,
              context: jsonIn(d, r.context),
              title: r.title,
              severity: r.severity,
              severity_override: null,
              status: r.status,
              user_status: null,
              categories: null,
              metadata: '[]',
              evidence: jsonIn(d, r.evidence),
              cloud: r.cloud,
              first_computed_at: isoTime(r.firstComputedAt),
              last_computed_at: isoTime(r.lastComputedAt),
              resolved_at: r.resolvedAt === null ? null : isoTime(r.resolvedAt),
              updated_at: updatedAt,
            })),
          )
          .returningAll()
          .execute();
        inserted.push(...rows.map((r) => toInstance(d, r)));
      }
      for (const c of changes.update) {
        if (!validId(c.id)) continue;
        const set: Record<string, unknown> = { updated_at: updatedAt };
        if (c.context !== undefined) set.context = jsonIn(d, c.context);
        if (c.title !== undefined) set.title = c.title;
        if (c.severity !== undefined) set.severity = c.severity;
        if (c.evidence !== undefined) set.evidence = jsonIn(d, c.evidence);
        if (c.cloud !== undefined) set.cloud = c.cloud;
        if (c.status !== undefined) set.status = c.status;
        if (c.lastComputedAt !== undefined) set.last_computed_at = isoTime(c.lastComputedAt);
        if (c.resolvedAt !== undefined) set.resolved_at = c.resolvedAt === null ? null : isoTime(c.resolvedAt);
        if (c.severityOverride !== undefined) set.severity_override = c.severityOverride;
        if (c.userStatus !== undefined) set.user_status = c.userStatus;
        if (c.categories !== undefined) set.categories = c.categories === null ? null : jsonIn(d, c.categories);
        if (c.metadata !== undefined) set.metadata = jsonIn(d, c.metadata);
        await trx.updateTable('asm_risk_instances').set(set).where('workspace_id', '=', workspaceId).where('id', '=', c.id).execute();
      }
      const touch = (changes.touch ?? []).filter(validId);
      for (let i = 0; i < touch.length; i += CHUNK * 4) {
        await trx
          .updateTable('asm_risk_instances')
          .set({ last_computed_at: updatedAt })
          .where('workspace_id', '=', workspaceId)
          .where('id', 'in', touch.slice(i, i + CHUNK * 4))
          .execute();
      }
      const ids = new Map(inserted.map((r) => [r.identity, r.id]));
      const written = await insertEvents(trx, d, workspaceId, events, ids);
      return { inserted, events: written };
    });
  }

  async readEvents(workspaceId: string, query: RiskEventQuery): Promise<RiskEvent[]> {
    if (query.limit !== undefined && query.limit <= 0) return [];
    const q = this.#eventQuery(workspaceId, query);
    if (!q) return [];
    const rows = await (query.limit !== undefined ? q.selectAll().orderBy('id').limit(Math.floor(query.limit)) : q.selectAll().orderBy('id')).execute();
    return rows.map((r) => toEvent(this.#dialect, r));
  }

  async countEvents(workspaceId: string, query: Omit<RiskEventQuery, 'limit'>): Promise<number> {
    const q = this.#eventQuery(workspaceId, query);
    if (!q) return 0;
    const row = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  #eventQuery(workspaceId: string, query: Omit<RiskEventQuery, 'limit'>) {
    if (query.afterId !== undefined && !(query.afterId < MAX_ID)) return undefined;
    if (query.riskIds !== undefined && query.riskIds.filter(validId).length === 0) return undefined;
    let q = this.#db.selectFrom('asm_risk_events').where('workspace_id', '=', workspaceId);
    if (query.afterId !== undefined) q = q.where('id', '>', Math.max(0, Math.floor(query.afterId)));
    if (query.start !== undefined) q = q.where('ts', '>=', isoTime(query.start));
    if (query.end !== undefined) q = q.where('ts', '<=', isoTime(query.end));
    if (query.riskIds !== undefined) q = q.where('risk_id', 'in', query.riskIds.filter(validId));
    if (query.riskType !== undefined) q = q.where('risk_type', '=', query.riskType);
    return q;
  }

  async typeSettings(workspaceId: string): Promise<RiskTypeSetting[]> {
    const rows = await this.#db.selectFrom('asm_risk_type_settings').selectAll().where('workspace_id', '=', workspaceId).orderBy('type').execute();
    return rows.map((r) => toSetting(this.#dialect, r));
  }

  async putTypeSetting(workspaceId: string, setting: RiskTypeSetting, events: readonly NewRiskEvent[]): Promise<RiskEvent[]> {
    const d = this.#dialect;
    const row = {
      enabled: setting.enabled === null ? null : setting.enabled ? 1 : 0,
      severity: setting.severity,
      categories: setting.categories === null ? null : jsonIn(d, setting.categories),
      config: setting.config,
      last_disable_reason: setting.lastDisableReason,
      last_severity_change_reason: setting.lastSeverityChangeReason,
      updated_at: isoTime(setting.updatedAt),
    };
    return this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto('asm_risk_type_settings')
        .values({ workspace_id: workspaceId, type: setting.type, ...row })
        .onConflict((oc) => oc.columns(['workspace_id', 'type']).doUpdateSet(row))
        .execute();
      return insertEvents(trx, d, workspaceId, events, new Map());
    });
  }
}

async function insertEvents(
  trx: Transaction<Database>,
  dialect: Dialect,
  workspaceId: string,
  events: readonly NewRiskEvent[],
  newIds: ReadonlyMap<string, number>,
): Promise<RiskEvent[]> {
  if (events.length === 0) return [];
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${sql.lit(RISK_EVENTS_LOCK)})`.execute(trx);
  const out: RiskEvent[] = [];
  for (let i = 0; i < events.length; i += CHUNK) {
    const rows = await trx
      .insertInto('asm_risk_events')
      .values(
        events.slice(i, i + CHUNK).map((e) => ({
          workspace_id: workspaceId,
          ts: isoTime(e.ts),
          op: e.op,
          src: e.src,
          src_id: e.srcId,
          risk_id: e.riskId ?? (e.riskIdentity !== undefined ? newIds.get(e.riskIdentity) ?? null : null),
          risk_type: e.riskType,
          reason: e.reason,
          delta: jsonIn(dialect, e.delta),
        })),
      )
      .returningAll()
      .execute();
    // Multi-row inserts draw ids in VALUES order in both dialects; sorting makes that explicit.
    out.push(...rows.map((r) => toEvent(dialect, r)).sort((a, b) => a.id - b.id));
  }
  return out;
}
