/**
 * An index made of parts (parted-engine.ts, parted-directory.ts) through the runtime as `serve`
 * uses it: a load of the whole store seals full parts as it goes, a restart opens every part, a
 * load that never reached its checkpoint is done again, and a part made after the last
 * checkpoint and lost comes back from part 0's journal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS, type Config } from '../../src/main/config.ts';
import { openRuntime, type Runtime } from '../../src/main/runtime.ts';
import { Indexer, type RebuildReport } from '../../src/search/indexer.ts';
import { PartedEngine, ReferenceEngine } from '../../src/engine/index.ts';
import { catalogueFor } from '../../src/model/field-catalogue.ts';
import { INCOMPLETE_FILE } from '../../src/engine/embedded/parted-directory.ts';
import { compileQuery } from '../../src/query/index.ts';
import { batchOf } from './durability-child.ts';

const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };

const QUERIES = ['*', 'services.service_name: HTTP', 'not services.port: 22', 'services: (service_name: HTTP and port: 8080)', 'nginx', 'labels: batch-3'];

function configOf(dir: string, partDocuments: number): Config {
  return { ...DEFAULTS, dataDir: dir, logLevel: 'silent', engine: { partDocuments } };
}

const partsOf = (rt: Runtime) => (rt.engine as PartedEngine).parts.length;
const partDirs = (dir: string) => readdirSync(join(dir, 'engine')).filter((n) => n.startsWith('part-'));

/** Same totals, first hits and port buckets as a reference engine loaded from the whole store. */
async function agreesWithStore(rt: Runtime): Promise<void> {
  const ref = new ReferenceEngine(rt.ctx.catalogues);
  await new Indexer({ ...rt.ctx, engine: ref }).rebuild();
  assert.equal(rt.engine.size('hosts'), ref.size('hosts'));
  assert.equal(rt.engine.size('certificates'), ref.size('certificates'));
  for (const text of QUERIES) {
    const c = compileQuery(text, rt.ctx.catalogues.hosts);
    assert.ok(c.ok, text);
    for (const sort of [[], [{ field: 'services.port', descending: true }]]) {
      const a = rt.engine.search('hosts', { query: c.query, limit: 25, sort });
      const e = ref.search('hosts', { query: c.query, limit: 25, sort });
      assert.deepEqual(a, e, text);
    }
    const request = { query: c.query, field: 'services.port', numBuckets: 3 };
    assert.deepEqual(rt.engine.aggregate('hosts', request), ref.aggregate('hosts', request), text);
  }
}

/** A store of batches 0..n-1 written by a process that never opened the engine (as `periscope ingest` does). */
async function storeOnlyBatches(dir: string, partDocuments: number, n: number): Promise<void> {
  const writer = await openRuntime(configOf(dir, partDocuments), { storeOnly: true });
  await writeBatches(writer, 0, n);
  await writer.close();
}

/** Starts as `serve` does after a kill: checks how the index came up, then that it agrees with the store. */
async function restartAndCheck(dir: string, partDocuments: number, check: (report: RebuildReport) => void): Promise<void> {
  const rt = await openRuntime(configOf(dir, partDocuments));
  try {
    check(await rt.indexer.rebuild());
    await agreesWithStore(rt);
  } finally {
    await rt.close();
  }
}

/** Writes batches from..to-1 through the Indexer. */
async function writeBatches(rt: Runtime, from: number, to: number): Promise<void> {
  for (let n = from; n < to; n++) {
    const b = batchOf(n);
    await rt.indexer.put(b.index, b.items);
  }
}

/**
 * Part 0 checkpointed with batches 0-2; then more hosts than part 0 takes, so part 0 is sealed
 * and a new part starts that no checkpoint covers, and the process is abandoned as a kill would
 * leave it (its store stays open for the caller to close).
 */
