/**
 * Documents (hosts, certificates) with their full history.
 *
 * `document_versions` holds every version, including the current one, and is the only table that
 * holds document text; `documents` points at the current version of each id (its number, hash and
 * valid_from; its `doc` column is left empty since migration 0003, so each version is written once). Version numbers always follow valid_from order: a late observation
 * (older than the current version) that changes history is inserted at its place and the versions
 * after it are renumbered up by one, so "version n" is always the n-th state in time. Consequences:
 * - a late observation equal to the version current at its time writes nothing (`unchanged`);
 * - a late observation equal to the next version moves that version's valid_from back to the
 *   observation time (the state was seen earlier than first recorded) and reports `updated` with
 *   that version's number;
 * - otherwise it becomes a new version in the middle of history, reported as `updated` with its own
 *   (historical) number; the current document keeps its content but its version number grows by one.
 * Observations at the same time as the latest version, with different content, become a new
 * current version (later writes win ties).
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Transaction } from 'kysely';
import type { IndexName } from '../model/field-def.ts';
import type { DocumentRepository, Json, PutManyItem, PutResult, StoredDocument } from './store.ts';
import { canonicalJson, canonicalJsonOfData } from './canonical-json.ts';
import { decodeNulFromPostgres, encodeNulForPostgres } from './pg-nul.ts';
import { hash as cryptoHash } from 'node:crypto';
import { parseJson, type Database, type Dialect } from './database.ts';
import { isoTime } from './iso-time.ts';

/** Rows per multi-row statement: 6 parameters each stays far below both dialects' limits. */
const CHUNK = 500;

interface Head {
  version: number;
  hash: string;
  validFrom: string;
}

/** An input document, serialised and hashed. */
interface Prepared {
  id: string;
  /** UTF-8 bytes only on the writer thread's own connection (RawWrites), which stores them as text. */
  text: string | Buffer;
  hash: string;
  at: string;
  /** A `raw` text's: whether it parsed to JSON data (PutResult.jsonData). */
  data?: boolean;
}

interface VersionRow {
  index_name: string;
  id: string;
  version: number;
  doc: string | Buffer;
  content_hash: string;
  valid_from: string;
}

type Db = Kysely<Database> | Transaction<Database>;

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}

/** The current version's columns: the pointer row joined to its version. */
function currentRows(db: Db, index: IndexName) {
  return db
    .selectFrom('documents as d')
    .innerJoin('document_versions as v', (j) =>
      j.onRef('v.index_name', '=', 'd.index_name').onRef('v.id', '=', 'd.id').onRef('v.version', '=', 'd.version'),
    )
    .select(['d.id as id', 'd.version as version', 'v.doc as doc', 'd.valid_from as valid_from'])
    .where('d.index_name', '=', index);
}

