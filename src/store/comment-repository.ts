import type { Kysely, Selectable } from 'kysely';
import type { IndexName } from '../model/field-def.ts';
import type { CommentsTable, Database } from './database.ts';
import type { Comment, CommentRepository } from './store.ts';
import { parseIntId } from './int-id.ts';
import { nowIso } from './iso-time.ts';

function toComment(row: Selectable<CommentsTable>): Comment {
  return {
    id: String(row.id),
    workspaceId: row.workspace_id,
    index: row.index_name as IndexName,
    docId: row.doc_id,
    authorId: row.author_id,
    contents: row.contents,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Comments on documents. Every operation is scoped by workspace, index and document: a comment of
 * another workspace (or another document) is simply not found.
 */
export class KyselyCommentRepository implements CommentRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  #scoped(workspaceId: string, index: IndexName, docId: string) {
    return this.#db
      .selectFrom('comments')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('index_name', '=', index)
      .where('doc_id', '=', docId);
  }

  async list(workspaceId: string, index: IndexName, docId: string): Promise<Comment[]> {
    const rows = await this.#scoped(workspaceId, index, docId).orderBy('id').execute();
    return rows.map(toComment);
  }

  async get(workspaceId: string, index: IndexName, docId: string, commentId: string): Promise<Comment | undefined> {
    const id = parseIntId(commentId);
    if (id === undefined) return undefined;
    const row = await this.#scoped(workspaceId, index, docId).where('id', '=', id).executeTakeFirst();
    return row && toComment(row);
  }

  async add(workspaceId: string, index: IndexName, docId: string, authorId: string, contents: string): Promise<Comment> {
    const now = nowIso();
    const row = await this.#db
      .insertInto('comments')
      .values({
        workspace_id: workspaceId,
        index_name: index,
        doc_id: docId,
        author_id: authorId,
        contents,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toComment(row);
  }

  async update(
    workspaceId: string,
    index: IndexName,
    docId: string,
    commentId: string,
    contents: string,
  ): Promise<Comment | undefined> {
    const id = parseIntId(commentId);
    if (id === undefined) return undefined;
    const row = await this.#db
      .updateTable('comments')
      .set({ contents, updated_at: nowIso() })
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .where('index_name', '=', index)
      .where('doc_id', '=', docId)
      .returningAll()
      .executeTakeFirst();
    return row && toComment(row);
  }

  async remove(workspaceId: string, index: IndexName, docId: string, commentId: string): Promise<boolean> {
    const id = parseIntId(commentId);
    if (id === undefined) return false;
    const r = await this.#db
      .deleteFrom('comments')
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .where('index_name', '=', index)
      .where('doc_id', '=', docId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
