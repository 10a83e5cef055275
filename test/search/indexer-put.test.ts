/**
 * Indexer.put indexes a document it was given, without reading it back from the store, only
 * when that is provably the same: the engine must receive exactly what a re-read (Indexer.refresh)
 * gives it, on SQLite and PostgreSQL, for demo data, ingested fixtures, awkward values, late
 * observations and repeated ids; and the embedded engine must answer the same whichever key
 * order its documents came in (the store reads them back with sorted keys, jsonb with its own order).
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { reachablePostgres, testSchemas } from '../support/pg-test-schemas.ts';
import type { Store } from '../../src/store/store.ts';
import { catalogueFor } from '../../src/model/field-catalogue.ts';
import type { IndexName } from '../../src/model/field-def.ts';
import { EmbeddedEngine, ReferenceEngine, type Doc, type SearchEngine } from '../../src/engine/index.ts';
import { Indexer, type PutItem } from '../../src/search/indexer.ts';
import type { SearchContext } from '../../src/search/search-context.ts';
import { loadDemo } from '../../src/main/load-demo.ts';
import { ingestStream } from '../../src/ingest/pipeline/index.ts';
import { compileQuery } from '../../src/query/index.ts';

const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };

/** A reference engine that remembers the last document upserted for each id. */
class RecordingEngine extends ReferenceEngine {
  readonly upserted = { hosts: new Map<string, Doc>(), certificates: new Map<string, Doc>() };
  upserts = 0;
  override upsert(index: IndexName, id: string, doc: Doc): void {
    this.upserted[index].set(id, doc);
    this.upserts++;
    super.upsert(index, id, doc);
  }
}

