/**
 * Migration 0003 on both dialects: documents written in the old layout (text in `documents` and
 * in `document_versions`) are still read whole after it — current versions from their pointer,
 * history unchanged — `documents.doc` is emptied, and new versions are written once.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { openStore, type Store } from '../../src/store/index.ts';
import { migrationProvider } from '../../src/store/migrations.ts';

const T1 = '2024-01-01T00:00:00.000Z';
const T2 = '2024-02-01T00:00:00.000Z';
const v1 = { ip: '192.0.2.1', services: [{ port: 22 }] };
const v2 = { ip: '192.0.2.1', services: [{ port: 22 }, { port: 80 }] };
const cert = { fingerprint_sha256: 'ab', names: ['example.com'] };

/** Brings an empty database to 0002 and writes documents as the code before 0003 did. */
async function oldLayout(db: Kysely<any>, schema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider(schema ? 'postgres' : 'sqlite'), ...(schema ? { migrationTableSchema: schema } : {}) });
  const r = await migrator.migrateTo('0002_asm_seeds');
  if (r.error) throw r.error;
  const row = (index: string, id: string, version: number, doc: unknown, at: string) => ({
    index_name: index, id, version, doc: JSON.stringify(doc), content_hash: `hash-${id}-${version}`, valid_from: at,
  });
  await db.insertInto('document_versions').values([row('hosts', '192.0.2.1', 1, v1, T1), row('hosts', '192.0.2.1', 2, v2, T2), row('certificates', 'ab', 1, cert, T1)]).execute();
  await db.insertInto('documents').values([row('hosts', '192.0.2.1', 2, v2, T2), row('certificates', 'ab', 1, cert, T1)]).execute();
}

async function check(store: Store, emptied: () => Promise<unknown[]>): Promise<void> {
  assert.deepEqual(await store.documents.get('hosts', '192.0.2.1'), { id: '192.0.2.1', doc: v2, version: 2, validFrom: T2 });
  assert.deepEqual((await store.documents.getMany('certificates', ['ab', 'cd'])).map((d) => d.doc), [cert]);
  assert.deepEqual((await store.documents.history('hosts', '192.0.2.1')).map((d) => d.doc), [v1, v2]);
  assert.deepEqual((await store.documents.getAt('hosts', '192.0.2.1', '2024-01-15T00:00:00Z'))?.doc, v1);
  const scanned: unknown[] = [];
  for await (const batch of store.documents.scan('hosts', 10)) scanned.push(...batch.map((d) => d.doc));
  assert.deepEqual(scanned, [v2]);
  assert.deepEqual(await emptied(), [null, null], 'documents.doc is emptied');
  const v3 = { ...v2, labels: ['x'] };
  assert.deepEqual(await store.documents.put('hosts', '192.0.2.1', v3, '2024-03-01T00:00:00Z'), { outcome: 'updated', version: 3 });
  assert.deepEqual((await store.documents.get('hosts', '192.0.2.1'))?.doc, v3);
  assert.equal((await emptied()).length, 2);
  assert.deepEqual(await emptied(), [null, null], 'new versions are written to document_versions only');
}

test('0003 on SQLite: old documents stay readable, the pointer table holds no text', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-0003-'));
  const file = join(dir, 'periscope.db');
  try {
    const raw = new BetterSqlite3(file);
    raw.pragma('journal_mode = WAL');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
    await oldLayout(db);
    await db.destroy();
    const store = await openStore({ kind: 'sqlite', file });
    try {
      await check(store, async () => {
        const rows = await sql<{ doc: unknown }>`select doc from documents order by index_name`.execute(store.db);
        return rows.rows.map((r) => r.doc);
      });
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const url = process.env.PERISCOPE_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
const schema = `periscope_test_0003_${process.pid}_${Date.now().toString(36)}`;

after(async () => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
});

test('0003 on PostgreSQL: old documents stay readable, the pointer table holds no text', async () => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema},public` });
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  await oldLayout(db, schema);
  await db.destroy();
  const store = await openStore({ kind: 'postgres', url, schema });
  try {
    await check(store, async () => {
      const rows = await sql<{ doc: unknown }>`select doc from documents order by index_name`.execute(store.db);
      return rows.rows.map((r) => r.doc);
    });
  } finally {
    await store.close();
  }
});
