/**
 * Delta segments and merges: a checkpoint after the first writes only what changed since (a
 * delta listed after the full segment in the manifest); opening applies the chain and answers
 * like the reference evaluator; a merge (worker thread) or a clean close rewrites the chain as one
 * full segment; compaction forces the next checkpoint to be full; a damaged delta is refused.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { IndexName } from '../../src/model/field-def.ts';
import { EmbeddedEngine, ReferenceEngine } from '../../src/engine/index.ts';
import { MAX_DELTAS, type Manifest } from '../../src/engine/embedded/engine-directory.ts';
import { fixtureCatalogues } from './fixture-catalogue.ts';
import { certificateEntries, certificateOps, hostEntries, hostOps, type Entry, type Op } from './arbitraries.ts';
import { caseArb, compare, load, write } from './compare-engines.ts';
import { all, eq, field } from './engine-helpers.ts';

const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 200);

async function inTempDir(fn: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-delta-'));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function open(dir: string, merge = false, compaction?: { minDead: number; ratio: number }): EmbeddedEngine {
  const e = new EmbeddedEngine(fixtureCatalogues, { dir, ...(compaction ? { compaction } : {}) });
  e.persistence!.mergeEnabled = merge;
  const r = e.persistence!.open();
  assert.ok(r.loaded, r.loaded ? '' : r.reason);
  return e;
}

/** An engine over an empty directory (nothing to load yet). */
function create(dir: string, compaction?: { minDead: number; ratio: number }): EmbeddedEngine {
  const e = new EmbeddedEngine(fixtureCatalogues, { dir, ...(compaction ? { compaction } : {}) });
  e.persistence!.mergeEnabled = false;
  assert.equal(e.persistence!.open().loaded, false);
  return e;
}

function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

function deltas(dir: string, index: IndexName): number {
  return manifest(dir).segments[index].deltas?.length ?? 0;
}

function hostDoc(ip: string, service: string, port = 22): Record<string, unknown> {
  return { ip, location: { country: 'Germany' }, services: [{ port, service_name: service, banner: `${service} banner ${ip}` }] };
}

/** Full segment, then two deltas of writes (a second engine in between), reopened and compared at each step. */
function chain(index: IndexName, entries: fc.Arbitrary<Entry[]>, ops: fc.Arbitrary<Op[]>) {
  const catalogue = fixtureCatalogues[index];
  return fc.asyncProperty(entries, entries, ops, ops, fc.array(caseArb(catalogue), { minLength: 2, maxLength: 4 }), fc.boolean(), async (docs, more, writes, writes2, cases, queryFirst) => {
    await inTempDir(async (dir) => {
      const ref = new ReferenceEngine(fixtureCatalogues);
      const a = new EmbeddedEngine(fixtureCatalogues, { dir, compaction: { minDead: Infinity, ratio: 1 } });
      a.persistence!.mergeEnabled = false;
      a.persistence!.open();
      load([ref, a], index, docs);
      a.persistence!.checkpoint();
      // Queries decode some slots before the writes, others stay on disk.
      if (queryFirst) for (const c of cases) compare(ref, a, index, c);
      write([ref, a], index, docs, writes);
      load([ref, a], index, more.map((e) => ({ id: `n-${e.id}`, doc: e.doc })));
      a.persistence!.checkpoint();
      assert.equal(deltas(dir, index), 1);
      const b = open(dir, false, { minDead: Infinity, ratio: 1 });
      assert.equal(b.size(index), ref.size(index));
      for (const c of cases) compare(ref, b, index, c);
      write([ref, b], index, docs, writes2);
      b.persistence!.checkpoint();
      assert.ok(deltas(dir, index) >= 1 && deltas(dir, index) <= 2);
      const c2 = open(dir, false, { minDead: Infinity, ratio: 1 });
      for (const c of cases) compare(ref, c2, index, c);
      // Merged (as a worker or a clean close does): the same answers from one full segment.
      c2.persistence!.checkpoint(true);
      assert.equal(deltas(dir, index), 0);
      for (const c of cases) compare(ref, c2, index, c);
      const d = open(dir);
      for (const c of cases) compare(ref, d, index, c);
      b.persistence!.close();
      c2.persistence!.close();
      d.persistence!.close();
    });
  });
}

