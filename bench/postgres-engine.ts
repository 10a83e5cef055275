/**
 * PostgreSQL baseline: the whole document as `jsonb` with a GIN (jsonb_path_ops) index, a
 * `terms text[]` column of `field=value` strings and an `ft text[]` column of full-text terms,
 * both GIN-indexed, typed columns for ranges and grouping, and a `services` side table with
 * b-tree indexes for per-service ranges, banners and nested aggregations. Everything lives in a
 * private schema that is dropped on close.
 */
import pg from 'pg';
import { catalogueFor } from '../src/model/field-catalogue.ts';
import type { BenchEngine } from './bench-engine.ts';
import type { CorpusEntry } from './corpus-file.ts';
import { makeRowBuilder } from './host-row.ts';
import { lit, PAGE, TOP_BUCKETS, type AggSpec, type BenchQuery, type Bucket, type QueryName, type QueryParams, type SearchAnswer } from './query-mix.ts';

// PostgreSQL text and jsonb cannot hold U+0000, which some demo banners contain: it is stored as
// U+FFFD (no benchmark query looks at those characters).
const noNul = (_key: string, v: unknown): unknown => (typeof v === 'string' && v.includes('\0') ? v.replaceAll('\0', '\uFFFD') : v);

export const DEFAULT_POSTGRES_URL = 'postgres://root@127.0.0.1:5432/test';

export class PostgresEngine implements BenchEngine {
  readonly name = 'postgres';
  private readonly client: pg.Client;
  readonly schema = `bench_${process.pid}`;
  private connected = false;

  constructor(private readonly params: QueryParams, url: string = DEFAULT_POSTGRES_URL) {
    this.client = new pg.Client({ connectionString: url });
  }

