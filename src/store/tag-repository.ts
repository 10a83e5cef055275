import type { Kysely, Selectable } from 'kysely';
import type { IndexName } from '../model/field-def.ts';
import type { Database, TagsTable } from './database.ts';
import type { Tag, TagRepository } from './store.ts';
import { parseIntId } from './int-id.ts';
import { nowIso } from './iso-time.ts';

function toTag(row: Selectable<TagsTable>): Tag {
  return {
    id: String(row.id),
    workspaceId: row.workspace_id,
    name: row.name,
    color: row.color,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Tags of a workspace and their assignments to documents. Names are unique per workspace, compared
 * case-sensitively. A tag id of another workspace, or one that is not an integer, is not found.
 */
export class KyselyTagRepository implements TagRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async list(workspaceId: string): Promise<Tag[]> {
    const rows = await this.#db.selectFrom('tags').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
    return rows.map(toTag);
  }

  async create(workspaceId: string, name: string, color: string | null): Promise<Tag | undefined> {
    const now = nowIso();
    const row = await this.#db
      .insertInto('tags')
      .values({ workspace_id: workspaceId, name, color, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['workspace_id', 'name']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return row && toTag(row);
  }

  async get(workspaceId: string, tagId: string): Promise<Tag | undefined> {
    const id = parseIntId(tagId);
    if (id === undefined) return undefined;
    const row = await this.#db
      .selectFrom('tags')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toTag(row);
  }

  async byName(workspaceId: string, name: string): Promise<Tag | undefined> {
    const row = await this.#db
      .selectFrom('tags')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('name', '=', name)
      .executeTakeFirst();
    return row && toTag(row);
  }

  /**
   * Undefined when the tag is not found, and also when `name` belongs to another tag of the
   * workspace (callers tell the two apart with `get`/`byName`).
   */
  async update(workspaceId: string, tagId: string, name: string, color: string | null): Promise<Tag | undefined> {
    const id = parseIntId(tagId);
    if (id === undefined) return undefined;
    return this.#db.transaction().execute(async (trx) => {
      const clash = await trx
        .selectFrom('tags')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('name', '=', name)
        .where('id', '!=', id)
        .executeTakeFirst();
      if (clash) return undefined;
      const row = await trx
        .updateTable('tags')
        .set({ name, color, updated_at: nowIso() })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row && toTag(row);
    });
  }

  async remove(workspaceId: string, tagId: string): Promise<boolean> {
    const id = parseIntId(tagId);
    if (id === undefined) return false;
    return this.#db.transaction().execute(async (trx) => {
      // The foreign key cascades too; deleting explicitly keeps it true even where FKs are off.
      await trx.deleteFrom('tag_assignments').where('workspace_id', '=', workspaceId).where('tag_id', '=', id).execute();
      const r = await trx.deleteFrom('tags').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    });
  }

  /** Idempotent: a second assignment keeps the first tagged_at. Does nothing for an unknown tag. */
  async assign(workspaceId: string, tagId: string, index: IndexName, docId: string): Promise<void> {
    const id = parseIntId(tagId);
    if (id === undefined) return;
    const now = nowIso();
    await this.#db
      .insertInto('tag_assignments')
      .columns(['workspace_id', 'tag_id', 'index_name', 'doc_id', 'tagged_at'])
      .expression((eb) =>
        eb
          .selectFrom('tags')
          .select([
            'tags.workspace_id',
            'tags.id',
            // Typed casts: PostgreSQL cannot infer a bare parameter's type in a select list.
            eb.cast<string>(eb.val(index), 'text').as('index_name'),
            eb.cast<string>(eb.val(docId), 'text').as('doc_id'),
            eb.cast<string>(eb.val(now), 'text').as('tagged_at'),
          ])
          .where('tags.workspace_id', '=', workspaceId)
          .where('tags.id', '=', id),
      )
      .onConflict((oc) => oc.columns(['workspace_id', 'tag_id', 'index_name', 'doc_id']).doNothing())
      .execute();
  }

  async unassign(workspaceId: string, tagId: string, index: IndexName, docId: string): Promise<boolean> {
    const id = parseIntId(tagId);
    if (id === undefined) return false;
    const r = await this.#db
      .deleteFrom('tag_assignments')
      .where('workspace_id', '=', workspaceId)
      .where('tag_id', '=', id)
      .where('index_name', '=', index)
      .where('doc_id', '=', docId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Oldest assignment first. */
  async documents(workspaceId: string, tagId: string, index: IndexName): Promise<{ docId: string; taggedAt: string }[]> {
    const id = parseIntId(tagId);
    if (id === undefined) return [];
    const rows = await this.#db
      .selectFrom('tag_assignments')
      .select(['doc_id', 'tagged_at'])
      .where('workspace_id', '=', workspaceId)
      .where('tag_id', '=', id)
      .where('index_name', '=', index)
      .orderBy('tagged_at')
      .orderBy('doc_id')
      .execute();
    return rows.map((r) => ({ docId: r.doc_id, taggedAt: r.tagged_at }));
  }

  async tagsOf(workspaceId: string, index: IndexName, docId: string): Promise<Tag[]> {
    const rows = await this.#db
      .selectFrom('tag_assignments')
      .innerJoin('tags', 'tags.id', 'tag_assignments.tag_id')
      .selectAll('tags')
      .where('tag_assignments.workspace_id', '=', workspaceId)
      .where('tag_assignments.index_name', '=', index)
      .where('tag_assignments.doc_id', '=', docId)
      .where('tags.workspace_id', '=', workspaceId)
      .orderBy('tags.id')
      .execute();
    return rows.map(toTag);
  }
}
