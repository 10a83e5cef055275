/**
 * PostgreSQL for tests: the `test` database on 127.0.0.1 (or PERISCOPE_TEST_PG_URL), a fresh
 * schema per store, every schema dropped when the file's tests end. An unreachable server is a
 * failure, not a skip: the PostgreSQL dialect must be tested wherever the suites run.
 */
import { after } from 'node:test';
import pg from 'pg';

const candidates = process.env.PERISCOPE_TEST_PG_URL
  ? [process.env.PERISCOPE_TEST_PG_URL]
  : ['postgres://root@127.0.0.1:5432/test', 'postgres://postgres@127.0.0.1:5432/test'];

/** The first reachable server URL; throws naming every attempt when none answers. */
export async function reachablePostgres(): Promise<string> {
  const errors: string[] = [];
  for (const url of candidates) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query('select 1');
      return url;
    } catch (err) {
      errors.push(`${url}: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      await client.end().catch(() => {});
    }
  }
  throw new Error(
    `PostgreSQL store tests need a server; none reachable (set PERISCOPE_TEST_PG_URL to override):\n  ${errors.join('\n  ')}`,
  );
}

/** Names fresh schemas `<prefix>_<pid>_<run>_<n>` on `url` and drops them all after the file's tests. */
export function testSchemas(url: string, prefix: string): () => string {
  const run = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const schemas: string[] = [];
  after(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const schema of schemas) await client.query(`drop schema if exists ${schema} cascade`);
    } finally {
      await client.end();
    }
  });
  return () => {
    const schema = `${run}_${schemas.length}`;
    schemas.push(schema);
    return schema;
  };
}