function toStored(row: { id: string; version: number | string; doc: unknown; valid_from: string }): StoredDocument {
  // PostgreSQL hands jsonb back parsed; SQLite hands back text.
  const doc = typeof row.doc === 'string' ? parseJson(row.doc) : decodeNulFromPostgres(row.doc);
  return { id: row.id, version: Number(row.version), doc: doc as Json, validFrom: row.valid_from };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export class KyselyDocumentRepository implements DocumentRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;
  /**
   * Writes of this process run one at a time: two batches touching the same id would otherwise
   * both read the same current version and collide on the next version number. Across processes
   * (PostgreSQL), existing rows are locked while a batch runs; two processes creating the same new
   * id at once still make one of them fail, to be retried.
   */
  #writes: Promise<unknown> = Promise.resolve();
  /** While set, putMany runs in this thread's connection (startWriterThread). */
  #thread: WriterThread | undefined;
  /**
   * The writer thread's own SQLite connection (the one under #db): its inserts run as statements
   * prepared once, where Kysely compiles and prepares a multi-row statement for every chunk.
   */
  readonly #raw: RawWrites | undefined;

  constructor(db: Kysely<Database>, dialect: Dialect, raw?: BetterSqlite3.Database) {
    this.#db = db;
    this.#dialect = dialect;
    this.#raw = raw && new RawWrites(raw);
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(work, work);
    this.#writes = run.catch(() => undefined);
    return run;
  }

  async put(index: IndexName, id: string, doc: PutManyItem['doc'], observedAt: string): Promise<PutResult> {
    const [result] = await this.putMany(index, [{ id, doc, observedAt }]);
    return result;
  }

  /** Told when documents were written or removed, after the write (KyselyStore: the in-memory hits forget them). */
  onWritten: ((index: IndexName, ids: readonly string[]) => void) | undefined;

  #written<T>(index: IndexName, ids: () => readonly string[], write: Promise<T>): Promise<T> {
    const onWritten = this.onWritten;
    if (!onWritten) return write;
    // Also after a failed write: it may have committed before failing to answer.
    return write.finally(() => onWritten(index, ids()));
  }

  async putMany(index: IndexName, items: readonly PutManyItem[]): Promise<PutResult[]> {
    if (items.length === 0) return [];
    if (this.#thread) {
      const thread = this.#thread;
      return this.#written(
        index,
        () => items.map((it) => it.id),
        this.#serial(() => (this.#thread === thread ? thread.putMany(index, items) : this.#putHere(index, items))),
      );
    }
    return this.#putHere(index, items);
  }

  async #putHere(index: IndexName, items: readonly PutManyItem[]): Promise<PutResult[]> {
    return this.putTexts(index, items.map((item) => ({ id: item.id, text: item.canonical ?? canonicalJson(item.doc), observedAt: item.observedAt })));
  }

  /** putMany of documents as JSON text (what the writer thread receives), canonical unless marked `raw`. */
  putTexts(index: IndexName, items: readonly DocumentText[]): Promise<PutResult[]> {
    // Hashing happens before the transaction opens, to keep it short.
    const prepared = items.map((item): Prepared => {
      // JSON data serialised in its own key order: parsed back, it canonicalises as the document did.
      const parsed = item.raw ? canonicalJsonOfData(JSON.parse(textOf(item.text))) : undefined;
      let text: string | Buffer = parsed ? parsed.text : bufferOrText(item.text);
      // Statements other than RawWrites' bind strings (a Buffer would be stored as a blob); on
      // PostgreSQL, #raw is never set.
      if (!this.#raw && typeof text !== 'string') text = text.toString('utf8');
      return {
        id: item.id,
        text: this.#dialect === 'postgres' ? encodeNulForPostgres(text as string) : text,
        // One-shot: a Hash object per document cost more than the digest of its few KB.
        hash: cryptoHash('sha256', text, 'hex'),
        at: isoTime(item.observedAt),
        ...(parsed ? { data: parsed.data } : {}),
      };
    });
    const ids = [...new Set(prepared.map((p) => p.id))].sort();
    return this.#written(index, () => ids, this.#serial(() => this.#db.transaction().execute((trx) => this.#apply(trx, index, ids, prepared))));
  }

  /**
   * Moves putMany (serialising, hashing, the SQLite statements) to a worker thread with its own
   * connection to the same SQLite file, so that a long ingest overlaps its writes with parsing and
   * merging on the main thread. Writes keep their order (they stay in this repository's queue);
   * reads stay on the main connection and see each write once its promise has resolved.
   * Returns the function that stops the thread after the pending writes. PostgreSQL, whose
   * queries are already asynchronous, and in-memory SQLite get a no-op.
   */
  async startWriterThread(): Promise<() => Promise<void>> {
    if (this.#dialect !== 'sqlite' || this.#thread) return async () => undefined;
    const rows = await sql<{ name: string; file: string }>`pragma database_list`.execute(this.#db);
    const file = rows.rows.find((r) => r.name === 'main')?.file;
    if (!file) return async () => undefined;
    const thread = await WriterThread.start(file);
    // Writes already queued finish on this connection first.
    await this.#serial(async () => {
      this.#thread = thread;
    });
    return async () => {
      await this.#serial(async () => {
        if (this.#thread === thread) this.#thread = undefined;
      });
      await thread.stop();
    };
  }

  async #apply(
    trx: Transaction<Database>,
    index: IndexName,
    ids: readonly string[],
    prepared: readonly Prepared[],
  ): Promise<PutResult[]> {
    const heads = await this.#heads(trx, index, ids, true);
    const versions: VersionRow[] = [];
    const current = new Map<string, VersionRow>();
    const flush = async () => {
      await this.#write(trx, versions.splice(0), [...current.values()]);
      current.clear();
    };
    const results: PutResult[] = [];
    for (const p of prepared) {
      const head = heads.get(p.id);
      if (head && p.at < head.validFrom) {
        // Rare: history is edited in place, so everything pending must be in the tables first.
        await flush();
        results.push(await this.#putLate(trx, index, p.id, textOf(p.text), p.hash, p.at));
        const fresh = await this.#heads(trx, index, [p.id]);
        heads.set(p.id, fresh.get(p.id)!);
        continue;
      }
      if (head && head.hash === p.hash) {
        results.push({ outcome: 'unchanged', version: head.version });
        continue;
      }
      const version = head ? head.version + 1 : 1;
      const row: VersionRow = {
        index_name: index,
        id: p.id,
        version,
        doc: p.text,
        content_hash: p.hash,
        valid_from: p.at,
      };
      versions.push(row);
      current.set(p.id, row);
      heads.set(p.id, { version, hash: p.hash, validFrom: p.at });
      results.push(p.data === undefined ? { outcome: head ? 'updated' : 'created', version } : { outcome: head ? 'updated' : 'created', version, jsonData: p.data });
    }
    await flush();
    return results;
  }

  async #heads(db: Db, index: IndexName, ids: readonly string[], lock = false): Promise<Map<string, Head>> {
    const heads = new Map<string, Head>();
    for (const part of chunks(ids, CHUNK)) {
      let q = db
        .selectFrom('documents')
        .select(['id', 'version', 'content_hash', 'valid_from'])
        .where('index_name', '=', index)
        .where('id', 'in', part);
      // SQLite has no row locks (nor the syntax); its single writer already serialises batches.
      if (lock && this.#dialect === 'postgres') q = q.forUpdate();
      const rows = await q.execute();
      for (const r of rows) heads.set(r.id, { version: Number(r.version), hash: r.content_hash, validFrom: r.valid_from });
    }
    return heads;
  }

  async #write(db: Db, versions: readonly VersionRow[], current: readonly VersionRow[]): Promise<void> {
    if (this.#raw) return this.#raw.write(versions, current);
    for (const part of chunks(versions, CHUNK)) {
      // Only RawWrites takes bytes (putTexts turns them into text for every other connection).
      await db.insertInto('document_versions').values(part as (VersionRow & { doc: string })[]).execute();
    }
    for (const part of chunks(current, CHUNK)) {
      await db
        .insertInto('documents')
        // The text is in document_versions only (migration 0003).
        .values(part.map((r) => ({ ...r, doc: sql<string>`null` })))
        .onConflict((oc) =>
          oc.columns(['index_name', 'id']).doUpdateSet((eb) => ({
            version: eb.ref('excluded.version'),
            content_hash: eb.ref('excluded.content_hash'),
            valid_from: eb.ref('excluded.valid_from'),
          })),
        )
        .execute();
    }
  }

  /** An observation older than the current version: see the file comment for the rules. */
  async #putLate(db: Db, index: IndexName, id: string, text: string, hash: string, at: string): Promise<PutResult> {
    const rows = await db
      .selectFrom('document_versions')
      .select(['version', 'content_hash', 'valid_from'])
      .where('index_name', '=', index)
      .where('id', '=', id)
      .orderBy('version')
      .execute();
    const position = rows.filter((r) => r.valid_from <= at).length;
    const prev = rows[position - 1];
    const next = rows[position];
    if (prev && prev.content_hash === hash) return { outcome: 'unchanged', version: Number(prev.version) };
    const nextVersion = Number(next.version);
    const isCurrent = position === rows.length - 1;
    if (next.content_hash === hash) {
      await db
        .updateTable('document_versions')
        .set({ valid_from: at })
        .where('index_name', '=', index)
        .where('id', '=', id)
        .where('version', '=', nextVersion)
        .execute();
      if (isCurrent) {
        await db.updateTable('documents').set({ valid_from: at }).where('index_name', '=', index).where('id', '=', id).execute();
      }
      return { outcome: 'updated', version: nextVersion };
    }
    // Shift through negative numbers so no intermediate state collides with the primary key.
    await db
      .updateTable('document_versions')
      .set({ version: sql<number>`-(${sql.ref('version')} + 1)` })
      .where('index_name', '=', index)
      .where('id', '=', id)
      .where('version', '>=', nextVersion)
      .execute();
    await db
      .updateTable('document_versions')
      .set({ version: sql<number>`-${sql.ref('version')}` })
      .where('index_name', '=', index)
      .where('id', '=', id)
      .where('version', '<', 0)
      .execute();
    await db
      .insertInto('document_versions')
      .values({ index_name: index, id, version: nextVersion, doc: text, content_hash: hash, valid_from: at })
      .execute();
    await db
      .updateTable('documents')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('index_name', '=', index)
      .where('id', '=', id)
      .execute();
    return { outcome: 'updated', version: nextVersion };
  }

  async get(index: IndexName, id: string): Promise<StoredDocument | undefined> {
    const row = await currentRows(this.#db, index).where('d.id', '=', id).executeTakeFirst();
    return row && toStored(row);
  }

  async getMany(index: IndexName, ids: readonly string[]): Promise<StoredDocument[]> {
    const out: StoredDocument[] = [];
    for (const part of chunks([...new Set(ids)], CHUNK)) {
      const rows = await currentRows(this.#db, index).where('d.id', 'in', part).execute();
      for (const r of rows) out.push(toStored(r));
    }
    return out;
  }

  async getAt(index: IndexName, id: string, at: string): Promise<StoredDocument | undefined> {
    const row = await this.#db
      .selectFrom('document_versions')
      .select(['id', 'version', 'doc', 'valid_from'])
      .where('index_name', '=', index)
      .where('id', '=', id)
      .where('valid_from', '<=', isoTime(at))
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && toStored(row);
  }

  async history(index: IndexName, id: string, range?: { from?: string; to?: string }): Promise<StoredDocument[]> {
    let q = this.#db
      .selectFrom('document_versions')
      .select(['id', 'version', 'doc', 'valid_from'])
      .where('index_name', '=', index)
      .where('id', '=', id);
    if (range?.from !== undefined) q = q.where('valid_from', '>=', isoTime(range.from));
    if (range?.to !== undefined) q = q.where('valid_from', '<', isoTime(range.to));
    const rows = await q.orderBy('version').execute();
    return rows.map(toStored);
  }

  async idsWithPrefix(index: IndexName, prefix: string, limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    // SQLite's LIKE is made case-sensitive per connection (open-store.ts), PostgreSQL's already is.
    const rows = await this.#db
      .selectFrom('documents')
      .select('id')
      .where('index_name', '=', index)
      .where(sql<boolean>`${sql.ref('id')} like ${likeEscape(prefix) + '%'} escape '\\'`)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  async *scan(index: IndexName, batchSize: number): AsyncIterable<StoredDocument[]> {
    const size = Math.max(1, Math.floor(batchSize));
    let after: string | undefined;
    for (;;) {
      let q = currentRows(this.#db, index);
      if (after !== undefined) q = q.where('d.id', '>', after);
      const rows = await q.orderBy('d.id').limit(size).execute();
      if (rows.length === 0) return;
      yield rows.map(toStored);
      if (rows.length < size) return;
      after = rows[rows.length - 1].id;
    }
  }

  async count(index: IndexName): Promise<number> {
    const row = await this.#db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('index_name', '=', index)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Removes the document and its whole history: a removed id starts again at version 1. */
  async remove(index: IndexName, id: string): Promise<boolean> {
    return this.#written(
      index,
      () => [id],
      this.#serial(() =>
        this.#db.transaction().execute(async (trx) => {
          await trx.deleteFrom('document_versions').where('index_name', '=', index).where('id', '=', id).execute();
          const r = await trx.deleteFrom('documents').where('index_name', '=', index).where('id', '=', id).executeTakeFirst();
          return Number(r.numDeletedRows) > 0;
        }),
      ),
    );
  }
}

