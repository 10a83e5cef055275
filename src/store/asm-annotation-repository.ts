import type { Kysely, Selectable } from 'kysely';
import type { AssetType } from '../model/asm-asset.ts';
import type { AsmCommentsTable, AsmTagsTable, Database } from './database.ts';
import type { AsmAnnotationRepository, AsmComment, AsmTag, AssetPage } from './store.ts';

function toComment(row: Selectable<AsmCommentsTable>): AsmComment {
  return {
    commentId: Number(row.id),
    workspaceId: row.workspace_id,
    assetType: row.asset_type as AssetType,
    assetId: row.asset_id,
    markdown: row.markdown,
    createdBy: row.created_by,
    createdOn: row.created_on,
  };
}

function toTag(row: Selectable<AsmTagsTable>): AsmTag {
  return { tagId: Number(row.id), workspaceId: row.workspace_id, label: row.label, color: row.color, createdAt: row.created_at };
}

/** Ids beyond this are not integers a JS number holds exactly, so no row can have them. */
const MAX_ID = 999_999_999_999_999;
const validId = (id: number) => Number.isSafeInteger(id) && id >= 0 && id <= MAX_ID;

// Keeps `in (...)` lists well under SQLite's bound-parameter limit.
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

export class KyselyAsmAnnotationRepository implements AsmAnnotationRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async listComments(workspaceId: string, type: AssetType, assetId: string, page: AssetPage): Promise<{ items: AsmComment[]; total: number }> {
    const base = this.#db
      .selectFrom('asm_comments')
      .where('workspace_id', '=', workspaceId)
      .where('asset_type', '=', type)
      .where('asset_id', '=', assetId);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute(),
      base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toComment), total: Number(count.n) };
  }

  async getComment(workspaceId: string, type: AssetType, assetId: string, commentId: number): Promise<AsmComment | undefined> {
    if (!validId(commentId)) return undefined;
    const row = await this.#db
      .selectFrom('asm_comments')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('asset_type', '=', type)
      .where('asset_id', '=', assetId)
      .where('id', '=', commentId)
      .executeTakeFirst();
    return row && toComment(row);
  }

  async addComment(workspaceId: string, type: AssetType, assetId: string, markdown: string, createdBy: string | null, createdOn: string): Promise<AsmComment> {
    const row = await this.#db
      .insertInto('asm_comments')
      .values({ workspace_id: workspaceId, asset_type: type, asset_id: assetId, markdown, created_by: createdBy, created_on: createdOn })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toComment(row);
  }

  async removeComment(workspaceId: string, type: AssetType, assetId: string, commentId: number): Promise<boolean> {
    if (!validId(commentId)) return false;
    const r = await this.#db
      .deleteFrom('asm_comments')
      .where('workspace_id', '=', workspaceId)
      .where('asset_type', '=', type)
      .where('asset_id', '=', assetId)
      .where('id', '=', commentId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async commentCounts(workspaceId: string, type: AssetType, assetIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const ids of chunks([...new Set(assetIds)])) {
      const rows = await this.#db
        .selectFrom('asm_comments')
        .select(['asset_id', (eb) => eb.fn.countAll().as('n')])
        .where('workspace_id', '=', workspaceId)
        .where('asset_type', '=', type)
        .where('asset_id', 'in', ids)
        .groupBy('asset_id')
        .execute();
      for (const r of rows) out.set(r.asset_id, Number(r.n));
    }
    return out;
  }

  async listTags(workspaceId: string): Promise<AsmTag[]> {
    const rows = await this.#db.selectFrom('asm_tags').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
    return rows.map(toTag);
  }

  async tagAsset(
    workspaceId: string,
    type: AssetType,
    assetId: string,
    label: string,
    color: string | null,
    defaultColor: string,
    at: string,
  ): Promise<AsmTag> {
    return this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto('asm_tags')
        .values({ workspace_id: workspaceId, label, color: color ?? defaultColor, created_at: at })
        .onConflict((oc) => oc.columns(['workspace_id', 'label']).doNothing())
        .execute();
      if (color !== null) {
        await trx.updateTable('asm_tags').set({ color }).where('workspace_id', '=', workspaceId).where('label', '=', label).execute();
      }
      const tag = toTag(
        await trx.selectFrom('asm_tags').selectAll().where('workspace_id', '=', workspaceId).where('label', '=', label).executeTakeFirstOrThrow(),
      );
      await trx
        .insertInto('asm_tag_assignments')
        .values({ workspace_id: workspaceId, tag_id: tag.tagId, asset_type: type, asset_id: assetId, tagged_at: at })
        .onConflict((oc) => oc.columns(['workspace_id', 'asset_type', 'asset_id', 'tag_id']).doNothing())
        .execute();
      return tag;
    });
  }

  async untagAsset(workspaceId: string, type: AssetType, assetId: string, label: string): Promise<boolean> {
    const tag = await this.#db
      .selectFrom('asm_tags')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('label', '=', label)
      .executeTakeFirst();
    if (!tag) return false;
    const r = await this.#db
      .deleteFrom('asm_tag_assignments')
      .where('workspace_id', '=', workspaceId)
      .where('asset_type', '=', type)
      .where('asset_id', '=', assetId)
      .where('tag_id', '=', tag.id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async tagsOf(workspaceId: string, type: AssetType, assetIds: readonly string[]): Promise<Map<string, AsmTag[]>> {
    const out = new Map<string, AsmTag[]>();
    for (const ids of chunks([...new Set(assetIds)])) {
      const rows = await this.#db
        .selectFrom('asm_tag_assignments as a')
        .innerJoin('asm_tags as t', 't.id', 'a.tag_id')
        .select(['a.asset_id', 't.id', 't.workspace_id', 't.label', 't.color', 't.created_at'])
        .where('a.workspace_id', '=', workspaceId)
        .where('a.asset_type', '=', type)
        .where('a.asset_id', 'in', ids)
        .orderBy('t.id')
        .execute();
      for (const r of rows) {
        const list = out.get(r.asset_id) ?? [];
        list.push(toTag(r));
        out.set(r.asset_id, list);
      }
    }
    return out;
  }

  async assetsTagged(workspaceId: string, type: AssetType, tagIds: readonly number[]): Promise<string[]> {
    const ids = [...new Set(tagIds)].filter(validId);
    if (ids.length === 0) return [];
    const found = new Set<string>();
    for (const part of chunks(ids)) {
      const rows = await this.#db
        .selectFrom('asm_tag_assignments')
        .select('asset_id')
        .where('workspace_id', '=', workspaceId)
        .where('asset_type', '=', type)
        .where('tag_id', 'in', part)
        .execute();
      for (const r of rows) found.add(r.asset_id);
    }
    // Byte order, as the asset repository lists.
    return [...found].sort((a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b))));
  }
}
