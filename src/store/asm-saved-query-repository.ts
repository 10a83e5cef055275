import type { Kysely, Selectable } from 'kysely';
import type { AsmSavedQueriesTable, Database } from './database.ts';
import type { AsmSavedQueryRepository, AssetPage, SavedQuery, SavedQueryFilter } from './store.ts';
import { parseIntId } from './int-id.ts';

function toSavedQuery(row: Selectable<AsmSavedQueriesTable>): SavedQuery {
  return {
    id: String(row.id),
    workspaceId: row.workspace_id,
    name: row.query_name,
    query: row.query,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function byName(a: SavedQuery, b: SavedQuery): number {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : Number(a.id) - Number(b.id);
}

/**
 * Filtering and ordering happen here rather than in SQL: a workspace keeps a handful of saved
 * queries, and JavaScript's case folding is the same whatever the dialect (SQLite's `lower` and
 * `like` only fold ASCII, PostgreSQL's follow the locale).
 */
export class KyselyAsmSavedQueryRepository implements AsmSavedQueryRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async list(workspaceId: string, filter: SavedQueryFilter, page: AssetPage): Promise<{ items: SavedQuery[]; total: number }> {
    const rows = await this.#db.selectFrom('asm_saved_queries').selectAll().where('workspace_id', '=', workspaceId).execute();
    const prefix = filter.namePrefix?.toLowerCase();
    const term = filter.term?.toLowerCase();
    const all = rows
      .map(toSavedQuery)
      .filter((q) => prefix === undefined || q.name.toLowerCase().startsWith(prefix))
      .filter((q) => term === undefined || q.name.toLowerCase().includes(term) || q.query.toLowerCase().includes(term))
      .sort(byName);
    return { items: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }

  async get(workspaceId: string, id: string): Promise<SavedQuery | undefined> {
    const n = parseIntId(id);
    if (n === undefined) return undefined;
    const row = await this.#db
      .selectFrom('asm_saved_queries')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', n)
      .executeTakeFirst();
    return row && toSavedQuery(row);
  }

  async add(workspaceId: string, name: string, query: string, at: string): Promise<SavedQuery> {
    const row = await this.#db
      .insertInto('asm_saved_queries')
      .values({ workspace_id: workspaceId, query_name: name, query, created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSavedQuery(row);
  }

  async update(workspaceId: string, id: string, name: string, query: string, at: string): Promise<SavedQuery | undefined> {
    const n = parseIntId(id);
    if (n === undefined) return undefined;
    const row = await this.#db
      .updateTable('asm_saved_queries')
      .set({ query_name: name, query, updated_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', n)
      .returningAll()
      .executeTakeFirst();
    return row && toSavedQuery(row);
  }

  async remove(workspaceId: string, id: string): Promise<boolean> {
    const n = parseIntId(id);
    if (n === undefined) return false;
    const r = await this.#db.deleteFrom('asm_saved_queries').where('workspace_id', '=', workspaceId).where('id', '=', n).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
