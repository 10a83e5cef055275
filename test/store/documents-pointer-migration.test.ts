/**
 * Migration 0003 on both dialects: documents written in the old layout (text in `documents` and
 * in `document_versions`) are still read whole after it — current versions from their pointer,
 * history unchanged — `documents.doc` is emptied, and new versions are written once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Kysely, sql } from 'kysely';
import type { Store } from '../../src/store/index.ts';
import { migrateTo, oldPostgres, withOldSqlite, type OpenedStore } from './migration-db.ts';

const T1 = '2024-01-01T00:00:00.000Z';
const T2 = '2024-02-01T00:00:00.000Z';
const v1 = { ip: '192.0.2.1', services: [{ port: 22 }] };
const v2 = { ip: '192.0.2.1', services: [{ port: 22 }, { port: 80 }] };
const cert = { fingerprint_sha256: 'ab', names: ['example.com'] };

/** Brings an empty database to 0002 and writes documents as the code before 0003 did. */
async function oldLayout(db: Kysely<any>, schema?: string): Promise<void> {
  await migrateTo(db, '0002_asm_seeds', schema);
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

const emptied = (store: OpenedStore) => async () => {
  const rows = await sql<{ doc: unknown }>`select doc from documents order by index_name`.execute(store.db);
  return rows.rows.map((r) => r.doc);
};

test('0003 on SQLite: old documents stay readable, the pointer table holds no text', async () => {
  await withOldSqlite(oldLayout, (store) => check(store, emptied(store)));
});

const withOldPostgres = oldPostgres('0003');

test('0003 on PostgreSQL: old documents stay readable, the pointer table holds no text', async () => {
  await withOldPostgres(oldLayout, (store) => check(store, emptied(store)));
});
