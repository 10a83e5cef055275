/**
 * SQLite baseline (better-sqlite3, temp file): the document as JSONB with expression indexes on
 * the scalar paths queried (country, ASN), plus side tables for what JSON paths cannot index:
 * services (port, name, banner), their software products, DNS names and full-text terms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { catalogueFor } from '../src/model/field-catalogue.ts';
import type { BenchEngine } from './bench-engine.ts';
import type { CorpusEntry } from './corpus-file.ts';
import { makeRowBuilder } from './host-row.ts';
import { lit, PAGE, TOP_BUCKETS, type AggSpec, type BenchQuery, type Bucket, type QueryName, type QueryParams, type SearchAnswer } from './query-mix.ts';

const COUNTRY = `json_extract(doc, '$.location.country')`;
const ASN = `json_extract(doc, '$.autonomous_system.asn')`;

export class SqliteEngine implements BenchEngine {
  readonly name = 'sqlite';
  private readonly dir = mkdtempSync(join(tmpdir(), 'bench-sqlite-'));
  private db: Database.Database | undefined;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly params: QueryParams) {}

  async load(batches: AsyncIterable<CorpusEntry[]>): Promise<number> {
    const db = new Database(join(this.dir, 'bench.db'));
    this.db = db;
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    db.exec(`CREATE TABLE hosts (id TEXT PRIMARY KEY, order_key TEXT NOT NULL, ip_key TEXT NOT NULL, doc BLOB NOT NULL);
      CREATE TABLE services (host_id TEXT NOT NULL, idx INTEGER NOT NULL, port INTEGER, service_name TEXT, banner TEXT);
      CREATE TABLE service_products (host_id TEXT NOT NULL, idx INTEGER NOT NULL, product TEXT NOT NULL);
      CREATE TABLE host_names (host_id TEXT NOT NULL, name TEXT NOT NULL);
      CREATE TABLE host_ft (term TEXT NOT NULL, host_id TEXT NOT NULL, PRIMARY KEY (term, host_id)) WITHOUT ROWID;`);
    const insHost = db.prepare(`INSERT INTO hosts VALUES (?, ?, ?, jsonb(?))`);
    const insSvc = db.prepare(`INSERT INTO services VALUES (?, ?, ?, ?, ?)`);
    const insProd = db.prepare(`INSERT INTO service_products VALUES (?, ?, ?)`);
    const insName = db.prepare(`INSERT INTO host_names VALUES (?, ?)`);
    const insFt = db.prepare(`INSERT INTO host_ft VALUES (?, ?)`);
    const row = makeRowBuilder(catalogueFor('hosts'));
    const insertBatch = db.transaction((batch: CorpusEntry[]) => {
      for (const { id, doc } of batch) {
        const r = row(id, doc);
        insHost.run(id, r.order_key, r.ip_key, JSON.stringify(doc));
        r.services.forEach((s, idx) => {
          insSvc.run(id, idx, s.port, s.service_name, s.banner);
          for (const p of s.products) insProd.run(id, idx, p);
        });
        for (const n of r.names) insName.run(id, n);
        for (const t of r.ft) insFt.run(t, id);
      }
    });
    let n = 0;
    for await (const batch of batches) {
      insertBatch(batch);
      n += batch.length;
    }
    db.exec(`CREATE INDEX hosts_order ON hosts (order_key);
      CREATE INDEX hosts_ip ON hosts (ip_key);
      CREATE INDEX hosts_country ON hosts (${COUNTRY});
      CREATE INDEX hosts_asn ON hosts (${ASN});
      CREATE INDEX services_name ON services (service_name, port, host_id);
      CREATE INDEX services_port ON services (port, host_id);
      CREATE INDEX services_host ON services (host_id);
      CREATE INDEX names_host ON host_names (host_id);
      ANALYZE;`);
    return n;
  }

  private all<T>(sql: string): T[] {
    if (!this.db) throw new Error('sqlite: not loaded');
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st.all() as T[];
  }

  where(name: QueryName): string {
    const p = this.params;
    switch (name) {
      case 'term': return `id IN (SELECT host_id FROM services WHERE service_name = 'SSH')`;
      case 'boolean': return `id IN (SELECT host_id FROM services WHERE service_name = 'HTTP') AND ${COUNTRY} = 'Germany'`;
      case 'negation': return `id IN (SELECT host_id FROM services WHERE service_name = 'HTTP') AND id NOT IN (SELECT host_id FROM services WHERE port = 80)`;
      case 'same-service': return `id IN (SELECT host_id FROM services WHERE service_name = 'HTTP' AND port = 8080)`;
      case 'cidr': return `ip_key BETWEEN ${lit(p.cidrLo)} AND ${lit(p.cidrHi)}`;
      case 'range': return `id IN (SELECT host_id FROM services WHERE port BETWEEN 8000 AND 9000)`;
      case 'wildcard': return `id IN (SELECT host_id FROM host_names WHERE name LIKE ${lit('%.' + p.domain)})`;
      case 'banner-phrase': return `id IN (SELECT host_id FROM services WHERE instr(lower(banner), ${lit(p.phrase.toLowerCase())}) > 0)`;
      case 'full-text': return `id IN (SELECT host_id FROM host_ft WHERE term = ${lit(p.term.toLowerCase())})`;
    }
  }

  async search(query: BenchQuery): Promise<SearchAnswer> {
    return this.searchSync(query);
  }

  searchSync(query: BenchQuery): SearchAnswer {
    const w = this.where(query.name);
    const [c] = this.all<{ n: number }>(`SELECT count(*) AS n FROM hosts WHERE ${w}`);
    const ids = this.all<{ id: string }>(`SELECT id FROM hosts WHERE ${w} ORDER BY order_key LIMIT ${PAGE}`);
    return { count: c?.n ?? 0, ids: ids.map((r) => r.id) };
  }

  aggSql(spec: AggSpec): string {
    const hostFilter = `host_id IN (SELECT host_id FROM services WHERE service_name = 'HTTP')`;
    const tail = `GROUP BY 1 ORDER BY n DESC, key LIMIT ${TOP_BUCKETS}`;
    const svc = spec.filtered ? hostFilter : '1';
    const host = spec.filtered ? `id IN (SELECT host_id FROM services WHERE service_name = 'HTTP')` : '1';
    switch (spec.field) {
      case 'services.port':
        return `SELECT CAST(port AS TEXT) AS key, count(*) AS n FROM services WHERE ${svc} AND port IS NOT NULL ${tail}`;
      case 'services.software.product':
        return `SELECT product AS key, count(*) AS n FROM service_products WHERE ${svc} ${tail}`;
      case 'location.country':
        return `SELECT ${COUNTRY} AS key, count(*) AS n FROM hosts WHERE ${host} AND ${COUNTRY} IS NOT NULL ${tail}`;
      case 'autonomous_system.asn':
        return `SELECT CAST(${ASN} AS TEXT) AS key, count(*) AS n FROM hosts WHERE ${host} AND ${ASN} IS NOT NULL ${tail}`;
    }
  }

  async aggregate(spec: AggSpec): Promise<Bucket[]> {
    return this.aggregateSync(spec);
  }

  aggregateSync(spec: AggSpec): Bucket[] {
    return this.all<{ key: string; n: number }>(this.aggSql(spec)).map((r) => ({ key: String(r.key), count: r.n }));
  }

  async close(): Promise<void> {
    this.db?.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
