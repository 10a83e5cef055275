/**
 * Saved hit renderings (`document_hits`, migration 0008): a document as a search hit shows it
 * (the default fields, as JSON text), kept beside the document and tied to the content hash it
 * was made from. A result page then costs one statement and no parsing of whole documents; a
 * rendering made from older content is never served, because every read compares hashes with
 * the current version. Nothing on the write path maintains the table: whoever reads a missing or
 * stale rendering gets the document instead and saves a fresh one.
 */
import { CompiledQuery, type Kysely } from 'kysely';
import type { IndexName } from '../model/field-def.ts';
import type { Database, Dialect } from './database.ts';
import { parseJson } from './database.ts';
import { decodeNulFromPostgres } from './pg-nul.ts';
import type { Json, PageReader, PageRow, SavedHit, StaleHit } from './store.ts';

/** Rows per multi-row statement: 5 parameters each stays far below both dialects' limits. */
const CHUNK = 500;

export class KyselyPageReader implements PageReader {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;
  #hitsText: string | undefined;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  #doc(value: unknown): Json {
    // PostgreSQL hands jsonb back parsed (with NULs escaped, see pg-nul.ts); SQLite hands back text.
    return (this.#dialect === 'postgres' ? decodeNulFromPostgres(value) : parseJson(value)) as Json;
  }

  /**
   * Written as SQL text once per dialect: a page is read on every search, and building the same
   * statement through the query builder cost more than running it.
   */
  #hitsSql(): string {
    const ids = this.#dialect === 'postgres' ? 'd.id = any($3::text[])' : 'd.id in (select value from json_each(?))';
    const p = this.#dialect === 'postgres' ? ['$1', '$2'] : ['?', '?'];
    return (
      'select d.id as id, d.content_hash as content_hash, h.hit as hit, v.doc as doc from documents as d ' +
      `left join document_hits as h on h.index_name = d.index_name and h.id = d.id and h.content_hash = d.content_hash and h.spec = ${p[0]} ` +
      // The document itself only where no current rendering exists.
      'left join document_versions as v on v.index_name = d.index_name and v.id = d.id and v.version = d.version and h.hit is null ' +
      `where d.index_name = ${p[1]} and ${ids}`
    );
  }

  async hits(index: IndexName, ids: readonly string[], spec: string): Promise<PageRow[]> {
    const out: PageRow[] = [];
    const unique = [...new Set(ids)];
    const text = (this.#hitsText ??= this.#hitsSql());
    for (let i = 0; i < unique.length; i += CHUNK) {
      const part = unique.slice(i, i + CHUNK);
      const { rows } = await this.#db.executeQuery<{ id: string; content_hash: string; hit: string | null; doc: unknown }>(
        CompiledQuery.raw(text, [spec, index, this.#dialect === 'postgres' ? part : JSON.stringify(part)]),
      );
      for (const r of rows) {
        if (r.hit !== null) out.push({ id: r.id, contentHash: r.content_hash, hit: r.hit });
        else if (r.doc !== null) out.push({ id: r.id, contentHash: r.content_hash, doc: this.#doc(r.doc) });
      }
    }
    return out;
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
