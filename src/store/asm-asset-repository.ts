import type { Kysely, Selectable } from 'kysely';
import type { Asset, AssetType, LogbookEvent, NewLogbookEvent, TrailStep } from '../model/asm-asset.ts';
import type { AsmAssetsTable, Database, Dialect } from './database.ts';
import type { AsmAssetRepository, AssetListFilter, AssetPage } from './store.ts';
import { insertEvents, jsonIn, jsonOut, lockLogbook } from './asm-logbook-repository.ts';
import { isoTime } from './iso-time.ts';

// Ten columns a row keeps a chunk well under SQLite's bound-parameter limit.
const CHUNK = 300;
// Id lists bound as parameters stay below both dialects' limits.
const ID_CHUNK = 1000;

function toAsset(dialect: Dialect, row: Selectable<AsmAssetsTable>): Asset {
  return {
    workspaceId: row.workspace_id,
    type: row.type as AssetType,
    assetId: row.asset_id,
    isSeed: Number(row.is_seed) === 1,
    source: row.source,
    associatedAt: row.associated_at,
    updatedAt: row.updated_at,
    trail: jsonOut(dialect, row.trail) as TrailStep[],
    cloud: row.cloud,
    data: jsonOut(dialect, row.data) as Record<string, unknown>,
  };
}

function byteOrder(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
}

/**
 * A workspace's discovered assets. Rows are replaced whole by `apply`; associatedAt is whatever
 * discovery passes (it keeps the first association time across re-evaluations).
 */
