/**
 * Migration 0009 on both dialects: documents written before it keep every reading (current,
 * history, at a time, scan), the versions-by-time index is gone, SQLite's pointer table is a
 * WITHOUT ROWID table, and writes after it (a new version, a late one inserted in history) work.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Kysely, sql } from 'kysely';
import type { Store } from '../../src/store/index.ts';
import { migrateTo, oldPostgres, withOldSqlite } from './migration-db.ts';

const T1 = '2024-01-01T00:00:00.000Z';
const T2 = '2024-02-01T00:00:00.000Z';
const v1 = { ip: '192.0.2.1', services: [{ port: 22 }] };
const v2 = { ip: '192.0.2.1', services: [{ port: 22 }, { port: 80 }] };
const other = { ip: '192.0.2.9', services: [{ port: 443 }] };

/** Brings an empty database to 0008 and writes documents as the code before 0009 did. */
async function before0009(db: Kysely<any>, schema?: string): Promise<void> {
  await migrateTo(db, '0008_document_hits', schema);
  const row = (id: string, version: number, doc: unknown, at: string) => ({
    index_name: 'hosts', id, version, doc: JSON.stringify(doc), content_hash: `hash-${id}-${version}`, valid_from: at,
  });
  await db.insertInto('document_versions').values([row('192.0.2.1', 1, v1, T1), row('192.0.2.1', 2, v2, T2), row('192.0.2.9', 1, other, T1)]).execute();
  await db.insertInto('documents').values([{ ...row('192.0.2.1', 2, v2, T2), doc: null }, { ...row('192.0.2.9', 1, other, T1), doc: null }]).execute();
}

async function check(store: Store, indexNames: () => Promise<string[]>): Promise<void> {
  assert.ok(!(await indexNames()).includes('document_versions_time'), 'the versions-by-time index is dropped');
  assert.deepEqual(await store.documents.get('hosts', '192.0.2.1'), { id: '192.0.2.1', doc: v2, version: 2, validFrom: T2 });
  assert.deepEqual((await store.documents.getMany('hosts', ['192.0.2.9', '192.0.2.1', '192.0.2.200'])).map((d) => d.id).sort(), ['192.0.2.1', '192.0.2.9']);
  assert.deepEqual((await store.documents.history('hosts', '192.0.2.1')).map((d) => d.doc), [v1, v2]);
  assert.deepEqual((await store.documents.history('hosts', '192.0.2.1', { from: '2024-01-15T00:00:00Z' })).map((d) => d.version), [2]);
  assert.deepEqual((await store.documents.getAt('hosts', '192.0.2.1', '2024-01-15T00:00:00Z'))?.doc, v1);
  assert.equal(await store.documents.getAt('hosts', '192.0.2.1', '2023-12-31T00:00:00Z'), undefined);
  const scanned: string[] = [];
  for await (const batch of store.documents.scan('hosts', 1)) scanned.push(...batch.map((d) => d.id));
  assert.deepEqual(scanned, ['192.0.2.1', '192.0.2.9']);
  assert.equal(await store.documents.count('hosts'), 2);
  // A new current version, then a late one inserted between the first two.
  const v3 = { ...v2, labels: ['x'] };
  assert.deepEqual(await store.documents.put('hosts', '192.0.2.1', v3, '2024-03-01T00:00:00Z'), { outcome: 'updated', version: 3 });
  const late = { ...v1, labels: ['late'] };
  assert.deepEqual(await store.documents.put('hosts', '192.0.2.1', late, '2024-01-20T00:00:00Z'), { outcome: 'updated', version: 2 });
  assert.deepEqual((await store.documents.history('hosts', '192.0.2.1')).map((d) => [d.version, d.doc]), [[1, v1], [2, late], [3, v2], [4, v3]]);
  assert.deepEqual(await store.documents.get('hosts', '192.0.2.1'), { id: '192.0.2.1', doc: v3, version: 4, validFrom: '2024-03-01T00:00:00.000Z' });
  assert.deepEqual((await store.documents.getAt('hosts', '192.0.2.1', '2024-01-25T00:00:00Z'))?.doc, late);
  assert.equal(await store.documents.remove('hosts', '192.0.2.9'), true);
  assert.deepEqual(await store.documents.idsWithPrefix('hosts', '192.0.2.', 10), ['192.0.2.1']);
}

test('0009 on SQLite: documents stay readable and writable, documents is WITHOUT ROWID', async () => {
  await withOldSqlite(before0009, async (store) => {
    await check(store, async () => (await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(store.db)).rows.map((r) => r.name));
    const table = await sql<{ wr: number }>`select wr from pragma_table_list where name = 'documents'`.execute(store.db);
    assert.deepEqual(table.rows, [{ wr: 1 }], 'documents is a WITHOUT ROWID table');
  });
});

const withOldPostgres = oldPostgres('0009');

test('0009 on PostgreSQL: documents stay readable and writable, the time index is gone', async () => {
  await withOldPostgres(before0009, async (store, schema) => {
    await check(store, async () => (await sql<{ indexname: string }>`select indexname from pg_indexes where schemaname = ${schema}`.execute(store.db)).rows.map((r) => r.indexname));
  });
});
