/**
 * Saved hit renderings (`document_hits`, migration 0008): a document as a search hit shows it
 * (the default fields, as JSON text), kept beside the document and tied to the content hash it
 * was made from. A result page then costs one statement and no parsing of whole documents; a
 * rendering made from older content is never served, because every read compares hashes with
 * the current version. Nothing on the write path maintains the table: whoever reads a missing or
 * stale rendering gets the document instead and saves a fresh one. Hits read are kept in memory
 * (hit-cache.ts) until their document is written again.
 */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { IndexName } from '../model/field-def.ts';
import type { Database, Dialect } from './database.ts';
import { parseJson } from './database.ts';
import { decodeNulFromPostgres } from './pg-nul.ts';
import { SqliteReadConnection } from './sqlite-read-connection.ts';
import { HitCache } from './hit-cache.ts';
import type { Json, PageReader, PageRow, SavedHit, StaleHit } from './store.ts';

/** A page statement's row: id, current content hash, current saved hit or null, document (only without a hit) or null. */
type PageRowValues = [id: string, contentHash: string, hit: string | null, doc: unknown];

/** Rows per multi-row statement: 5 parameters each stays far below both dialects' limits. */
const CHUNK = 500;

export class KyselyPageReader implements PageReader {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;
  #kyselySql: string | undefined;
  readonly #readerSql: string[] = [];
  readonly #cache = new HitCache();
  #readConnection: Promise<SqliteReadConnection | undefined> | undefined;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  #doc(value: unknown): Json {
    // PostgreSQL hands jsonb back parsed (with NULs escaped, see pg-nul.ts); SQLite hands back text.
    return (this.#dialect === 'postgres' ? decodeNulFromPostgres(value) : parseJson(value)) as Json;
  }

