/**
 * Runs the store suite on a real PostgreSQL server (the `test` database on 127.0.0.1, or
 * PERISCOPE_TEST_PG_URL). An unreachable server is a failure, not a skip: the PostgreSQL dialect
 * must be tested wherever the suite runs.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { openStore } from '../../src/store/index.ts';
import { reachablePostgres, testSchemas } from '../support/pg-test-schemas.ts';
import { runStoreSuite } from './store-suite.ts';
import { runPageReaderSuite } from './page-reader-suite.ts';
import { runAsmStoreSuite } from './asm-suite.ts';
import { runAsmRiskStoreSuite } from './asm-risk-suite.ts';
import { runAsmAnnotationSuite } from './asm-annotation-suite.ts';
import { runSavedQuerySuite } from './asm-saved-query-suite.ts';
import { migrations as allMigrations } from '../../src/store/migrations.ts';

const url = await reachablePostgres();
const freshSchema = testSchemas(url, 'periscope_test');

runStoreSuite('postgres store', () => openStore({ kind: 'postgres', url, schema: freshSchema() }));
runPageReaderSuite('postgres page reader', () => openStore({ kind: 'postgres', url, schema: freshSchema() }));
runAsmStoreSuite('postgres asm store', () => openStore({ kind: 'postgres', url, schema: freshSchema() }));
runAsmRiskStoreSuite('postgres asm risks', () => openStore({ kind: 'postgres', url, schema: freshSchema() }));
runAsmAnnotationSuite('postgres store', () => openStore({ kind: 'postgres', url, schema: freshSchema() }));
runSavedQuerySuite('postgres saved queries', () => openStore({ kind: 'postgres', url, schema: freshSchema() }));

describe('postgres schema', () => {
  it('creates the schema, keeps tables in it, and reopens without migrating twice', async () => {
    const schema = freshSchema();
    const first = await openStore({ kind: 'postgres', url, schema });
    assert.equal(first.dialect, 'postgres');
    await first.documents.put('hosts', '1.1.1.1', { a: 1 }, '2024-01-01T00:00:00Z');
    await first.settings.set('k', 'v');
    await first.close();

    const second = await openStore({ kind: 'postgres', url, schema });
    assert.equal((await second.documents.get('hosts', '1.1.1.1'))?.version, 1);
    assert.equal(await second.settings.get('k'), 'v');
    await second.close();

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const tables = await client.query<{ table_name: string }>(
        'select table_name from information_schema.tables where table_schema = $1 order by table_name',
        [schema],
      );
      const names = tables.rows.map((r) => r.table_name);
      for (const t of ['documents', 'document_versions', 'users', 'workspaces', 'tags', 'tag_assignments', 'comments', 'quota_usage', 'settings', 'kysely_migration']) {
        assert.ok(names.includes(t), `${t} in ${schema}`);
      }
      const applied = await client.query(`select name from ${schema}.kysely_migration`);
      assert.equal(applied.rowCount, Object.keys(allMigrations('postgres')).length);
      const docType = await client.query<{ data_type: string }>(
        `select data_type from information_schema.columns where table_schema = $1 and table_name = 'documents' and column_name = 'doc'`,
        [schema],
      );
      assert.equal(docType.rows[0]?.data_type, 'jsonb');
      // Byte order for ids whatever the database's locale (this server's may already be C).
      const collation = await client.query<{ collation_name: string | null }>(
        `select collation_name from information_schema.columns where table_schema = $1 and table_name = 'documents' and column_name = 'id'`,
        [schema],
      );
      assert.equal(collation.rows[0]?.collation_name, 'C');
    } finally {
      await client.end();
    }
  });

  it('rejects schema names that would need quoting', async () => {
    await assert.rejects(openStore({ kind: 'postgres', url, schema: 'Bad-Name' }), /schema name/);
  });
});
