/**
 * Indexer.putAll (the bulk path of `import` and the benchmark's load) against batches of Indexer.put:
 * the same results per batch, byte-identical store tables (documents and every version), the same
 * documents in the engine; on SQLite (whose writes then run on the writer thread, with JSON data
 * sent as JSON.stringify's text) and PostgreSQL. A persistent engine is checkpointed once, at the
 * end; batches already written are indexed when the input fails.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openStore } from '../../src/store/index.ts';
import type { KyselyStore } from '../../src/store/kysely-store.ts';
import type { PutResult } from '../../src/store/store.ts';
import { reachablePostgres, testSchemas } from '../support/pg-test-schemas.ts';
import { catalogueFor } from '../../src/model/field-catalogue.ts';
import type { IndexName } from '../../src/model/field-def.ts';
import { EmbeddedEngine, ReferenceEngine, type Doc, type SearchEngine } from '../../src/engine/index.ts';
import { Indexer, journaledStore, type PutItem } from '../../src/search/indexer.ts';
import type { SearchContext } from '../../src/search/search-context.ts';
import { demoStream } from '../../src/ingest/demo/index.ts';

const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };

class RecordingEngine extends ReferenceEngine {
  readonly upserted = { hosts: new Map<string, Doc>(), certificates: new Map<string, Doc>() };
  override upsert(index: IndexName, id: string, doc: Doc): void {
    this.upserted[index].set(id, doc);
    super.upsert(index, id, doc);
  }
}

function contextOf(store: KyselyStore, engine: SearchEngine): SearchContext {
  return { store, engine, catalogues, now: () => new Date('2026-11-01T00:00:00Z') };
}

const T0 = '2026-09-01T00:00:00.000Z';

/**
 * Batches as an import sends them: demo hosts as JSON.parse returns them, every version in time
 * order across batches (so later batches update earlier ones), one batch repeated unchanged, a
 * late observation, the same id twice in a batch, and values JSON.parse never returns.
 */
function batches(): PutItem[][] {
  const demo = demoStream({ hosts: 120, certificates: 15, seed: 5 });
  const certs: PutItem[] = demo.certificates.map((c) => ({ id: c.doc.fingerprint_sha256, doc: JSON.parse(JSON.stringify(c.doc)), observedAt: T0 }));
  const hosts = [...demo.hosts];
  const out: PutItem[][] = [];
  const versions = Math.max(...hosts.map((h) => h.versions.length));
  for (let v = 0; v < versions; v++) {
    const batch: PutItem[] = [];
    for (const h of hosts) {
      const ver = h.versions[v];
      if (!ver) continue;
      // Half with the text they were parsed from, as `periscope import` gives its lines.
      const json = JSON.stringify(ver.doc);
      batch.push(batch.length % 2 === 0 ? { id: h.id, doc: JSON.parse(json), observedAt: ver.observedAt, json } : { id: h.id, doc: JSON.parse(json), observedAt: ver.observedAt });
    }
    for (let i = 0; i < batch.length; i += 50) out.push(batch.slice(i, i + 50));
  }
  out.push(out[out.length - 1]!.map((it) => ({ ...it, doc: JSON.parse(JSON.stringify(it.doc)) })));
  const first = hosts[0]!;
  const late = first.versions[0]!;
  class Banner {
    constructor(readonly text: string) {}
  }
  out.push([
    { id: first.id, doc: { ...JSON.parse(JSON.stringify(late.doc)), labels: ['late'] }, observedAt: new Date(Date.parse(late.observedAt) - 1000).toISOString() },
    { id: '198.51.100.7', doc: { ip: '198.51.100.7', labels: ['newer'] }, observedAt: '2026-10-02T00:00:00.000Z' },
    { id: '198.51.100.7', doc: { ip: '198.51.100.7', labels: ['older'] }, observedAt: '2026-10-01T00:00:00.000Z' },
    { id: '198.51.100.8', doc: { ip: '198.51.100.8', last_updated_at: new Date(T0), services: [{ port: 80, banner: new Banner('x'), n: -0, m: NaN, u: undefined }] }, observedAt: T0 },
    { id: '198.51.100.9', doc: JSON.parse('{"ip":"198.51.100.9","z":{"__proto__":{"x":1},"10":1,"9":2,"b":"\\u0000\\ud83d\\ude00"}}'), observedAt: T0 },
    // Texts whose numbers JSON.parse makes -0 and Infinity, which the store keeps as 0 and null.
    ...[
      '{"ip":"198.51.100.10","n":-0,"f":-0.0e3,"big":1e400,"tiny":-1e-400,"at":"2026-01-01"}',
      '{"ip":"198.51.100.11","labels":["a"],"m":-0.5,"at":"2026-01-01"}',
    ].map((json) => ({ id: (JSON.parse(json) as { ip: string }).ip, doc: JSON.parse(json) as Record<string, unknown>, observedAt: T0, json })),
  ]);
  return [[...certs], ...out];
}