  async load(batches: AsyncIterable<CorpusEntry[]>): Promise<number> {
    await this.client.connect();
    this.connected = true;
    const c = this.client;
    await c.query(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE`);
    await c.query(`CREATE SCHEMA ${this.schema}`);
    await c.query(`SET search_path TO ${this.schema}`);
    await c.query(`CREATE TABLE hosts (id text PRIMARY KEY, order_key text NOT NULL, ip_key text NOT NULL, country text, asn integer,
      last_updated_at timestamptz, names text[], terms text[], ft text[], doc jsonb NOT NULL)`);
    await c.query(`CREATE TABLE services (host_id text NOT NULL, idx integer NOT NULL, port integer, service_name text, banner text, products text[])`);
    const row = makeRowBuilder(catalogueFor('hosts'));
    let n = 0;
    for await (const batch of batches) {
      const hosts: unknown[] = [];
      const services: unknown[] = [];
      for (const { id, doc } of batch) {
        const r = row(id, doc);
        hosts.push({ id, order_key: r.order_key, ip_key: r.ip_key, country: r.country, asn: r.asn, last_updated_at: r.last_updated_at, names: r.names, terms: r.terms, ft: r.ft, doc });
        r.services.forEach((s, idx) => services.push({ host_id: id, idx, port: s.port, service_name: s.service_name, banner: s.banner, products: s.products }));
      }
      // One statement per batch: the batch travels as a single JSON parameter.
      await c.query(`INSERT INTO hosts SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id text, order_key text, ip_key text, country text, asn integer,
        last_updated_at timestamptz, names text[], terms text[], ft text[], doc jsonb)`, [JSON.stringify(hosts, noNul)]);
      await c.query(`INSERT INTO services SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(host_id text, idx integer, port integer, service_name text, banner text, products text[])`, [JSON.stringify(services, noNul)]);
      n += batch.length;
    }
    await c.query(`CREATE INDEX ON hosts USING gin (doc jsonb_path_ops)`);
    await c.query(`CREATE INDEX ON hosts USING gin (terms)`);
    await c.query(`CREATE INDEX ON hosts USING gin (ft)`);
    await c.query(`CREATE INDEX ON hosts (order_key)`);
    await c.query(`CREATE INDEX ON hosts (ip_key)`);
    await c.query(`CREATE INDEX ON hosts (country)`);
    await c.query(`CREATE INDEX ON hosts (asn)`);
    await c.query(`CREATE INDEX ON services (port, host_id)`);
    await c.query(`CREATE INDEX ON services (host_id)`);
    await c.query(`ANALYZE hosts`);
    await c.query(`ANALYZE services`);
    return n;
  }

  where(name: QueryName): string {
    const p = this.params;
    switch (name) {
      case 'term': return `terms @> ARRAY['services.service_name=SSH']`;
      case 'boolean': return `terms @> ARRAY['services.service_name=HTTP', 'location.country=Germany']`;
      case 'negation': return `terms @> ARRAY['services.service_name=HTTP'] AND NOT terms @> ARRAY['services.port=80']`;
      case 'same-service': return `doc @> '{"services":[{"service_name":"HTTP","port":8080}]}'`;
      case 'cidr': return `ip_key BETWEEN ${lit(p.cidrLo)} AND ${lit(p.cidrHi)}`;
      case 'range': return `id IN (SELECT host_id FROM services WHERE port BETWEEN 8000 AND 9000)`;
      case 'wildcard': return `EXISTS (SELECT 1 FROM unnest(names) AS n WHERE lower(n) LIKE ${lit('%.' + p.domain.toLowerCase())})`;
      case 'banner-phrase': return `id IN (SELECT host_id FROM services WHERE strpos(lower(banner), ${lit(p.phrase.toLowerCase())}) > 0)`;
      case 'full-text': return `ft @> ARRAY[${lit(p.term.toLowerCase())}]`;
    }
  }

  async search(query: BenchQuery): Promise<SearchAnswer> {
    const w = this.where(query.name);
    const c = await this.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM hosts WHERE ${w}`);
    const ids = await this.client.query<{ id: string }>(`SELECT id FROM hosts WHERE ${w} ORDER BY order_key LIMIT ${PAGE}`);
    return { count: c.rows[0]?.n ?? 0, ids: ids.rows.map((r) => r.id) };
  }

  aggSql(spec: AggSpec): string {
    const hostFilter = spec.filtered ? `terms @> ARRAY['services.service_name=HTTP']` : 'true';
    const svcFilter = spec.filtered ? `host_id IN (SELECT id FROM hosts WHERE ${hostFilter})` : 'true';
    const tail = 'GROUP BY 1';
    switch (spec.field) {
      case 'services.port':
        return `SELECT port::text AS key, count(*)::int AS n FROM services WHERE ${svcFilter} AND port IS NOT NULL ${tail}`;
      case 'services.software.product':
        return `SELECT p AS key, count(*)::int AS n FROM services, unnest(products) AS p WHERE ${svcFilter} ${tail}`;
      case 'location.country':
        return `SELECT country AS key, count(*)::int AS n FROM hosts WHERE ${hostFilter} AND country IS NOT NULL ${tail}`;
      case 'autonomous_system.asn':
        return `SELECT asn::text AS key, count(*)::int AS n FROM hosts WHERE ${hostFilter} AND asn IS NOT NULL ${tail}`;
    }
  }

  async aggregate(spec: AggSpec): Promise<Bucket[]> {
    // Buckets tie-break on the key in code-unit order, whatever the database's collation.
    const sql = `SELECT key, n FROM (${this.aggSql(spec)}) AS b ORDER BY n DESC, key COLLATE "C" LIMIT ${TOP_BUCKETS}`;
    const r = await this.client.query<{ key: string; n: number }>(sql);
    return r.rows.map((x) => ({ key: x.key, count: x.n }));
  }

  async close(): Promise<void> {
    if (!this.connected) return;
    try {
      await this.client.query(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE`);
    } finally {
      await this.client.end();
      this.connected = false;
    }
  }
}
