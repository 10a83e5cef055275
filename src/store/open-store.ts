import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { Database, Dialect } from './database.ts';
import { KyselyStore } from './kysely-store.ts';
import { migrationProvider } from './migrations.ts';
import type { StoreOptions } from './parse-database-target.ts';

/** Lower-case identifiers only: they need no quoting in search_path nor in CREATE SCHEMA. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Opens (creating if needed) the database, brings its schema up to date and returns the store. */
export async function openStore(options: StoreOptions): Promise<KyselyStore> {
  const store = options.kind === 'sqlite' ? openSqlite(options.file) : await openPostgres(options.url, options.schema);
  try {
    await migrate(store.db, store.dialect, options.kind === 'postgres' ? options.schema : undefined);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

function openSqlite(file: string): KyselyStore {
  const inMemory = file === ':memory:' || file === '';
  if (!inMemory) mkdirSync(dirname(file), { recursive: true });
  const db = new BetterSqlite3(file);
  // A new database gets 16 KB pages (an existing one keeps its own: the pragma is ignored once
  // the file is in WAL mode). Host versions are 2-4 KB of text each; with 4 KB pages a commit
  // made many small writes (1.7 M pwrite calls for 200,000 zgrab2 lines). 16 KB pages took ~11%
  // less CPU and wall time there, and a 7% smaller database at 1M lines (docs/BENCHMARK.md).
  db.pragma('page_size = 16384');
  if (!inMemory) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // LIKE must be case-sensitive like PostgreSQL's (prefix search on document ids).
  db.pragma('case_sensitive_like = ON');
  return new KyselyStore(new Kysely<Database>({ dialect: new SqliteDialect({ database: db }) }), 'sqlite');
}

async function openPostgres(url: string, schema: string | undefined): Promise<KyselyStore> {
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`invalid PostgreSQL schema name ${JSON.stringify(schema)} (lower-case letters, digits, _)`);
  }
  if (schema !== undefined) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`create schema if not exists ${schema}`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    // Set at connection start, so every pooled connection sees the schema before its first query.
    ...(schema !== undefined ? { options: `-c search_path=${schema},public` } : {}),
  });
  // An idle connection dropped by the server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  return new KyselyStore(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), 'postgres');
}

async function migrate(db: Kysely<Database>, dialect: Dialect, schema: string | undefined): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider(dialect),
    // Kysely's own bookkeeping tables live beside ours, never in another schema on the search path.
    ...(schema !== undefined ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`database migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (dialect === 'sqlite') await sql`pragma optimize`.execute(db);
}