async function dump(store: KyselyStore): Promise<unknown[]> {
  const versions = await sql<Record<string, unknown>>`select index_name, id, version, doc::text as doc, content_hash, valid_from from document_versions order by index_name, id, version`
    .execute(store.db)
    .catch(() => sql<Record<string, unknown>>`select index_name, id, version, doc, content_hash, valid_from from document_versions order by index_name, id, version`.execute(store.db));
  const current = await sql<Record<string, unknown>>`select index_name, id, version, content_hash, valid_from from documents order by index_name, id`.execute(store.db);
  return [versions.rows, current.rows];
}

async function loadBoth(open: () => Promise<KyselyStore>): Promise<void> {
  const input = batches();
  const a = await open();
  const b = await open();
  try {
    const engineA = new RecordingEngine(catalogues);
    const engineB = new RecordingEngine(catalogues);
    const byPut: PutResult[][] = [];
    for (const batch of input) {
      const index: IndexName = batch === input[0] ? 'certificates' : 'hosts';
      byPut.push(await new Indexer(contextOf(a, engineA)).put(index, batch));
    }
    const byPutAll: PutResult[][] = [];
    const indexer = new Indexer(contextOf(b, engineB));
    await indexer.putAll('certificates', [input[0]!], (_items, results) => void byPutAll.push([...results]));
    async function* hosts(): AsyncGenerator<PutItem[]> {
      for (const batch of input.slice(1)) yield batch;
    }
    await indexer.putAll('hosts', hosts(), (_items, results) => void byPutAll.push([...results]));
    assert.deepEqual(byPutAll, byPut, 'the same results per batch');
    assert.ok(byPut.flat().some((r) => r.outcome === 'updated') && byPut.flat().some((r) => r.outcome === 'unchanged'), 'the input updates and repeats');
    assert.deepEqual(await dump(b), await dump(a), 'the same tables');
    for (const engine of [engineA, engineB]) {
      // What the store holds, not what JSON.parse made of the text (JSON.stringify hides the difference).
      const odd = engine.upserted.hosts.get('198.51.100.10')!;
      assert.ok(Object.is(odd.n, 0) && Object.is(odd.f, 0) && Object.is(odd.tiny, 0) && odd.big === null, JSON.stringify(odd));
      assert.equal(engine.upserted.hosts.get('198.51.100.11')!.m, -0.5);
    }
    for (const index of ['certificates', 'hosts'] as const) {
      assert.deepEqual([...engineB.upserted[index].keys()].sort(), [...engineA.upserted[index].keys()].sort(), `${index}: the same ids indexed`);
      for (const [id, doc] of engineA.upserted[index]) assert.deepEqual(JSON.parse(JSON.stringify(engineB.upserted[index].get(id))), JSON.parse(JSON.stringify(doc)), `${index} ${id}`);
    }
  } finally {
    await a.close();
    await b.close();
  }
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-put-all-'));
  dirs.push(dir);
  return dir;
}

function sqliteStore(): Promise<KyselyStore> {
  return openStore({ kind: 'sqlite', file: join(tempDir(), 'store.db') });
}

