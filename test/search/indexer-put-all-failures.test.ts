/**
 * Indexer.putAll when things go wrong, on a persistent engine over SQLite: a store write that
 * fails mid-way (the batch after it is already handed over), the input failing, a checkpoint made
 * by another writer while a batch is written but not yet indexed, the same ids in consecutive
 * batches. Whatever happened, the engine opened next (a restart: clean close, or a crash leaving
 * the journal) holds exactly the store's current documents.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import type { KyselyStore } from '../../src/store/kysely-store.ts';
import type { DocumentRepository } from '../../src/store/store.ts';
import { catalogueFor } from '../../src/model/field-catalogue.ts';
import type { FieldCatalogue } from '../../src/model/field-def.ts';
import { EmbeddedEngine, ReferenceEngine, type SearchEngine } from '../../src/engine/index.ts';
import type { ResolvedQuery } from '../../src/query/resolved.ts';
import { Indexer, journaledStore, type PutItem } from '../../src/search/indexer.ts';
import type { SearchContext } from '../../src/search/search-context.ts';

const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };

function contextOf(store: KyselyStore, engine: SearchEngine): SearchContext {
  return { store, engine, catalogues, now: () => new Date('2026-11-01T00:00:00Z') };
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A temporary directory (removed after the tests) with a SQLite store in it. */
async function tempStore(prefix: string): Promise<{ dir: string; store: KyselyStore }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return { dir, store: await openStore({ kind: 'sqlite', file: join(dir, 'store.db') }) };
}

/** Host `n`'s round-`r` version: ids repeat across rounds (updates), services grow and shrink. */
function host(n: number, r: number): PutItem {
  const ip = `10.20.${n >> 8}.${n & 255}`;
  const services = Array.from({ length: (n + r) % 3 }, (_, i) => ({ port: 1000 + ((n + r + i) % 7), service_name: `S${(r + i) % 4}`, banner: `round ${r} banner ${i}` }));
  return { id: ip, doc: { ip, labels: [`r${r}`, `m${n % 5}`], services }, observedAt: new Date(Date.UTC(2026, 9, 1 + r)).toISOString() };
}

/** Batches of `size` where consecutive batches update the same ids. */
function rounds(count: number, hosts: number, size: number): PutItem[][] {
  const out: PutItem[][] = [];
  for (let r = 0; r < count; r++) {
    const all = Array.from({ length: hosts }, (_, n) => host(n, r));
    for (let i = 0; i < all.length; i += size) out.push(all.slice(i, i + size));
  }
  return out;
}

function field(catalogue: FieldCatalogue, path: string, value: string | number): ResolvedQuery {
  return { kind: 'field', field: catalogue.get(path)!, predicate: { op: 'eq', value, caseSensitive: false } } as ResolvedQuery;
}

/** The engine answers like a reference engine loaded from the store, for every value written. */
async function assertMatchesStore(store: KyselyStore, engine: SearchEngine, label: string): Promise<void> {
  const reference = new ReferenceEngine(catalogues);
  await new Indexer(contextOf(store, reference)).rebuild();
  const c = catalogues.hosts;
  const queries: ResolvedQuery[] = [{ kind: 'all' }];
  for (let r = 0; r < 8; r++) queries.push(field(c, 'labels', `r${r}`), field(c, 'services.service_name', `S${r % 4}`));
  for (let p = 1000; p < 1007; p++) queries.push(field(c, 'services.port', p));
  for (const query of queries) {
    const ids = (e: SearchEngine) => e.search('hosts', { query, limit: 1000 }).hits.map((h) => h.id).sort();
    assert.deepEqual(ids(engine), ids(reference), `${label}: ${JSON.stringify(query).slice(0, 120)}`);
  }
}