describe('delta segments', () => {
  it('hosts: full segment plus deltas, reopened, answers like the reference; merged likewise', async () => {
    await fc.assert(chain('hosts', hostEntries, hostOps), { numRuns: Math.ceil(RUNS / 10) });
  });

  it('certificates: full segment plus deltas, reopened, answers like the reference', async () => {
    await fc.assert(chain('certificates', certificateEntries, certificateOps), { numRuns: Math.ceil(RUNS / 20) });
  });

  it('a checkpoint after writes is a delta much smaller than the full segment; slots it touched stay undecoded at open', async () => {
    await inTempDir((dir) => {
      const a = create(dir);
      for (let i = 0; i < 2000; i++) a.upsert('hosts', `10.1.${i >> 8}.${i & 255}`, hostDoc(`10.1.${i >> 8}.${i & 255}`, i % 2 ? 'SSH' : 'HTTP'));
      a.persistence!.checkpoint();
      for (let i = 0; i < 20; i++) a.upsert('hosts', `10.2.0.${i}`, hostDoc(`10.2.0.${i}`, 'FTP', 21));
      a.remove('hosts', '10.1.0.5');
      a.persistence!.checkpoint();
      const m = manifest(dir);
      assert.equal(m.manifestVersion, 2);
      const entry = m.segments.hosts;
      assert.equal(entry.deltas?.length, 1);
      assert.ok(entry.deltas![0].bytes * 10 < entry.bytes, `delta ${entry.deltas![0].bytes} bytes, full ${entry.bytes}`);
      assert.equal(m.segments.certificates.deltas, undefined, 'an unchanged index writes no delta');
      a.persistence!.close();
      const b = open(dir);
      const slot = b['data' as keyof EmbeddedEngine] as unknown as Record<IndexName, { slotAt(p: string): { slot: object } }>;
      const banner = slot.hosts.slotAt('services.banner')!.slot as { deltas?: unknown[]; pending?: unknown };
      assert.ok(banner.pending && banner.deltas?.length === 1, 'the base block and the delta block wait on disk');
      assert.equal(b.search('hosts', { query: field('services.service_name', eq('ftp')), limit: 1 }).total, 20);
      assert.equal(b.search('hosts', { query: all, limit: 1 }).total, 2019);
      assert.equal(b.search('hosts', { query: field('ip', eq('10.1.0.5')), limit: 1 }).total, 0);
      assert.ok(banner.pending && banner.deltas?.length === 1, 'queries of other fields leave the slot on disk');
      assert.equal(b.search('hosts', { query: field('services.banner', eq('FTP banner 10.2.0.3')), limit: 1 }).total, 1);
      assert.equal(banner.deltas, undefined);
      assert.equal(banner.pending, undefined);
      b.persistence!.close();
    });
  });

  it('compaction makes the next checkpoint full; a clean close merges the deltas', async () => {
    await inTempDir(async (dir) => {
      const a = create(dir, { minDead: 5, ratio: 0 });
      for (let i = 0; i < 100; i++) a.upsert('hosts', `10.3.0.${i}`, hostDoc(`10.3.0.${i}`, 'SSH'));
      a.persistence!.checkpoint();
      a.upsert('hosts', '10.3.1.1', hostDoc('10.3.1.1', 'HTTP', 80));
      a.persistence!.checkpoint();
      assert.equal(deltas(dir, 'hosts'), 1);
      for (let i = 0; i < 10; i++) a.remove('hosts', `10.3.0.${i}`);
      a.persistence!.checkpoint();
      assert.equal(deltas(dir, 'hosts'), 0, 'compaction renumbered ordinals: a full segment');
      a.upsert('hosts', '10.3.1.2', hostDoc('10.3.1.2', 'HTTP', 80));
      a.persistence!.checkpoint();
      assert.equal(deltas(dir, 'hosts'), 1);
      await a.close();
      assert.equal(deltas(dir, 'hosts'), 0, 'closed with one full segment per index');
      assert.equal(readdirSync(dir).filter((n) => n.endsWith('.seg')).length, 2);
      const b = open(dir);
      assert.equal(b.search('hosts', { query: field('services.port', eq(80)), limit: 1 }).total, 2);
      assert.equal(b.size('hosts'), 92);
      b.persistence!.close();
    });
  });

  it('deltas written while a merge runs stay listed on top of the merged segment', async () => {
    await inTempDir(async (dir) => {
      const ref = new ReferenceEngine(fixtureCatalogues);
      const a = create(dir);
      const put = (id: string, doc: Record<string, unknown>) => {
        for (const e of [ref, a]) e.upsert('hosts', id, doc);
      };
      for (let i = 0; i < 300; i++) put(`10.4.${i >> 8}.${i & 255}`, hostDoc(`10.4.${i >> 8}.${i & 255}`, 'SSH'));
      a.persistence!.checkpoint();
      put('10.4.9.1', hostDoc('10.4.9.1', 'HTTP', 80));
      a.persistence!.checkpoint();
      const merging = a.persistence!.merge('hosts');
      put('10.4.9.2', hostDoc('10.4.9.2', 'HTTP', 80));
      a.remove('hosts', '10.4.0.7');
      ref.remove('hosts', '10.4.0.7');
      a.persistence!.checkpoint();
      await merging;
      assert.equal(a.persistence!.lastMergeError, undefined);
      const m = manifest(dir).segments.hosts;
      assert.ok(m.file.includes('merged'), m.file);
      assert.equal(m.deltas?.length, 1, 'the delta written during the merge');
      // The merged chain's files are unlinked in the background, or by the next checkpoint.
      put('10.4.9.3', hostDoc('10.4.9.3', 'HTTP', 80));
      a.persistence!.checkpoint();
      const m2 = manifest(dir).segments.hosts;
      const listed = new Set([m2.file, ...m2.deltas!.map((d) => d.file), manifest(dir).segments.certificates.file]);
      assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.seg')).sort(), [...listed].sort());
      a.persistence!.close();
      const b = open(dir);
      for (const c of fc.sample(caseArb(fixtureCatalogues.hosts), { seed: 3, numRuns: 30 })) compare(ref, b, 'hosts', c);
      b.persistence!.close();
    });
  });

  it('a merge right after open leaves the journals it does not cover', async () => {
    await inTempDir(async (dir) => {
      const a = create(dir);
      for (let i = 0; i < 20; i++) a.upsert('hosts', `10.7.0.${i}`, hostDoc(`10.7.0.${i}`, 'SSH'));
      a.persistence!.checkpoint();
      a.upsert('hosts', '10.7.1.1', hostDoc('10.7.1.1', 'HTTP', 80));
      a.persistence!.checkpoint();
      a.persistence!.journal('hosts', ['10.7.2.2']);
      a.persistence!.close();
      const b = open(dir);
      await b.persistence!.merge('hosts');
      assert.equal(b.persistence!.lastMergeError, undefined);
      assert.equal(deltas(dir, 'hosts'), 0);
      b.persistence!.close();
      const c = new EmbeddedEngine(fixtureCatalogues, { dir });
      const r = c.persistence!.open();
      assert.ok(r.loaded);
      assert.deepEqual(r.tail.get('hosts'), ['10.7.2.2'], 'the journaled id is still replayed');
      assert.equal(c.size('hosts'), 21);
      c.persistence!.close();
    });
  });

  it('a chain no merge shortened is merged by the checkpoint that would make it longer than MAX_DELTAS', async () => {
    await inTempDir((dir) => {
      const a = create(dir);
      a.upsert('hosts', '10.6.0.0', hostDoc('10.6.0.0', 'SSH'));
      a.persistence!.checkpoint();
      for (let i = 1; i <= MAX_DELTAS; i++) {
        a.upsert('hosts', `10.6.${i >> 8}.${i & 255}`, hostDoc(`10.6.${i >> 8}.${i & 255}`, 'SSH'));
        a.persistence!.checkpoint();
      }
      assert.equal(deltas(dir, 'hosts'), MAX_DELTAS);
      a.upsert('hosts', '10.6.9.9', hostDoc('10.6.9.9', 'HTTP', 80));
      a.persistence!.checkpoint();
      assert.equal(deltas(dir, 'hosts'), 0);
      a.persistence!.close();
      const b = open(dir);
      assert.equal(b.size('hosts'), MAX_DELTAS + 2);
      b.persistence!.close();
    });
  });

  it('a damaged delta is refused at open (the store is reloaded)', async () => {
    await inTempDir((dir) => {
      const a = create(dir);
      for (let i = 0; i < 50; i++) a.upsert('hosts', `10.5.0.${i}`, hostDoc(`10.5.0.${i}`, 'SSH'));
      a.persistence!.checkpoint();
      a.upsert('hosts', '10.5.1.1', hostDoc('10.5.1.1', 'HTTP', 80));
      a.persistence!.checkpoint();
      a.persistence!.close();
      const file = join(dir, manifest(dir).segments.hosts.deltas![0].file);
      const bytes = readFileSync(file);
      bytes[bytes.length - 3] ^= 0xff;
      writeFileSync(file, bytes);
      const b = new EmbeddedEngine(fixtureCatalogues, { dir });
      const r = b.persistence!.open();
      assert.equal(r.loaded, false);
      assert.equal(b.size('hosts'), 0);
      b.persistence!.close();
    });
  });
});