describe('Indexer.putAll on SQLite (writer thread)', () => {
  it('stores and indexes exactly what batches of put do', () => loadBoth(sqliteStore));

  it('checkpoints a persistent engine once, at the end, and a reopened engine holds everything', async () => {
    const dir = tempDir();
    const opened = await openStore({ kind: 'sqlite', file: join(dir, 'store.db') });
    const engine = new EmbeddedEngine(catalogues, { dir: join(dir, 'engine') });
    try {
      const p = engine.persistence!;
      const store = journaledStore(opened, p);
      const indexer = new Indexer(contextOf(store, engine), { checkpointIds: 10 });
      await indexer.rebuild();
      let checkpoints = 0;
      const checkpoint = p.checkpoint.bind(p);
      Object.assign(p, { checkpoint: () => (checkpoints++, checkpoint()) });
      const input = batches().slice(1, 6);
      await indexer.putAll('hosts', input);
      assert.equal(checkpoints, 1, 'one checkpoint');
      assert.equal(p.pending, 0);
      const ids = new Set(input.flat().map((it) => it.id));
      assert.equal(engine.size('hosts'), ids.size);
      await engine.close();
      const again = new EmbeddedEngine(catalogues, { dir: join(dir, 'engine') });
      try {
        const report = await new Indexer(contextOf(journaledStore(opened, again.persistence), again)).rebuild();
        assert.equal(report.mode, 'segments');
        assert.equal(report.replayed, 0);
        assert.equal(again.size('hosts'), ids.size);
      } finally {
        await again.close();
      }
    } finally {
      await opened.close();
    }
  });

  it('storeOnly leaves an unopened engine alone; the engine that opens the segments next reads the journaled ids', async () => {
    const dir = tempDir();
    const opened = await openStore({ kind: 'sqlite', file: join(dir, 'store.db') });
    const input = batches().slice(1, 7);
    const withEngine = async (f: (engine: EmbeddedEngine, indexer: Indexer) => Promise<void>) => {
      const engine = new EmbeddedEngine(catalogues, { dir: join(dir, 'engine') });
      try {
        await f(engine, new Indexer(contextOf(journaledStore(opened, engine.persistence), engine)));
      } finally {
        await engine.close();
      }
    };
    try {
      // A server loads the first batches and checkpoints on close.
      await withEngine(async (_engine, indexer) => {
        await indexer.rebuild();
        await indexer.putAll('hosts', input.slice(0, 2));
      });
      // An import: the engine is never opened.
      await withEngine(async (engine, indexer) => {
        const results: PutResult[] = [];
        await indexer.putAll('hosts', input.slice(2), (_items, r) => void results.push(...r), { storeOnly: true });
        assert.ok(results.some((r) => r.outcome === 'updated'), 'the import updates documents');
        assert.equal(engine.size('hosts'), 0, 'nothing indexed');
      });
      await withEngine(async (engine, indexer) => {
        const report = await indexer.rebuild();
        assert.equal(report.mode, 'segments');
        assert.equal(report.replayed, new Set(input.slice(2).flat().map((it) => it.id)).size);
        assert.equal(engine.size('hosts'), await opened.documents.count('hosts'));
        const reference = new RecordingEngine(catalogues);
        await new Indexer(contextOf(opened, reference)).rebuild();
        for (const id of reference.upserted.hosts.keys()) {
          const query = { kind: 'field', field: catalogues.hosts.get('ip')!, predicate: { op: 'eq', value: id.split('+')[0]!, caseSensitive: false } } as const;
          assert.deepEqual(engine.search('hosts', { query, limit: 10 }).hits.map((h) => h.id).sort(), reference.search('hosts', { query, limit: 10 }).hits.map((h) => h.id).sort(), id);
        }
      });
    } finally {
      await opened.close();
    }
  });

  it('indexes the batches written before the input failed, then throws', async () => {
    const store = await sqliteStore();
    try {
      const engine = new RecordingEngine(catalogues);
      const input = batches().slice(1, 4);
      async function* failing(): AsyncGenerator<PutItem[]> {
        yield input[0]!;
        yield input[1]!;
        yield input[2]!;
        throw new Error('read error');
      }
      await assert.rejects(new Indexer(contextOf(store, engine)).putAll('hosts', failing()), /read error/);
      const ids = new Set(input.flat().map((it) => it.id));
      assert.equal(await store.documents.count('hosts'), ids.size);
      assert.deepEqual([...engine.upserted.hosts.keys()].sort(), [...ids].sort());
    } finally {
      await store.close();
    }
  });
});

describe('Indexer.putAll on PostgreSQL', async () => {
  const url = await reachablePostgres();
  const freshSchema = testSchemas(url, 'periscope_put_all');
  it('stores and indexes exactly what batches of put do', () => loadBoth(() => openStore({ kind: 'postgres', url, schema: freshSchema() })));
});
