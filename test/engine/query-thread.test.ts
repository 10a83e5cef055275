/**
 * The query thread (query-thread.ts): an index of parts reopened with `queryThread` searches
 * about half of its parts on a second thread, and answers exactly as an engine holding every
 * document in one index (in memory, held to the reference evaluator by the conformance suite): pages in order with cursors both ways, sorted pages, aggregations
 * (whose merge asks the thread for candidates and counts), before and after writes that take
 * parts back from the thread.
 */
import { after, before, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedEngine, PartedEngine } from '../../src/engine/index.ts';
import type { SearchEngine, SearchRequest, SortSpec } from '../../src/engine/search-engine.ts';
import { catalogueFor } from '../../src/model/field-catalogue.ts';
import { ConfigError, loadConfig } from '../../src/main/config.ts';
import { QueryThread, QueryThreadError } from '../../src/engine/embedded/query-thread.ts';
import { compileQuery } from '../../src/query/index.ts';
import { realisticHost } from './realistic-hosts.ts';

const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
const HOSTS = 1200;
const PART = 150;

const QUERIES = [
  '*',
  // The hosts API's `*`: with `*`, answered from counts merged over the parts once asked twice (whole-counts.ts).
  'not name: *',
  'services.service_name: HTTP',
  'not services.port: 22',
  'services: (service_name: HTTP and port: 443)',
  'nginx',
  'ip: 10.0.0.0/8',
  'services.port: [1000 to 9000]',
  'dns.names: *.com',
  'services.banner: "HTTP/1.1 200"',
];
const SORTS: SortSpec[][] = [[], [{ field: 'services.port', descending: true }], [{ field: 'location.country', descending: false }, { field: 'ip', descending: true }]];
const FIELDS = ['services.port', 'location.country', 'autonomous_system.asn', 'services.software.product', 'ip'];

function compiled(text: string) {
  const c = compileQuery(text, catalogues.hosts);
  assert.ok(c.ok, text);
  return c.query;
}

/** Every page of the query, forward to the end then backward from there, compared page by page. */
function samePages(actual: SearchEngine, expected: SearchEngine, text: string, sort: SortSpec[]): void {
  const query = compiled(text);
  let request: SearchRequest = { query, sort, limit: 37 };
  for (let page = 0; page < 60; page++) {
    const a = actual.search('hosts', request);
    const e = expected.search('hosts', request);
    assert.deepEqual(a, e, `${text} sorted by ${JSON.stringify(sort)}, page ${page} forward`);
    if (!a.more || a.hits.length === 0) break;
    request = { query, sort, limit: 37, after: a.hits[a.hits.length - 1].position };
  }
  request = { query, sort, limit: 23, backwards: true, after: { values: sort.map(() => null), orderKey: '\uffff' } };
  for (let page = 0; page < 3; page++) {
    const a = actual.search('hosts', request);
    const e = expected.search('hosts', request);
    assert.deepEqual(a, e, `${text} sorted by ${JSON.stringify(sort)}, page ${page} backward`);
    if (!a.more || a.hits.length === 0) break;
    request = { ...request, after: a.hits[0].position };
  }
}

function agree(actual: SearchEngine, expected: SearchEngine): void {
  assert.equal(actual.size('hosts'), expected.size('hosts'));

  for (const text of QUERIES) {
    for (const sort of SORTS) samePages(actual, expected, text, sort);
    for (const field of FIELDS) {
      for (const numBuckets of [1, 5, 50]) {
        const request = { query: compiled(text), field, numBuckets };
        assert.deepEqual(actual.aggregate('hosts', request), expected.aggregate('hosts', request), `${text} by ${field}, ${numBuckets}`);
      }
    }
  }
}

