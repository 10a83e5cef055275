/**
 * Databases brought to an older migration and written as the code of the time did, then opened
 * by today's store (which migrates them the rest of the way): the frame of the migration tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { openStore } from '../../src/store/index.ts';
import { testSchemas } from '../support/pg-test-schemas.ts';

/** The store as opened, with its Kysely handle for looking at the schema. */
export type OpenedStore = Awaited<ReturnType<typeof openStore>>;
import { migrationProvider } from '../../src/store/migrations.ts';

/** Writes the old layout: `schema` is set on PostgreSQL. */
export type OldLayout = (db: Kysely<any>, schema?: string) => Promise<void>;

/** Runs the migrations up to `name` (included) on `db`. */
export async function migrateTo(db: Kysely<any>, name: string, schema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider(schema ? 'postgres' : 'sqlite'), ...(schema ? { migrationTableSchema: schema } : {}) });
  const r = await migrator.migrateTo(name);
  if (r.error) throw r.error;
}

/** A SQLite file written by `old`, opened as a store for `use`; everything is deleted afterwards. */
export async function withOldSqlite(old: OldLayout, use: (store: OpenedStore) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-migration-'));
  const file = join(dir, 'periscope.db');
  try {
    const raw = new BetterSqlite3(file);
    raw.pragma('journal_mode = WAL');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
    await old(db);
    await db.destroy();
    const store = await openStore({ kind: 'sqlite', file });
    try {
      await use(store);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const url = process.env.PERISCOPE_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';

/**
 * A PostgreSQL schema of its own per call (named from `tag`, dropped after the file's tests)
 * written by `old`, opened as a store for `use`.
 */
export function oldPostgres(tag: string): (old: OldLayout, use: (store: OpenedStore, schema: string) => Promise<void>) => Promise<void> {
  const nextSchema = testSchemas(url, `periscope_test_${tag}`);
  return async (old, use) => {
    const schema = nextSchema();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema},public` });
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    await old(db, schema);
    await db.destroy();
    const store = await openStore({ kind: 'postgres', url, schema });
    try {
      await use(store, schema);
    } finally {
      await store.close();
    }
  };
}