/** A store whose putMany fails on call number `failAt` (1-based), as a disk or constraint error would. */
function failingStore(store: KyselyStore, failAt: number): KyselyStore {
  let calls = 0;
  const docs = store.documents;
  const documents = new Proxy(docs, {
    get(target, prop) {
      if (prop === 'putMany') {
        return (...args: Parameters<DocumentRepository['putMany']>) => (++calls === failAt ? Promise.reject(new Error('disk full')) : target.putMany(...args));
      }
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'documents') return documents;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

async function reopen(store: KyselyStore, engineDir: string, label: string): Promise<void> {
  const engine = new EmbeddedEngine(catalogues, { dir: engineDir });
  try {
    await new Indexer(contextOf(journaledStore(store, engine.persistence), engine)).rebuild();
    await assertMatchesStore(store, engine, label);
  } finally {
    await engine.close();
  }
}

describe('Indexer.putAll failures on a persistent engine', () => {
  for (const failAt of [2, 3, 5]) {
    for (const crash of [false, true]) {
      it(`a store write failing at batch ${failAt}, then a ${crash ? 'crash' : 'clean close'}: the next engine holds the store`, async () => {
        const { dir, store } = await tempStore('periscope-put-all-fail-');
        try {
          const engine = new EmbeddedEngine(catalogues, { dir: join(dir, 'engine') });
          const indexer = new Indexer(contextOf(journaledStore(failingStore(store, failAt), engine.persistence), engine), { checkpointIds: 30 });
          await indexer.rebuild();
          await assert.rejects(indexer.putAll('hosts', rounds(3, 60, 25)), /disk full/);
          // The live engine holds what the store holds (the failed batch wrote nothing).
          await assertMatchesStore(store, engine, 'live');
          if (crash) engine.persistence!.close();
          else await engine.close();
          await reopen(store, join(dir, 'engine'), 'reopened');
        } finally {
          await store.close();
        }
      });
    }
  }

  it('a checkpoint by another writer while a batch is written but not indexed, then a crash: the next engine holds the store', async () => {
    const { dir, store } = await tempStore('periscope-put-all-ckpt-');
    try {
      const engine = new EmbeddedEngine(catalogues, { dir: join(dir, 'engine') });
      const indexer = new Indexer(contextOf(journaledStore(store, engine.persistence), engine), { checkpointIds: 5 });
      await indexer.rebuild();
      let n = 0;
      let checked = false;
      // Between batches (the next one already handed to the store), another writer's put
      // reaches the checkpoint threshold. The process dies right then: an engine opened on the
      // directory at that moment must still hold the store, the batch not yet indexed included.
      await indexer
        .putAll('hosts', rounds(4, 50, 20), async () => {
          n++;
          await indexer.put('hosts', [host(500 + n, n)]);
          if (n === 7) {
            // The batch handed over before this callback has committed by now (the writer works in order).
            await store.documents.get('hosts', host(0, 0).id);
            await new Promise((r) => setTimeout(r, 300));
            assert.equal(engine.persistence!.pending, 0, 'the put checkpointed');
            engine.persistence!.close();
            await reopen(store, join(dir, 'engine'), 'after the crash');
            checked = true;
            throw new Error('killed');
          }
        })
        .catch((err: Error) => assert.equal(err.message, 'killed'));
      assert.ok(checked);
    } finally {
      await store.close();
    }
  });
});

describe('Indexer.putAll with another writer', () => {
  it('a put of an id the batch written ahead created, made before that batch is indexed, is what the engine keeps', async () => {
    const { dir, store } = await tempStore('periscope-put-all-race-');
    try {
      const engine = new EmbeddedEngine(catalogues, { dir: join(dir, 'engine') });
      const indexer = new Indexer(contextOf(journaledStore(store, engine.persistence), engine));
      await indexer.rebuild();
      // Every round-0 batch creates its hosts; while batch k is indexed, batch k+1 is already
      // written, and the callback (standing for an API request) updates one of its hosts.
      const input = rounds(1, 100, 20);
      let k = 0;
      await indexer.putAll('hosts', input, async () => {
        const next = input[++k];
        if (next) await indexer.put('hosts', [host(Number(next[3]!.id.split('.')[3]), 7)]);
      });
      await assertMatchesStore(store, engine, 'live');
      await engine.close();
      await reopen(store, join(dir, 'engine'), 'reopened');
    } finally {
      await store.close();
    }
  });
});