/**
 * A document as JSON text: canonical, or (`raw`) JSON data in any key order, canonicalised by
 * putTexts. Canonical text may come as its UTF-8 bytes (PutManyItem.canonicalUtf8).
 */
interface DocumentText {
  id: string;
  text: string | Uint8Array;
  observedAt: string;
  raw?: true;
}

function textOf(text: string | Uint8Array): string {
  return typeof text === 'string' ? text : bufferOrText(text).toString('utf8');
}

/** A string as it is; bytes as a Buffer over the same memory (what better-sqlite3 binds, and what arrives from another thread is a plain Uint8Array). */
function bufferOrText(text: string | Uint8Array): string | Buffer {
  return typeof text === 'string' || Buffer.isBuffer(text) ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
}

/** #write's statements, prepared once on the writer thread's connection; same SQL as Kysely's. */
class RawWrites {
  readonly #version: BetterSqlite3.Statement;
  readonly #current: BetterSqlite3.Statement;

  constructor(raw: BetterSqlite3.Database) {
    // The text may be bound as UTF-8 bytes (a blob), which the cast stores as text; a string is
    // stored as it is.
    this.#version = raw.prepare(
      'insert into "document_versions" ("index_name", "id", "version", "doc", "content_hash", "valid_from") values (?, ?, ?, cast(? as text), ?, ?)',
    );
    // The text is in document_versions only (migration 0003).
    this.#current = raw.prepare(
      'insert into "documents" ("index_name", "id", "version", "doc", "content_hash", "valid_from") values (?, ?, ?, null, ?, ?) ' +
        'on conflict ("index_name", "id") do update set "version" = "excluded"."version", "content_hash" = "excluded"."content_hash", "valid_from" = "excluded"."valid_from"',
    );
  }

  write(versions: readonly VersionRow[], current: readonly VersionRow[]): void {
    for (const r of versions) this.#version.run(r.index_name, r.id, r.version, r.doc, r.content_hash, r.valid_from);
    for (const r of current) this.#current.run(r.index_name, r.id, r.version, r.content_hash, r.valid_from);
  }
}