describe('the query thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-query-thread-'));
  const engineDir = join(dir, 'engine');
  // One index of every document, in memory (the conformance suite holds it to the reference evaluator).
  const reference = new EmbeddedEngine(catalogues);
  let engine: PartedEngine;

  before(() => {
    const loading = new PartedEngine(catalogues, { dir: engineDir, partDocuments: PART });
    assert.equal(loading.persistence!.open().loaded, false);
    for (let i = 0; i < HOSTS; i++) {
      const { id, doc } = realisticHost(i);
      loading.upsert('hosts', id, doc);
      reference.upsert('hosts', id, doc);
    }
    // Tombstones in sealed parts: the thread's parts hold them too.
    for (let i = 0; i < HOSTS; i += 11) {
      loading.remove('hosts', realisticHost(i).id);
      reference.remove('hosts', realisticHost(i).id);
    }
    loading.persistence!.checkpoint();
    loading.persistence!.close();
    engine = new PartedEngine(catalogues, { dir: engineDir, partDocuments: PART, queryThread: true });
    assert.ok(engine.persistence!.open().loaded);
  });

  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes about half of the parts, never part 0 or the newest', () => {
    assert.ok(engine.parts.length >= 8, `parts: ${engine.parts.length}`);
    const taken = engine.threadParts;
    assert.equal(taken.length, Math.floor(engine.parts.length / 2));
    assert.ok(!taken.includes(0) && !taken.includes(engine.parts.length - 1), `thread parts ${taken.join(',')}`);
  });

  it('answers every page and aggregation as one index does', () => {
    agree(engine, reference);
  });

  it('gives a part back when it is written, and still agrees', () => {
    const before = engine.threadParts.length;
    // Hosts of part 1 (the first thread part): one replaced, one removed.
    const replaced = realisticHost(PART + 3);
    const doc = { ...replaced.doc, labels: ['moved-by-test'] };
    engine.upsert('hosts', replaced.id, doc);
    reference.upsert('hosts', replaced.id, doc);
    engine.remove('hosts', realisticHost(PART + 5).id);
    reference.remove('hosts', realisticHost(PART + 5).id);
    assert.equal(engine.threadParts.length, before - 1);
    agree(engine, reference);
    const moved = engine.search('hosts', { query: compiled('labels: moved-by-test'), limit: 5 });
    assert.deepEqual(moved.hits.map((h) => h.id), [replaced.id]);
  });

  it('is not started for an index of two parts', async () => {
    const small = join(dir, 'small');
    const loading = new PartedEngine(catalogues, { dir: small, partDocuments: PART });
    loading.persistence!.open();
    for (let i = 0; i < PART + 10; i++) loading.upsert('hosts', realisticHost(i).id, realisticHost(i).doc);
    loading.persistence!.checkpoint();
    loading.persistence!.close();
    const two = new PartedEngine(catalogues, { dir: small, partDocuments: PART, queryThread: true });
    assert.ok(two.persistence!.open().loaded);
    assert.equal(two.parts.length, 2);
    assert.deepEqual(two.threadParts, []);
    await two.close();
  });
});