  /**
   * A page's statement: for each id that exists, its current content hash, its saved hit if one
   * was made from that content, and only otherwise the document (a CASE, so that the versions
   * table is not searched at all for ids with a current hit). Written as SQL text: a page is read
   * on every search, and building it through the query builder cost more than running it.
   */
  #pageSql(ids: string): string {
    const [spec, index] = this.#dialect === 'postgres' ? ['$1', '$2'] : ['?', '?'];
    return (
      'select d.id as id, d.content_hash as content_hash, h.hit as hit, case when h.hit is null then ' +
      '(select v.doc from document_versions as v where v.index_name = d.index_name and v.id = d.id and v.version = d.version) end as doc ' +
      'from documents as d left join document_hits as h ' +
      `on h.index_name = d.index_name and h.id = d.id and h.content_hash = d.content_hash and h.spec = ${spec} ` +
      `where d.index_name = ${index} and d.id ${ids}`
    );
  }

  /** SQLite on a file reads pages and views on a connection of its own (an in-memory database has no file to share). */
  #reader(): Promise<SqliteReadConnection | undefined> {
    this.#readConnection ??= (async () => {
      if (this.#dialect !== 'sqlite') return undefined;
      const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(this.#db);
      const file = rows.find((r) => r.name === 'main')?.file;
      if (!file) return undefined;
      try {
        return new SqliteReadConnection(file);
      } catch {
        // A file this process may not open a second time (permissions, a lock): the store's connection still reads it.
        return undefined;
      }
    })();
    return this.#readConnection;
  }

  /** Closes the connection of its own, if one was opened; reads after this go through the store's connection. */
  async close(): Promise<void> {
    // Up to 64 M characters of hits: not kept by a closed store that something still references.
    this.#cache.clear();
    const pending = this.#readConnection;
    this.#readConnection = Promise.resolve(undefined);
    (await pending)?.close();
  }

  async #pageRows(index: IndexName, ids: readonly string[], spec: string): Promise<PageRowValues[]> {
    const reader = await this.#reader();
    if (reader) {
      // One prepared statement per number of ids: a list of parameters reads faster than json_each.
      const text = (this.#readerSql[ids.length] ??= this.#pageSql(`in (${new Array<string>(ids.length).fill('?').join(',')})`));
      return reader.rows<PageRowValues>(text, [spec, index, ...ids]);
    }
    const postgres = this.#dialect === 'postgres';
    const text = (this.#kyselySql ??= this.#pageSql(postgres ? '= any($3::text[])' : 'in (select value from json_each(?))'));
    const { rows } = await this.#db.executeQuery<{ id: string; content_hash: string; hit: string | null; doc: unknown }>(
      CompiledQuery.raw(text, [spec, index, postgres ? ids : JSON.stringify(ids)]),
    );
    return rows.map((r): PageRowValues => [r.id, r.content_hash, r.hit, r.doc]);
  }

  async hits(index: IndexName, ids: readonly string[], spec: string): Promise<PageRow[]> {
    const out: PageRow[] = [];
    const missing: string[] = [];
    const now = Date.now();
    for (const id of new Set(ids)) {
      const held = this.#cache.get(index, id, spec, now);
      if (held) out.push({ id, contentHash: held.contentHash, hit: held.hit });
      else missing.push(id);
    }
    for (let i = 0; i < missing.length; i += CHUNK) {
      const generation = this.#cache.generation;
      for (const [id, contentHash, hit, doc] of await this.#pageRows(index, missing.slice(i, i + CHUNK), spec)) {
        if (hit !== null) {
          out.push({ id, contentHash, hit });
          this.#cache.set(index, id, spec, contentHash, hit, generation, now);
        } else if (doc !== null) out.push({ id, contentHash, doc: this.#doc(doc) });
      }
    }
    return out;
  }

  /** Documents `ids` were written or removed: their saved hits held in memory are no longer current. */
  forget(index: IndexName, ids: readonly string[]): void {
    this.#cache.forget(index, ids);
  }

  async saveHits(index: IndexName, spec: string, hits: readonly SavedHit[]): Promise<void> {
    const latest = new Map(hits.map((h) => [h.id, h]));
    const rows = [...latest.values()].map((h) => ({ index_name: index, id: h.id, content_hash: h.contentHash, spec, hit: h.hit }));
    for (let i = 0; i < rows.length; i += CHUNK) {
      await this.#db
        .insertInto('document_hits')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc.columns(['index_name', 'id']).doUpdateSet((eb) => ({
            content_hash: eb.ref('excluded.content_hash'),
            spec: eb.ref('excluded.spec'),
            hit: eb.ref('excluded.hit'),
          })),
        )
        .execute();
    }
  }

  async staleHits(index: IndexName, spec: string, after: string | undefined, window: number): Promise<{ stale: StaleHit[]; last: string | undefined }> {
    // One window of ids per statement, so that no statement walks the whole table at once; the
    // window's rows come back whether stale or not (the last one is the next `after`), with the
    // document only where it is stale.
    const rows = await this.#db
      .with('w', (db) => {
        let q = db.selectFrom('documents').select(['index_name', 'id', 'version', 'content_hash']).where('index_name', '=', index);
        if (after !== undefined) q = q.where('id', '>', after);
        return q.orderBy('id').limit(Math.max(1, Math.floor(window)));
      })
      .selectFrom('w')
      .leftJoin('document_hits as h', (j) =>
        j.onRef('h.index_name', '=', 'w.index_name').onRef('h.id', '=', 'w.id').onRef('h.content_hash', '=', 'w.content_hash').on('h.spec', '=', spec),
      )
      .leftJoin('document_versions as v', (j) =>
        j.onRef('v.index_name', '=', 'w.index_name').onRef('v.id', '=', 'w.id').onRef('v.version', '=', 'w.version').on('h.id', 'is', null),
      )
      .select(['w.id as id', 'w.content_hash as content_hash', 'v.doc as doc'])
      .orderBy('w.id')
      .execute();
    if (rows.length === 0) return { stale: [], last: undefined };
    const stale: StaleHit[] = [];
    for (const r of rows) if (r.doc !== null) stale.push({ id: r.id, contentHash: r.content_hash, doc: this.#doc(r.doc) });
    return { stale, last: rows[rows.length - 1].id };
  }

  async documentJson(index: IndexName, id: string): Promise<string | undefined> {
    const reader = await this.#reader();
    if (reader) {
      const [row] = reader.rows<[doc: string]>(
        'select v.doc from documents as d join document_versions as v on v.index_name = d.index_name and v.id = d.id and v.version = d.version ' +
          'where d.index_name = ? and d.id = ?',
        [index, id],
      );
      return row?.[0];
    }
    const row = await this.#db
      .selectFrom('documents as d')
      .innerJoin('document_versions as v', (j) =>
        j.onRef('v.index_name', '=', 'd.index_name').onRef('v.id', '=', 'd.id').onRef('v.version', '=', 'd.version'),
      )
      .select('v.doc as doc')
      .where('d.index_name', '=', index)
      .where('d.id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    // SQLite's text is canonical JSON, which JSON.parse and JSON.stringify reproduce exactly.
    return typeof row.doc === 'string' ? row.doc : JSON.stringify(this.#doc(row.doc));
  }

  async removeOrphanHits(index: IndexName): Promise<number> {
    const r = await this.#db
      .deleteFrom('document_hits')
      .where('index_name', '=', index)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('documents as d')
              .select('d.id')
              .whereRef('d.index_name', '=', 'document_hits.index_name')
              .whereRef('d.id', '=', 'document_hits.id'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
