/**
 * DuckDB baseline (in-memory): one row per host with typed scalar columns, the services as a list
 * of structs, and helper list columns (`ports`, `service_names`, `ft`) so that list_contains
 * answers the common cases without unnesting.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { catalogueFor } from '../src/model/field-catalogue.ts';
import type { BenchEngine } from './bench-engine.ts';
import type { CorpusEntry } from './corpus-file.ts';
import { makeRowBuilder } from './host-row.ts';
import { lit, PAGE, TOP_BUCKETS, type AggSpec, type BenchQuery, type Bucket, type QueryName, type QueryParams, type SearchAnswer } from './query-mix.ts';

const COLUMNS = {
  id: 'VARCHAR',
  order_key: 'VARCHAR',
  ip_key: 'VARCHAR',
  ip: 'VARCHAR',
  country: 'VARCHAR',
  country_code: 'VARCHAR',
  asn: 'INTEGER',
  last_updated_at: 'VARCHAR',
  names: 'VARCHAR[]',
  labels: 'VARCHAR[]',
  services: 'STRUCT(port INTEGER, service_name VARCHAR, transport_protocol VARCHAR, banner VARCHAR, products VARCHAR[])[]',
  ports: 'INTEGER[]',
  service_names: 'VARCHAR[]',
  ft: 'VARCHAR[]',
};

export class DuckDbEngine implements BenchEngine {
  readonly name = 'duckdb';
  private conn: DuckDBConnection | undefined;
  private instance: DuckDBInstance | undefined;
  private readonly tmp = mkdtempSync(join(tmpdir(), 'bench-duckdb-'));

  constructor(private readonly params: QueryParams) {}

  private db(): DuckDBConnection {
    if (!this.conn) throw new Error('duckdb: not loaded');
    return this.conn;
  }

  async load(batches: AsyncIterable<CorpusEntry[]>): Promise<number> {
    this.instance = await DuckDBInstance.create(':memory:');
    this.conn = await this.instance.connect();
    const cols = Object.entries(COLUMNS).map(([k, t]) => `${k} ${t}`);
    cols[cols.indexOf('last_updated_at VARCHAR')] = 'last_updated_at TIMESTAMP';
    await this.conn.run(`CREATE TABLE hosts (${cols.join(', ')})`);
    const row = makeRowBuilder(catalogueFor('hosts'));
    const spec = `{${Object.entries(COLUMNS).map(([k, t]) => `${k}: ${lit(t)}`).join(', ')}}`;
    const names = Object.keys(COLUMNS).map((k) => (k === 'last_updated_at' ? `CAST(replace(replace(last_updated_at, 'T', ' '), 'Z', '') AS TIMESTAMP)` : k));
    let n = 0;
    // Batches go through an NDJSON file and read_json: far faster than row-by-row inserts of nested values.
    const file = join(this.tmp, 'batch.ndjson');
    for await (const batch of batches) {
      writeFileSync(file, batch.map((e) => JSON.stringify(row(e.id, e.doc))).join('\n') + '\n');
      await this.conn.run(`INSERT INTO hosts SELECT ${names.join(', ')} FROM read_json(${lit(file)}, format = 'newline_delimited', columns = ${spec})`);
      n += batch.length;
    }
    return n;
  }

  where(name: QueryName): string {
    const p = this.params;
    switch (name) {
      case 'term': return `list_contains(service_names, 'SSH')`;
      case 'boolean': return `list_contains(service_names, 'HTTP') AND country = 'Germany'`;
      case 'negation': return `list_contains(service_names, 'HTTP') AND NOT list_contains(ports, 80)`;
      case 'same-service': return `len(list_filter(services, lambda s: s.service_name = 'HTTP' AND s.port = 8080)) > 0`;
      case 'cidr': return `ip_key BETWEEN ${lit(p.cidrLo)} AND ${lit(p.cidrHi)}`;
      case 'range': return `len(list_filter(ports, lambda x: x BETWEEN 8000 AND 9000)) > 0`;
      case 'wildcard': return `len(list_filter(names, lambda x: lower(x) LIKE ${lit('%.' + p.domain.toLowerCase())})) > 0`;
      case 'banner-phrase': return `len(list_filter(services, lambda s: contains(lower(s.banner), ${lit(p.phrase.toLowerCase())}))) > 0`;
      case 'full-text': return `list_contains(ft, ${lit(p.term.toLowerCase())})`;
    }
  }

  private async rows(sql: string): Promise<Record<string, unknown>[]> {
    const r = await this.db().runAndReadAll(sql);
    return r.getRowObjectsJS() as Record<string, unknown>[];
  }

  async search(query: BenchQuery): Promise<SearchAnswer> {
    const w = this.where(query.name);
    const [c] = await this.rows(`SELECT CAST(count(*) AS INTEGER) AS n FROM hosts WHERE ${w}`);
    const ids = await this.rows(`SELECT id FROM hosts WHERE ${w} ORDER BY order_key LIMIT ${PAGE}`);
    return { count: Number(c?.n ?? 0), ids: ids.map((r) => String(r.id)) };
  }

  aggSql(spec: AggSpec): string {
    const filter = spec.filtered ? `list_contains(service_names, 'HTTP')` : 'true';
    const tail = `GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${TOP_BUCKETS}`;
    switch (spec.field) {
      case 'services.port':
        return `SELECT CAST(s.port AS VARCHAR) AS key, CAST(count(*) AS INTEGER) AS n FROM (SELECT unnest(services) AS s FROM hosts WHERE ${filter}) WHERE s.port IS NOT NULL ${tail}`;
      case 'services.software.product':
        return `SELECT p AS key, CAST(count(*) AS INTEGER) AS n FROM (SELECT unnest(s.products) AS p FROM (SELECT unnest(services) AS s FROM hosts WHERE ${filter})) ${tail}`;
      case 'location.country':
        return `SELECT country AS key, CAST(count(*) AS INTEGER) AS n FROM hosts WHERE ${filter} AND country IS NOT NULL ${tail}`;
      case 'autonomous_system.asn':
        return `SELECT CAST(asn AS VARCHAR) AS key, CAST(count(*) AS INTEGER) AS n FROM hosts WHERE ${filter} AND asn IS NOT NULL ${tail}`;
    }
  }

  async aggregate(spec: AggSpec): Promise<Bucket[]> {
    return (await this.rows(this.aggSql(spec))).map((r) => ({ key: String(r.key), count: Number(r.n) }));
  }

  async close(): Promise<void> {
    this.conn?.closeSync();
    this.instance?.closeSync();
    rmSync(this.tmp, { recursive: true, force: true });
  }
}