describe('handing parts to the thread while serving', () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-query-thread-handover-'));
  const reference = new EmbeddedEngine(catalogues);
  let engine: PartedEngine;

  before(() => {
    // Loaded by this process, as a first start loads the store: no thread while it loads.
    engine = new PartedEngine(catalogues, { dir: join(dir, 'engine'), partDocuments: PART, queryThread: true });
    assert.equal(engine.persistence!.open().loaded, false);
    for (let i = 0; i < HOSTS; i++) {
      const { id, doc } = realisticHost(i);
      engine.upsert('hosts', id, doc);
      reference.upsert('hosts', id, doc);
    }
  });

  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Queries, as a server gets them, until the thread has taken `n` parts (it opens and warms them meanwhile). */
  async function threadTakes(n: number): Promise<void> {
    const deadline = performance.now() + 60_000;
    while (engine.threadParts.length !== n) {
      assert.ok(performance.now() < deadline, `thread parts ${engine.threadParts.join(',')}, expected ${n}`);
      assert.equal(engine.search('hosts', { query: compiled('*'), limit: 1 }).total, reference.size('hosts'));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('takes half of the parts once the load is checkpointed and reopened, and answers as one index does', async () => {
    assert.ok(engine.parts.length >= 8, `parts: ${engine.parts.length}`);
    assert.equal(engine.threadParts.length, 0);
    // The load wrote every part since the last checkpoint: none is handed over at its checkpoint...
    engine.persistence!.checkpoint();
    assert.ok(!engine.handingOver);
    // ...but at the reopen that ends it, with no write in between.
    engine.persistence!.reopen();
    assert.ok(engine.handingOver);
    agree(engine, reference);
    await threadTakes(Math.floor(engine.parts.length / 2));
    assert.ok(!engine.threadParts.includes(0) && !engine.threadParts.includes(engine.parts.length - 1));
    agree(engine, reference);
  });

  it('takes a part back that writes gave back, after a checkpoint with no write to it since the last one', async () => {
    const held = engine.threadParts.length;
    const replaced = realisticHost(PART + 3);
    const doc = { ...replaced.doc, labels: ['handed-back'] };
    engine.upsert('hosts', replaced.id, doc);
    reference.upsert('hosts', replaced.id, doc);
    assert.equal(engine.threadParts.length, held - 1);
    // Written since the last checkpoint: kept here at this one.
    engine.persistence!.checkpoint();
    assert.ok(!engine.handingOver);
    agree(engine, reference);
    assert.equal(engine.threadParts.length, held - 1);
    // Not written since: handed over again.
    engine.persistence!.checkpoint();
    assert.ok(engine.handingOver);
    await threadTakes(held);
    agree(engine, reference);
    assert.deepEqual(engine.search('hosts', { query: compiled('labels: handed-back'), limit: 5 }).hits.map((h) => h.id), [replaced.id]);
  });

  it('keeps a part that is written while the thread opens it', async () => {
    const held = engine.threadParts.length;
    const first = realisticHost(PART + 7);
    engine.remove('hosts', first.id);
    reference.remove('hosts', first.id);
    engine.persistence!.checkpoint();
    // Handed over at this checkpoint, and written before any query takes it over (whether or not
    // the thread has opened it by then).
    engine.persistence!.checkpoint();
    assert.ok(engine.handingOver);
    const second = realisticHost(PART + 9);
    const doc = { ...second.doc, labels: ['written-during-handover'] };
    engine.upsert('hosts', second.id, doc);
    reference.upsert('hosts', second.id, doc);
    const deadline = performance.now() + 60_000;
    while (engine.handingOver) {
      assert.ok(performance.now() < deadline, 'the handover did not end');
      engine.search('hosts', { query: compiled('*'), limit: 1 });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(engine.threadParts.length, held - 1);
    agree(engine, reference);
    assert.deepEqual(engine.search('hosts', { query: compiled('labels: written-during-handover'), limit: 5 }).hits.map((h) => h.id), [second.id]);
  });

  it('searches every part here once the thread has ended, and starts none again', async () => {
    assert.ok(engine.threadParts.length > 0);
    // The thread ends as a crash would end it (its exit handler flags the shared signal).
    const thread = (engine as unknown as { thread: QueryThread }).thread;
    await (thread as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    agree(engine, reference);
    assert.equal(engine.threadParts.length, 0);
    engine.persistence!.checkpoint();
    assert.ok(!engine.handingOver);
    assert.equal((engine as unknown as { thread?: QueryThread }).thread, undefined);
    agree(engine, reference);
  });
});

test('the setting: on by default, off by environment or config file, and nothing else accepted', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'periscope-query-thread-config-'));
  try {
    const file = (engine: unknown) => {
      const p = join(tmp, `c${Math.random()}.json`);
      writeFileSync(p, JSON.stringify({ engine }));
      return p;
    };
    assert.equal(loadConfig({ flags: {}, env: {} }).engine.queryThread, true);
    assert.equal(loadConfig({ flags: {}, env: { PERISCOPE_ENGINE_QUERY_THREAD: '0' } }).engine.queryThread, false);
    assert.equal(loadConfig({ flags: {}, env: { PERISCOPE_ENGINE_QUERY_THREAD: 'on' } }).engine.queryThread, true);
    assert.equal(loadConfig({ flags: { config: file({ queryThread: false }) }, env: {} }).engine.queryThread, false);
    // The environment beats the file.
    assert.equal(loadConfig({ flags: { config: file({ queryThread: false }) }, env: { PERISCOPE_ENGINE_QUERY_THREAD: '1' } }).engine.queryThread, true);
    for (const env of [{}, { PERISCOPE_ENGINE_QUERY_THREAD: '1' }]) {
      assert.throws(() => loadConfig({ flags: { config: file({ queryThread: 'yes' }) }, env }), (e: unknown) => e instanceof ConfigError && /engine\.queryThread must be true or false/.test(e.message));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a thread that ends while a query waits, or never starts, fails the wait at once', async () => {
  for (const module of [new URL('./query-thread-exits.ts', import.meta.url).href, new URL('./no-such-module.ts', import.meta.url).href]) {
    const thread = new QueryThread({}, module);
    const started = performance.now();
    assert.throws(() => thread.wait(thread.post({ type: 'collect' }), 60_000), QueryThreadError, module);
    // Flagged by the thread itself, not found by the timeout.
    assert.ok(performance.now() - started < 30_000, `${module}: ${performance.now() - started} ms`);
    assert.ok(thread.dead);
    await thread.stop();
  }
});