export class KyselyAsmAssetRepository implements AsmAssetRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async list(
    workspaceId: string,
    type: AssetType,
    page: AssetPage,
    filter: AssetListFilter = {},
  ): Promise<{ items: Asset[]; total: number }> {
    // Large id filters (tag filters over big workspaces) are applied here rather than bound as
    // thousands of parameters; the page is cut after filtering, so totals stay exact.
    if ((filter.assetIds?.length ?? 0) > ID_CHUNK || (filter.excludeIds?.length ?? 0) > ID_CHUNK) {
      return this.#listInMemory(workspaceId, type, page, filter);
    }
    if (filter.assetIds !== undefined && filter.assetIds.length === 0) return { items: [], total: 0 };
    if (filter.sources !== undefined && filter.sources.length === 0) return { items: [], total: 0 };
    let base = this.#db.selectFrom('asm_assets').where('workspace_id', '=', workspaceId).where('type', '=', type);
    if (filter.assetIds !== undefined) base = base.where('asset_id', 'in', [...filter.assetIds]);
    if (filter.excludeIds !== undefined && filter.excludeIds.length > 0) base = base.where('asset_id', 'not in', [...filter.excludeIds]);
    if (filter.sources !== undefined) base = base.where('source', 'in', [...filter.sources]);
    const countRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const total = Number(countRow?.n ?? 0);
    if (page.limit <= 0 || page.offset >= total) return { items: [], total };
    const rows = await base
      .selectAll()
      .orderBy('asset_id')
      .limit(Math.floor(page.limit))
      .offset(Math.max(0, Math.floor(page.offset)))
      .execute();
    return { items: rows.map((r) => toAsset(this.#dialect, r)), total };
  }

  async #listInMemory(workspaceId: string, type: AssetType, page: AssetPage, filter: AssetListFilter) {
    const only = filter.assetIds && new Set(filter.assetIds);
    const not = new Set(filter.excludeIds ?? []);
    const sources = filter.sources && new Set(filter.sources);
    const rows = await this.#db
      .selectFrom('asm_assets')
      .select(['asset_id', 'source'])
      .where('workspace_id', '=', workspaceId)
      .where('type', '=', type)
      .orderBy('asset_id')
      .execute();
    const ids = rows
      .filter((r) => (!only || only.has(r.asset_id)) && !not.has(r.asset_id) && (!sources || sources.has(r.source)))
      .map((r) => r.asset_id);
    const pageIds = page.limit <= 0 ? [] : ids.slice(Math.max(0, page.offset), Math.max(0, page.offset) + page.limit);
    const items = await this.getMany(workspaceId, type, pageIds);
    return { items, total: ids.length };
  }

  async get(workspaceId: string, type: AssetType, assetId: string): Promise<Asset | undefined> {
    const row = await this.#db
      .selectFrom('asm_assets')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('type', '=', type)
      .where('asset_id', '=', assetId)
      .executeTakeFirst();
    return row && toAsset(this.#dialect, row);
  }

  async getMany(workspaceId: string, type: AssetType, assetIds: readonly string[]): Promise<Asset[]> {
    const unique = [...new Set(assetIds)];
    const out: Asset[] = [];
    for (let i = 0; i < unique.length; i += ID_CHUNK) {
      const rows = await this.#db
        .selectFrom('asm_assets')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('type', '=', type)
        .where('asset_id', 'in', unique.slice(i, i + ID_CHUNK))
        .execute();
      out.push(...rows.map((r) => toAsset(this.#dialect, r)));
    }
    return out.sort((a, b) => byteOrder(a.assetId, b.assetId));
  }

  async ids(workspaceId: string, type: AssetType): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('asm_assets')
      .select('asset_id')
      .where('workspace_id', '=', workspaceId)
      .where('type', '=', type)
      .orderBy('asset_id')
      .execute();
    return rows.map((r) => r.asset_id);
  }

  async count(workspaceId: string, type: AssetType): Promise<number> {
    const row = await this.#db
      .selectFrom('asm_assets')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('type', '=', type)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async apply(
    workspaceId: string,
    changes: { readonly upsert: readonly Asset[]; readonly remove: readonly { type: AssetType; assetId: string }[] },
    events: readonly NewLogbookEvent[],
  ): Promise<LogbookEvent[]> {
    if (changes.upsert.length === 0 && changes.remove.length === 0 && events.length === 0) return [];
    const dialect = this.#dialect;
    return this.#db.transaction().execute(async (trx) => {
      // Taken first, so the asset rows and the events that tell of them commit in logbook order.
      if (events.length > 0) await lockLogbook(trx, dialect);
      const byType = new Map<AssetType, string[]>();
      for (const r of changes.remove) byType.set(r.type, [...(byType.get(r.type) ?? []), r.assetId]);
      for (const [type, ids] of byType) {
        for (let i = 0; i < ids.length; i += ID_CHUNK) {
          await trx
            .deleteFrom('asm_assets')
            .where('workspace_id', '=', workspaceId)
            .where('type', '=', type)
            .where('asset_id', 'in', ids.slice(i, i + ID_CHUNK))
            .execute();
        }
      }
      // A repeated key within one statement would fail PostgreSQL's ON CONFLICT; the last one wins.
      const latest = new Map<string, Asset>();
      for (const a of changes.upsert) latest.set(`${a.type}\u0000${a.assetId}`, a);
      const upsert = [...latest.values()];
      for (let i = 0; i < upsert.length; i += CHUNK) {
        await trx
          .insertInto('asm_assets')
          .values(
            upsert.slice(i, i + CHUNK).map((a) => ({
              workspace_id: workspaceId,
              type: a.type,
              asset_id: a.assetId,
              is_seed: a.isSeed ? 1 : 0,
              source: a.source,
              associated_at: isoTime(a.associatedAt),
              updated_at: isoTime(a.updatedAt),
              trail: jsonIn(dialect, a.trail),
              cloud: a.cloud,
              data: jsonIn(dialect, a.data),
            })),
          )
          .onConflict((oc) =>
            oc.columns(['workspace_id', 'type', 'asset_id']).doUpdateSet((eb) => ({
              is_seed: eb.ref('excluded.is_seed'),
              source: eb.ref('excluded.source'),
              associated_at: eb.ref('excluded.associated_at'),
              updated_at: eb.ref('excluded.updated_at'),
              trail: eb.ref('excluded.trail'),
              cloud: eb.ref('excluded.cloud'),
              data: eb.ref('excluded.data'),
            })),
          )
          .execute();
      }
      return events.length > 0 ? insertEvents(trx, dialect, workspaceId, events) : [];
    });
  }
}
