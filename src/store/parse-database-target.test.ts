import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { parseDatabaseTarget } from './parse-database-target.ts';

describe('parseDatabaseTarget', () => {
  it('defaults to the SQLite file in the data directory', () => {
    assert.deepEqual(parseDatabaseTarget(undefined, '/var/lib/periscope'), { kind: 'sqlite', file: '/var/lib/periscope/periscope.db' });
    assert.deepEqual(parseDatabaseTarget('  ', '/data'), { kind: 'sqlite', file: '/data/periscope.db' });
  });

  it('takes postgres:// and postgresql:// URLs as given', () => {
    const a = 'postgres://user:p%40ss@db.example:5433/periscope?sslmode=require';
    assert.deepEqual(parseDatabaseTarget(a, '/data'), { kind: 'postgres', url: a });
    assert.deepEqual(parseDatabaseTarget('postgresql://127.0.0.1/test', '/data'), { kind: 'postgres', url: 'postgresql://127.0.0.1/test' });
    assert.deepEqual(parseDatabaseTarget('POSTGRES://h/db', '/data'), { kind: 'postgres', url: 'POSTGRES://h/db' });
  });

  it('accepts a SQLite path, plain or with sqlite:', () => {
    assert.deepEqual(parseDatabaseTarget('/tmp/x.db', '/data'), { kind: 'sqlite', file: '/tmp/x.db' });
    assert.deepEqual(parseDatabaseTarget('sqlite:/tmp/y.db', '/data'), { kind: 'sqlite', file: '/tmp/y.db' });
    assert.deepEqual(parseDatabaseTarget('rel/z.db', '/data'), { kind: 'sqlite', file: resolve('rel/z.db') });
  });

  it('refuses other URL schemes', () => {
    assert.throws(() => parseDatabaseTarget('mysql://h/db', '/data'), /unsupported database/);
  });
});