/** The store, counting the ids each index has read back through getMany. */
function countingReads(store: Store): { store: Store; reads: Record<IndexName, string[]> } {
  const reads: Record<IndexName, string[]> = { hosts: [], certificates: [] };
  const documents = new Proxy(store.documents, {
    get(target, prop) {
      if (prop === 'getMany') {
        return (index: IndexName, ids: readonly string[]) => {
          reads[index].push(...ids);
          return target.getMany(index, ids);
        };
      }
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const counted = new Proxy(store, {
    get(target, prop) {
      if (prop === 'documents') return documents;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { store: counted, reads };
}

function contextOf(store: Store, engine: SearchEngine): SearchContext {
  return { store, engine, catalogues, now: () => new Date('2026-11-01T00:00:00Z') };
}

async function allIds(store: Store, index: IndexName): Promise<string[]> {
  const ids: string[] = [];
  for await (const batch of store.documents.scan(index, 500)) for (const d of batch) ids.push(d.id);
  return ids;
}

/** What the engine got from put equals what refreshing every id from the store gives it. */
async function assertIndexedAsReadBack(store: Store, engine: RecordingEngine): Promise<void> {
  const fromPut = { hosts: new Map(engine.upserted.hosts), certificates: new Map(engine.upserted.certificates) };
  engine.upserted.hosts.clear();
  engine.upserted.certificates.clear();
  const indexer = new Indexer(contextOf(store, engine));
  for (const index of ['certificates', 'hosts'] as const) await indexer.refresh(index, await allIds(store, index));
  for (const index of ['certificates', 'hosts'] as const) {
    assert.deepEqual([...fromPut[index].keys()].sort(), [...engine.upserted[index].keys()].sort(), `${index}: the same ids`);
    for (const [id, doc] of engine.upserted[index]) assert.deepStrictEqual(fromPut[index].get(id), doc, `${index} ${id}`);
  }
}

const T1 = '2026-10-01T00:00:00.000Z';
const T2 = '2026-10-02T00:00:00.000Z';

/** Documents JSON.parse would not return as the store reads them back. */
function awkwardItems(): PutItem[] {
  class Banner {
    constructor(readonly text: string) {}
  }
  const holey: unknown[] = [1];
  holey[2] = 3;
  const extra: unknown[] & { note?: string } = ['a'];
  extra.note = 'dropped by JSON';
  const bare: Record<string, unknown> = Object.create(null);
  bare.port = 22;
  return [
    { id: '198.51.100.1', doc: { ip: '198.51.100.1', labels: undefined, location: { coordinates: { latitude: -0, longitude: NaN } } }, observedAt: T1 },
    { id: '198.51.100.2', doc: { ip: '198.51.100.2', last_updated_at: new Date(T1), services: [{ port: 80, banner: new Banner('x') }] }, observedAt: T1 },
    { id: '198.51.100.3', doc: { ip: '198.51.100.3', labels: holey, dns: { names: extra }, services: [bare] }, observedAt: T1 },
    { id: '198.51.100.4', doc: { ip: '198.51.100.4', services: [{ port: 443, banner: 'nul \u0000 and \uE000 mark', toJSON: () => ({ port: 1 }) }] }, observedAt: T1 },
    { id: '198.51.100.5', doc: { ip: '198.51.100.5', services: [{ port: 80, banner: 'plain \u0000 nul, \uE000\uE0000 marks, \ud83d\ude00' }], location: { coordinates: { latitude: 1e21, longitude: 5e-324 } } }, observedAt: T1 },
  ];
}

/** Demo data (certificates first, hosts with all their versions), awkward values, late and repeated writes. */
async function scenario(open: () => Promise<Store>): Promise<void> {
  const opened = await open();
  try {
    const { store, reads } = countingReads(opened);
    const engine = new RecordingEngine(catalogues);
    const indexer = new Indexer(contextOf(store, engine));
    await loadDemo(indexer, { hosts: 150, certificates: 20, seed: 3, quiet: true });
    await indexer.put('hosts', awkwardItems());
    reads.hosts.length = 0;

    // Created alone in its batch and plain JSON: indexed as given, nothing read back.
    const fresh: PutItem[] = [
      { id: '203.0.113.1', doc: JSON.parse('{"ip":"203.0.113.1","services":[{"port":22,"banner":"SSH-2.0-OpenSSH_9.6"}],"z":{"__proto__":{"x":1}}}'), observedAt: T2 },
      { id: '203.0.113.2', doc: { ip: '203.0.113.2', labels: ['b', 'a'], location: { coordinates: { latitude: 48.1, longitude: -0.5 } } }, observedAt: T2 },
    ];
    await indexer.put('hosts', fresh);
    assert.deepEqual(reads.hosts, [], 'new plain documents are not read back');

    // A late observation only adds history: the engine keeps the current version.
    const late = await indexer.put('hosts', [{ id: '203.0.113.1', doc: { ip: '203.0.113.1', labels: ['older'] }, observedAt: T1 }]);
    assert.equal(late[0].outcome, 'updated');
    // The same new id twice in a batch, newer first: the older one is history. Each id is indexed once.
    engine.upserts = 0;
    await indexer.put('hosts', [
      { id: '203.0.113.3', doc: { ip: '203.0.113.3', labels: ['newer'] }, observedAt: T2 },
      { id: '203.0.113.3', doc: { ip: '203.0.113.3', labels: ['older'] }, observedAt: T1 },
      { id: '203.0.113.4', doc: { ip: '203.0.113.4' }, observedAt: T2 },
    ]);
    assert.equal(engine.upserts, 2);
    assert.deepEqual(reads.hosts.sort(), ['203.0.113.1', '203.0.113.3'], 'updates and repeated ids are read back');
    assert.deepEqual(engine.upserted.hosts.get('203.0.113.1'), fresh[0].doc);
    assert.deepEqual(engine.upserted.hosts.get('203.0.113.3'), { ip: '203.0.113.3', labels: ['newer'] });

    await assertIndexedAsReadBack(store, engine);
  } finally {
    await opened.close();
  }
}

/** Every record of the ingest fixtures, through the pipeline (which writes through Indexer.put). */
async function ingestFixtures(open: () => Promise<Store>): Promise<void> {
  const opened = await open();
  try {
    const engine = new RecordingEngine(catalogues);
    const indexer = new Indexer(contextOf(opened, engine));
    const files = ['zgrab2/scan.jsonl', 'masscan/scan.json', 'projectdiscovery/httpx.jsonl', 'projectdiscovery/naabu.jsonl', 'projectdiscovery/tlsx.jsonl', 'asm-e2e/scan-1.jsonl', 'asm-e2e/scan-2.jsonl'];
    for (const f of files) {
      const path = new URL(`../fixtures/${f}`, import.meta.url).pathname;
      const r = await ingestStream([{ name: f, open: () => createReadStream(path) }], undefined, {
        indexer,
        store: opened,
        enricher: { enrich: () => undefined },
        now: () => new Date('2026-11-01T00:00:00Z'),
      });
      assert.ok(r.ok, f);
    }
    assert.ok(engine.upserted.hosts.size > 0, 'the fixtures made hosts');
    await assertIndexedAsReadBack(opened, engine);
  } finally {
    await opened.close();
  }
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function sqliteStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-indexer-put-'));
  dirs.push(dir);
  return openStore({ kind: 'sqlite', file: join(dir, 'store.db') });
}

describe('Indexer.put on SQLite', () => {
  it('indexes what the store reads back: demo data, awkward values, late and repeated writes', () => scenario(sqliteStore));
  it('indexes what the store reads back: the ingest fixtures', () => ingestFixtures(sqliteStore));
});

describe('Indexer.put on PostgreSQL', async () => {
  const url = await reachablePostgres();
  const freshSchema = testSchemas(url, 'periscope_indexer_put');
  const pgStore = () => openStore({ kind: 'postgres', url, schema: freshSchema() });
  it('indexes what the store reads back: demo data, awkward values, late and repeated writes', () => scenario(pgStore));
  it('indexes what the store reads back: the ingest fixtures', () => ingestFixtures(pgStore));
});

describe('the embedded engine and key order', () => {
  it('answers the same fed by put (keys as given) as rebuilt from the store (keys sorted)', async () => {
    const store = await sqliteStore();
    try {
      const fedByPut = new EmbeddedEngine(catalogues);
      await loadDemo(new Indexer(contextOf(store, fedByPut)), { hosts: 300, certificates: 30, seed: 5, quiet: true });
      const rebuilt = new EmbeddedEngine(catalogues);
      await new Indexer(contextOf(store, rebuilt)).rebuild();
      const queries = ['*', 'services.service_name: HTTP', 'not services.port: 22', 'services: (service_name: HTTP and port: 443)', 'nginx', 'services.tls.certificate.parsed.subject_dn: *', 'location.country: *'];
      for (const text of queries) {
        const c = compileQuery(text, catalogues.hosts);
        assert.ok(c.ok, text);
        const a = fedByPut.search('hosts', { query: c.query, limit: 1000 });
        const b = rebuilt.search('hosts', { query: c.query, limit: 1000 });
        assert.deepEqual(a.hits.map((h) => h.id), b.hits.map((h) => h.id), text);
      }
      for (const field of ['services.port', 'location.country', 'services.software.product', 'labels']) {
        const request = { query: { kind: 'all' } as const, field, numBuckets: 50 };
        assert.deepEqual(fedByPut.aggregate('hosts', request), rebuilt.aggregate('hosts', request), field);
      }
    } finally {
      await store.close();
    }
  });
});
