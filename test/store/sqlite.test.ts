import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { runStoreSuite } from './store-suite.ts';
import { runPageReaderSuite } from './page-reader-suite.ts';
import { runAsmStoreSuite } from './asm-suite.ts';
import { runAsmRiskStoreSuite } from './asm-risk-suite.ts';
import { runAsmAnnotationSuite } from './asm-annotation-suite.ts';
import { runSavedQuerySuite } from './asm-saved-query-suite.ts';
import { migrations as allMigrations } from '../../src/store/migrations.ts';

const dir = mkdtempSync(join(tmpdir(), 'periscope-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
runStoreSuite('sqlite store', () => openStore({ kind: 'sqlite', file: join(dir, `suite-${n++}.db`) }));
runPageReaderSuite('sqlite page reader', () => openStore({ kind: 'sqlite', file: join(dir, `suite-${n++}.db`) }));
runAsmStoreSuite('sqlite asm store', () => openStore({ kind: 'sqlite', file: join(dir, `suite-${n++}.db`) }));
runAsmRiskStoreSuite('sqlite asm risks', () => openStore({ kind: 'sqlite', file: join(dir, `suite-${n++}.db`) }));
runAsmAnnotationSuite('sqlite store', () => openStore({ kind: 'sqlite', file: join(dir, `suite-${n++}.db`) }));
runSavedQuerySuite('sqlite saved queries', () => openStore({ kind: 'sqlite', file: join(dir, `suite-${n++}.db`) }));

describe('sqlite file', () => {
  it('creates missing folders and reopens an existing database without migrating twice', async () => {
    const file = join(dir, 'nested', 'deeper', 'periscope.db');
    const first = await openStore({ kind: 'sqlite', file });
    assert.equal(first.dialect, 'sqlite');
    await first.documents.put('hosts', '1.1.1.1', { a: 1 }, '2024-01-01T00:00:00Z');
    const ws = await first.users.createWorkspace('W');
    const tag = await first.tags.create(ws.id, 'kept', null);
    await first.settings.set('k', 'v');
    await first.close();
    assert.ok(existsSync(file));

    const second = await openStore({ kind: 'sqlite', file });
    assert.equal((await second.documents.get('hosts', '1.1.1.1'))?.version, 1);
    assert.deepEqual(await second.tags.get(ws.id, tag!.id), tag);
    assert.equal(await second.settings.get('k'), 'v');
    const migrations = await second.db.selectFrom('kysely_migration' as never).selectAll().execute();
    assert.equal(migrations.length, Object.keys(allMigrations('sqlite')).length);
    // Ids keep increasing across reopenings (no reuse of a removed tag's id).
    await second.tags.remove(ws.id, tag!.id);
    const next = await second.tags.create(ws.id, 'next', null);
    assert.ok(Number(next!.id) > Number(tag!.id));
    await second.close();
  });

  it('uses WAL, foreign keys and a busy timeout', async () => {
    const store = await openStore({ kind: 'sqlite', file: join(dir, 'pragmas.db') });
    const pragma = async (name: string) => {
      const { sql } = await import('kysely');
      const r = await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(store.db);
      return Object.values(r.rows[0] ?? {})[0];
    };
    assert.equal(await pragma('journal_mode'), 'wal');
    assert.equal(await pragma('foreign_keys'), 1);
    assert.equal(await pragma('synchronous'), 1);
    assert.ok(Number(await pragma('busy_timeout')) > 0);
    assert.equal(await pragma('page_size'), 16384, 'a new database has 16 KB pages');
    await store.close();
  });

  it('keeps the page size of a database made with another', async () => {
    const file = join(dir, 'old-pages.db');
    const { default: BetterSqlite3 } = await import('better-sqlite3');
    // A database as earlier versions made them: 4 KB pages, WAL.
    const old = new BetterSqlite3(file);
    old.pragma('page_size = 4096');
    old.pragma('journal_mode = WAL');
    old.exec('create table t (x)');
    old.close();
    const store = await openStore({ kind: 'sqlite', file });
    await store.documents.put('hosts', '1.1.1.1', { a: 1 }, '2024-01-01T00:00:00Z');
    const { sql } = await import('kysely');
    const r = await sql<{ page_size: number }>`pragma page_size`.execute(store.db);
    assert.equal(r.rows[0]?.page_size, 4096);
    assert.equal((await store.documents.get('hosts', '1.1.1.1'))?.version, 1);
    await store.close();
  });
});