const WRITER_KIND = 'periscope-document-writer';

type WriterRequest = { id: number; index: IndexName; items: readonly DocumentText[] } | { id: number; stop: true };
type WriterReply = { id: number; results?: PutResult[]; error?: string };

/** The main thread's side of the writer thread: requests by number, answered in order. */
class WriterThread {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { resolve: (r: PutResult[]) => void; reject: (e: Error) => void }>();
  #next = 1;
  #failed: Error | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (m: WriterReply) => {
      const w = this.#waiting.get(m.id);
      if (!w) return;
      this.#waiting.delete(m.id);
      if (this.#waiting.size === 0) worker.unref();
      if (m.error !== undefined) w.reject(new Error(m.error));
      else w.resolve(m.results ?? []);
    });
    const fail = (e: Error) => {
      this.#failed = e;
      for (const w of this.#waiting.values()) w.reject(e);
      this.#waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`document writer thread exited (code ${code})`)));
  }

  static async start(file: string): Promise<WriterThread> {
    // The thread loads this module again; it may be TypeScript run through tsx, whose loader a new
    // thread does not inherit, so a small bootstrap registers it first.
    let boot = `await import(${JSON.stringify(import.meta.url)});`;
    if (import.meta.url.endsWith('.ts')) boot = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}; register(); ${boot}`;
    // A larger young generation than the default: the thread allocates short-lived objects fast.
    const worker = new Worker(new URL('data:text/javascript,' + encodeURIComponent(boot)), { workerData: { kind: WRITER_KIND, file }, resourceLimits: { maxYoungGenerationSizeMb: 64 } });
    const thread = new WriterThread(worker);
    await thread.#request({ id: 0, index: 'hosts', items: [] });
    return thread;
  }

  #request(req: WriterRequest): Promise<PutResult[]> {
    if (this.#failed) return Promise.reject(this.#failed);
    const id = req.id === 0 ? 0 : this.#next++;
    return new Promise<PutResult[]>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.ref();
      this.#worker.postMessage({ ...req, id });
    });
  }

  /**
   * Documents cross to the thread as JSON text: a string is copied as it is, where a structured
   * clone of the object tree cost about as much as serialising it, on both sides. JSON data
   * (`jsonData`) goes as the text it was read from or JSON.stringify's, a quarter of canonicalJson's time on this thread;
   * the writer thread parses and canonicalises it (the same text: the key order is all that differs).
   */
  putMany(index: IndexName, items: readonly PutManyItem[]): Promise<PutResult[]> {
    const texts = items.map((item): DocumentText =>
      item.canonicalUtf8 !== undefined
        ? { id: item.id, text: item.canonicalUtf8, observedAt: item.observedAt }
        : item.canonical !== undefined
        ? { id: item.id, text: item.canonical, observedAt: item.observedAt }
        : item.json !== undefined
          ? { id: item.id, text: item.json, observedAt: item.observedAt, raw: true }
          : item.jsonData
            ? { id: item.id, text: JSON.stringify(item.doc), observedAt: item.observedAt, raw: true }
            : { id: item.id, text: canonicalJson(item.doc), observedAt: item.observedAt },
    );
    return this.#request({ id: -1, index, items: texts });
  }

  async stop(): Promise<void> {
    if (this.#failed) return;
    const exited = new Promise<void>((resolve) => this.#worker.once('exit', () => resolve()));
    this.#worker.postMessage({ id: -1, stop: true } satisfies WriterRequest);
    this.#worker.ref();
    await exited;
  }
}

/** The writer thread itself: a repository on its own connection, answering putMany requests in order. */
function runWriterThread(file: string): void {
  const raw = new BetterSqlite3(file);
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  // A long run of inserts at random ids: a larger page cache spares re-reading index pages.
  raw.pragma('cache_size = -131072');
  // Checkpoints every 512 MB of WAL (32,768 pages of 16 KB) instead of SQLite's 1,000 pages: a
  // long run of writes dirties the same index pages again and again, which a checkpoint copies
  // back once, and each checkpoint waits for two fsyncs. Writes of 4,000 hosts at 600,000 stored:
  // 47 -> 31 µs per record of wall time, 35 -> 28 µs of CPU (docs/BENCHMARK.md, ingest round 8).
  // The WAL is checkpointed and truncated when the last connection closes.
  raw.pragma('wal_autocheckpoint = 32768');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
  const repo = new KyselyDocumentRepository(db, 'sqlite', raw);
  let queue: Promise<unknown> = Promise.resolve();
  parentPort!.on('message', (req: WriterRequest) => {
    queue = queue.then(async () => {
      if ('stop' in req) {
        await db.destroy();
        process.exit(0);
      }
      try {
        const results = await repo.putTexts(req.index, req.items);
        parentPort!.postMessage({ id: req.id, results } satisfies WriterReply);
      } catch (e) {
        parentPort!.postMessage({ id: req.id, error: e instanceof Error ? e.message : String(e) } satisfies WriterReply);
      }
    });
  });
}

if (!isMainThread && (workerData as { kind?: unknown } | null)?.kind === WRITER_KIND) {
  runWriterThread((workerData as { file: string }).file);
}