async function abandonedWithNewPart(dir: string): Promise<{ killed: Runtime; parts: number }> {
  const first = await openRuntime(configOf(dir, 300));
  await first.indexer.rebuild();
  await writeBatches(first, 0, 3);
  await first.close();
  const killed = await openRuntime(configOf(dir, 300));
  assert.equal((await killed.indexer.rebuild()).mode, 'segments');
  const indexer = new Indexer(killed.ctx, { checkpointIds: 1_000_000 });
  for (let n = 3; n < 9; n++) {
    const b = batchOf(n);
    await indexer.put(b.index, b.items);
  }
  const parts = partsOf(killed);
  assert.ok(parts >= 2, `parts: ${parts}`);
  return { killed, parts };
}

test('a load of the whole store seals full parts as it goes; a restart opens them all', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-parts-'));
  try {
    await storeOnlyBatches(dir, 250, 12);

    const rt = await openRuntime(configOf(dir, 250));
    try {
      const report = await rt.indexer.rebuild();
      assert.equal(report.mode, 'store');
      assert.ok(partsOf(rt) >= 4, `parts: ${partsOf(rt)}`);
      // Every part serves from its segments (a restart's memory), the full ones since they were sealed.
      assert.equal((rt.engine as PartedEngine).reopened.size, partsOf(rt));
      assert.equal(existsSync(join(dir, 'engine', INCOMPLETE_FILE)), false);
      await agreesWithStore(rt);
    } finally {
      await rt.close();
    }

    const again = await openRuntime(configOf(dir, 250));
    try {
      const report = await again.indexer.rebuild();
      assert.equal(report.mode, 'segments');
      assert.equal(partsOf(again), partDirs(dir).length + 1);
      await agreesWithStore(again);
      // Writes after the restart: updates stay in their parts, new hosts go to the newest.
      await writeBatches(again, 12, 20);
      await agreesWithStore(again);
    } finally {
      await again.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a load that never reached its checkpoint is done again at the next start', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-parts-'));
  try {
    await storeOnlyBatches(dir, 200, 8);

    // Opened, then loaded by hand without the final checkpoint, then abandoned as a kill would.
    const killed = await openRuntime(configOf(dir, 200));
    const p = killed.engine.persistence!;
    assert.equal(p.open().loaded, false);
    for await (const batch of killed.store.documents.scan('hosts', 100)) for (const h of batch) killed.engine.upsert('hosts', h.id, h.doc);
    assert.ok(partsOf(killed) >= 3);
    assert.ok(partDirs(dir).length >= 2, 'sealed parts were written');
    assert.ok(existsSync(join(dir, 'engine', INCOMPLETE_FILE)));

    await restartAndCheck(dir, 200, (report) => {
      assert.equal(report.mode, 'store');
      assert.match(report.reason ?? '', /did not finish/);
    });
    await killed.store.close?.();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a part made after the last checkpoint and lost: its documents come back from the journal', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-parts-'));
  try {
    const { killed, parts } = await abandonedWithNewPart(dir);
    const newest = join(dir, 'engine', `part-${String(parts - 1).padStart(4, '0')}`);
    const manifest = JSON.parse(readFileSync(join(newest, 'manifest.json'), 'utf8'));
    assert.equal(manifest.segments.hosts.documents, 0, 'the newest part was checkpointed only when it was made, empty');

    await restartAndCheck(dir, 300, (report) => {
      assert.equal(report.mode, 'segments');
      assert.ok(report.replayed > 0);
    });
    await killed.store.close?.();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a kill while a new part was being made: its unfinished directory is removed, and the restart opens the segments', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-parts-'));
  try {
    const { killed, parts } = await abandonedWithNewPart(dir);
    assert.deepEqual(partDirs(dir).filter((n) => n.endsWith('.new')), [], 'a part made whole is renamed into place');
    // The newest part as a kill within its first checkpoint leaves it: under its temporary name,
    // its segment written and its manifest not.
    const name = `part-${String(parts - 1).padStart(4, '0')}`;
    const unfinished = join(dir, 'engine', `${name}.new`);
    renameSync(join(dir, 'engine', name), unfinished);
    rmSync(join(unfinished, 'manifest.json'));

    await restartAndCheck(dir, 300, (report) => {
      assert.equal(report.mode, 'segments', report.reason);
      assert.ok(report.replayed > 0, 'the newest part\'s documents come back from the journal');
    });
    assert.ok(!existsSync(unfinished), 'the unfinished part is removed');
    await killed.store.close?.();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a part directory without a manifest is damage: the store is loaded again', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-parts-'));
  try {
    const first = await openRuntime(configOf(dir, 300));
    await first.indexer.rebuild();
    await writeBatches(first, 0, 9);
    assert.ok(partsOf(first) >= 2);
    await first.close();
    rmSync(join(dir, 'engine', 'part-0001', 'manifest.json'));
    await restartAndCheck(dir, 300, (report) => {
      assert.equal(report.mode, 'store');
      assert.match(report.reason ?? '', /^part 1: /);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('part 0 filled while the journal is replayed: sealing it keeps the journals, and a kill then loses nothing', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-parts-'));
  try {
    const first = await openRuntime(configOf(dir, 400));
    await first.indexer.rebuild();
    await writeBatches(first, 0, 2);
    await first.close();
    // Journaled by a writer that never indexed them: the next start replays them, and they fill part 0.
    const writer = await openRuntime(configOf(dir, 400), { storeOnly: true });
    await writeBatches(writer, 2, 6);
    await writer.close();

    const killed = await openRuntime(configOf(dir, 400));
    assert.equal((await killed.indexer.rebuild()).mode, 'segments');
    assert.ok(partsOf(killed) >= 2, 'part 0 was sealed during the replay');
    const journals = readdirSync(join(dir, 'engine')).filter((n) => n.startsWith('journal-'));
    assert.ok(journals.length > 0, 'the journals being replayed are still there');

    await restartAndCheck(dir, 400, (report) => {
      assert.equal(report.mode, 'segments');
      assert.ok(report.replayed > 0);
    });
    await killed.store.close?.();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('removed and written again into a newer part, saved in the wrong order before a kill: the replay leaves one copy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-parts-'));
  try {
    const doc = (ip: string, port: number) => ({ ip, services: [{ port, service_name: 'HTTP', transport_protocol: 'TCP' }] });
    const ips = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'];
    const engine = new PartedEngine(catalogues, { dir: join(dir, 'engine'), partDocuments: 2 });
    const p = engine.persistence!;
    assert.equal(p.open().loaded, false);
    for (const ip of ips) engine.upsert('hosts', ip, doc(ip, 80));
    p.checkpoint();
    assert.equal(engine.parts.length, 2);
    // 10.0.0.1 leaves part 0 and comes back into part 1, which alone is saved before the "kill".
    p.journal('hosts', ['10.0.0.1']);
    engine.remove('hosts', '10.0.0.1');
    engine.upsert('hosts', '10.0.0.1', doc('10.0.0.1', 443));
    engine.parts[1].persistence!.checkpoint();
    p.close();

    const again = new PartedEngine(catalogues, { dir: join(dir, 'engine'), partDocuments: 2 });
    const opened = again.persistence!.open();
    assert.ok(opened.loaded);
    assert.deepEqual(opened.tail.get('hosts'), ['10.0.0.1']);
    // What Indexer.refresh does with a journaled id: the current version, written again.
    again.upsert('hosts', '10.0.0.1', doc('10.0.0.1', 443));
    assert.equal(again.size('hosts'), 4);
    const all = compileQuery('services.port: 443', catalogues.hosts);
    assert.ok(all.ok);
    assert.deepEqual(again.search('hosts', { query: all.query, limit: 10 }).hits.map((h) => h.id), ['10.0.0.1']);
    again.persistence!.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
