/**
 * Segments: an engine written to disk and opened again answers exactly like the reference
 * evaluator, before and after further writes; journals name what was written since; damaged
 * segments are refused instead of served.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { IndexName } from '../../src/model/field-def.ts';
import { EmbeddedEngine, ReferenceEngine } from '../../src/engine/index.ts';
import { fixtureCatalogues } from './fixture-catalogue.ts';
import { certificateEntries, certificateOps, hostEntries, hostOps, type Entry, type Op } from './arbitraries.ts';
import { caseArb, compare, load, write } from './compare-engines.ts';
import { all, eq, field } from './engine-helpers.ts';

const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 200);

function inTempDir(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-engine-'));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function reopen(dir: string, compaction?: { minDead: number; ratio: number }): EmbeddedEngine {
  const e = new EmbeddedEngine(fixtureCatalogues, { dir, ...(compaction ? { compaction } : {}) });
  const r = e.persistence!.open();
  assert.ok(r.loaded, r.loaded ? '' : r.reason);
  return e;
}

function roundTrip(index: IndexName, entries: fc.Arbitrary<Entry[]>, ops: fc.Arbitrary<Op[]>) {
  const catalogue = fixtureCatalogues[index];
  return fc.property(
    entries,
    ops,
    fc.array(caseArb(catalogue), { minLength: 2, maxLength: 5 }),
    fc.constantFrom({ minDead: Infinity, ratio: 1 }, { minDead: 1, ratio: 0 }),
    fc.boolean(),
    (docs, writes, cases, compaction, writeBeforeSave) => {
      inTempDir((dir) => {
        const ref = new ReferenceEngine(fixtureCatalogues);
        const first = new EmbeddedEngine(fixtureCatalogues, { dir, compaction });
        assert.equal(first.persistence!.open().loaded, false);
        load([ref, first], index, docs);
        // Queries first, so lazily built structures exist when the segment is written.
        for (const c of cases) compare(ref, first, index, c);
        if (writeBeforeSave) write([ref, first], index, docs, writes);
        first.persistence!.checkpoint();
        const second = reopen(dir, compaction);
        assert.equal(second.size(index), ref.size(index));
        for (const c of cases) compare(ref, second, index, c);
        // The restored structures keep taking writes.
        write([ref, second], index, docs, writes);
        assert.equal(second.size(index), ref.size(index));
        for (const c of cases) compare(ref, second, index, c);
        // ...and survive a second generation.
        second.persistence!.checkpoint();
        const third = reopen(dir, compaction);
        for (const c of cases) compare(ref, third, index, c);
      });
    },
  );
}

function hostDoc(ip: string, service: string): Record<string, unknown> {
  return { ip, location: { country: 'Germany' }, services: [{ port: 22, service_name: service, banner: `${service} banner` }] };
}

/** Segments holding one host, written by an engine that then closed. */
function checkpointedOneHost(dir: string): void {
  const a = new EmbeddedEngine(fixtureCatalogues, { dir });
  a.persistence!.open();
  a.upsert('hosts', '1.1.1.1', hostDoc('1.1.1.1', 'SSH'));
  a.persistence!.checkpoint();
  a.persistence!.close();
}

function segmentFiles(dir: string): string[] {
  return readdirSync(dir).filter((n) => n.endsWith('.seg'));
}

describe('engine segments', () => {
  it('hosts: a reopened engine answers like the reference, and keeps taking writes', () => {
    fc.assert(roundTrip('hosts', hostEntries, hostOps), { numRuns: Math.ceil(RUNS / 4) });
  });

  it('certificates: a reopened engine answers like the reference', () => {
    fc.assert(roundTrip('certificates', certificateEntries, certificateOps), { numRuns: Math.ceil(RUNS / 8) });
  });

  it('journals ids before the store write, replays them after a restart, and drops them once a checkpoint covers them', () => {
    inTempDir((dir) => {
      const a = new EmbeddedEngine(fixtureCatalogues, { dir });
      a.persistence!.open();
      a.upsert('hosts', '1.1.1.1', hostDoc('1.1.1.1', 'SSH'));
      a.persistence!.checkpoint();
      // A write journaled and applied, one journaled and never applied (the store write was in flight).
      a.persistence!.journal('hosts', ['2.2.2.2']);
      a.upsert('hosts', '2.2.2.2', hostDoc('2.2.2.2', 'HTTP'));
      a.persistence!.applied('hosts', ['2.2.2.2']);
      a.persistence!.journal('hosts', ['3.3.3.3']);
      assert.equal(a.persistence!.pending, 2);
      // Killed here: no checkpoint. The next start lists both ids for a refresh from the store.
      a.persistence!.close();
      const b = new EmbeddedEngine(fixtureCatalogues, { dir });
      const r = b.persistence!.open();
      assert.ok(r.loaded);
      assert.deepEqual([...(r.tail.get('hosts') ?? [])].sort(), ['2.2.2.2', '3.3.3.3']);
      assert.equal(b.size('hosts'), 1);
      // A checkpoint covers those journals: the next start has nothing to replay.
      b.upsert('hosts', '2.2.2.2', hostDoc('2.2.2.2', 'HTTP'));
      b.persistence!.checkpoint();
      b.persistence!.close();
      const c = new EmbeddedEngine(fixtureCatalogues, { dir });
      const r2 = c.persistence!.open();
      assert.ok(r2.loaded);
      assert.equal(r2.tail.size, 0);
      assert.equal(c.size('hosts'), 2);
      const listed = Object.values(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).segments as Record<string, { file: string; deltas?: { file: string }[] }>)
        .flatMap((s) => [s.file, ...(s.deltas ?? []).map((d) => d.file)]);
      assert.deepEqual(segmentFiles(dir).sort(), listed.sort(), 'older generations are deleted');
      assert.equal(listed.length, 3, 'hosts: the full segment and a delta; certificates: the full segment');
    });
  });

  it('journalDurably, in a process that only writes the store: recorded at once, on disk in call order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'periscope-engine-'));
    try {
      // Segments from a serving process, then a process that only writes the store.
      const first = new EmbeddedEngine(fixtureCatalogues, { dir });
      first.persistence!.open();
      first.upsert('hosts', '1.1.1.1', hostDoc('1.1.1.1', 'SSH'));
      first.persistence!.checkpoint();
      first.persistence!.close();
      const a = new EmbeddedEngine(fixtureCatalogues, { dir });
      a.persistence!.storeOnly();
      const resolved: number[] = [];
      const calls = Array.from({ length: 20 }, (_, i) => a.persistence!.journalDurably!('hosts', [`10.0.0.${i}`])!.then(() => resolved.push(i)));
      // Written before any promise resolves: a process killed now still names these ids.
      const journals = () => readdirSync(dir).filter((f) => f.startsWith('journal-'));
      assert.equal(journals().length, 1);
      assert.equal(readFileSync(join(dir, journals()[0]!), 'utf8').trim().split('\n').length, 20);
      await Promise.all(calls);
      assert.deepEqual(resolved, Array.from({ length: 20 }, (_, i) => i));
      a.persistence!.close();
      const b = new EmbeddedEngine(fixtureCatalogues, { dir });
      const r = b.persistence!.open();
      assert.ok(r.loaded);
      assert.deepEqual([...(r.tail.get('hosts') ?? [])].sort(), Array.from({ length: 20 }, (_, i) => `10.0.0.${i}`).sort());
      b.persistence!.close();
      // A process that serves the engine journals synchronously (its store write must start at once).
      const c = new EmbeddedEngine(fixtureCatalogues, { dir: mkdtempSync(join(tmpdir(), 'periscope-engine-')) });
      c.persistence!.open();
      assert.equal(c.persistence!.journalDurably!('hosts', ['10.0.1.1']), undefined);
      assert.equal(c.persistence!.pending, 1);
      c.persistence!.close();
      rmSync(c.persistence!.dir, { recursive: true, force: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('carries ids not yet applied into the next journal at a checkpoint', () => {
    inTempDir((dir) => {
      const a = new EmbeddedEngine(fixtureCatalogues, { dir });
      a.persistence!.open();
      a.persistence!.journal('hosts', ['4.4.4.4']);
      a.persistence!.checkpoint();
      a.persistence!.close();
      const b = new EmbeddedEngine(fixtureCatalogues, { dir });
      const r = b.persistence!.open();
      assert.ok(r.loaded);
      assert.deepEqual(r.tail.get('hosts'), ['4.4.4.4']);
    });
  });

  it('refuses damaged or foreign segments, leaving the engine empty for a rebuild', () => {
    const damage: [string, (dir: string, file: string) => void][] = [
      ['a flipped byte in the body', (dir, file) => {
        const p = join(dir, file);
        const b = readFileSync(p);
        b[b.length - 10] ^= 0xff;
        writeFileSync(p, b);
      }],
      ['a truncated file', (dir, file) => truncateSync(join(dir, file), statSync(join(dir, file)).size - 7)],
      ['a bad magic number', (dir, file) => {
        const p = join(dir, file);
        const b = readFileSync(p);
        b[0] = 0x41;
        writeFileSync(p, b);
      }],
      ['a missing segment', (dir, file) => rmSync(join(dir, file))],
      ['a garbled manifest', (dir) => writeFileSync(join(dir, 'manifest.json'), '{"manifestVersion": 1, "gen')],
    ];
    for (const [what, harm] of damage) {
      inTempDir((dir) => {
        const a = new EmbeddedEngine(fixtureCatalogues, { dir });
        a.persistence!.open();
        for (let i = 1; i <= 50; i++) a.upsert('hosts', `10.0.0.${i}`, hostDoc(`10.0.0.${i}`, i % 2 ? 'SSH' : 'HTTP'));
        a.persistence!.checkpoint();
        harm(dir, segmentFiles(dir).find((f) => f.startsWith('hosts'))!);
        const b = new EmbeddedEngine(fixtureCatalogues, { dir });
        const r = b.persistence!.open();
        assert.equal(r.loaded, false, what);
        assert.equal(b.size('hosts'), 0, what);
        assert.equal(b.search('hosts', { query: all, limit: 10 }).total, 0, what);
        // Rebuilt and checkpointed, it opens again.
        b.upsert('hosts', '10.0.0.1', hostDoc('10.0.0.1', 'SSH'));
        b.persistence!.checkpoint();
        const c = reopen(dir);
        assert.equal(c.search('hosts', { query: field('services.service_name', eq('ssh')), limit: 10 }).total, 1, what);
      });
    }
  });

  it('a damaged block, found when it is first decoded, empties the engine and drops the manifest instead of answering', () => {
    inTempDir((dir) => {
      const a = new EmbeddedEngine(fixtureCatalogues, { dir });
      a.persistence!.open();
      for (let i = 1; i <= 200; i++) a.upsert('hosts', `10.0.${i >> 8}.${i & 255}`, hostDoc(`10.0.${i >> 8}.${i & 255}`, i % 2 ? 'SSH' : 'HTTP'));
      a.persistence!.checkpoint();
      // A byte in the block area (after the header, before the eager section that ends the file).
      const file = join(dir, segmentFiles(dir).find((f) => f.startsWith('hosts'))!);
      const b = readFileSync(file);
      const eager = b.readUInt32LE(24);
      b[32 + Math.floor((b.length - 32 - eager) / 2)] ^= 0x5a;
      writeFileSync(file, b);
      const c = new EmbeddedEngine(fixtureCatalogues, { dir });
      const r = c.persistence!.open();
      assert.ok(r.loaded, 'the eager section is intact: opening succeeds');
      let seen: unknown;
      c.persistence!.onCorrupt((err) => (seen = err));
      // A full checkpoint copies every undecoded block and checks it.
      assert.throws(() => c.persistence!.checkpoint(true), /checksum/);
      assert.ok(seen, 'listeners are told');
      assert.equal(c.size('hosts'), 0);
      assert.throws(() => c.search('hosts', { query: all, limit: 1 }), /being rebuilt/);
      assert.ok(!readdirSync(dir).includes('manifest.json'), 'a restart rebuilds from the store');
      // Rebuilt by the caller, it serves and checkpoints again.
      c.upsert('hosts', '10.0.0.1', hostDoc('10.0.0.1', 'SSH'));
      c.persistence!.rebuilt();
      c.persistence!.checkpoint();
      assert.equal(reopen(dir).search('hosts', { query: all, limit: 1 }).total, 1);
    });
  });

  it('a second process on the same directory opens the segments but never checkpoints over them', () => {
    inTempDir((dir) => {
      checkpointedOneHost(dir);
      // A live process (our parent) holds the directory.
      writeFileSync(join(dir, 'owner.pid'), String(process.ppid));
      const manifest = readFileSync(join(dir, 'manifest.json'), 'utf8');
      const b = new EmbeddedEngine(fixtureCatalogues, { dir });
      assert.ok(b.persistence!.open().loaded);
      assert.equal(b.persistence!.shared, true);
      b.upsert('hosts', '2.2.2.2', hostDoc('2.2.2.2', 'HTTP'));
      b.persistence!.checkpoint();
      assert.equal(readFileSync(join(dir, 'manifest.json'), 'utf8'), manifest);
      b.persistence!.close();
      assert.equal(readFileSync(join(dir, 'owner.pid'), 'utf8'), String(process.ppid), 'the owner keeps the directory');
      // Once the owner is gone, the next process takes over.
      writeFileSync(join(dir, 'owner.pid'), '999999999');
      const c = new EmbeddedEngine(fixtureCatalogues, { dir });
      assert.ok(c.persistence!.open().loaded);
      assert.equal(c.persistence!.shared, false);
      c.persistence!.close();
    });
  });

  it('a pid that now belongs to a process started later is not the owner, nor the writer of a journal', () => {
    // Pid 1 runs, but it started after 2001: what it "wrote" then was another process's.
    const long_ago = new Date(Date.UTC(2001, 0, 1));
    inTempDir((dir) => {
      checkpointedOneHost(dir);
      writeFileSync(join(dir, 'owner.pid'), '1');
      utimesSync(join(dir, 'owner.pid'), long_ago, long_ago);
      const reused = `journal-1-${long_ago.getTime() * 1000}.log`;
      writeFileSync(join(dir, reused), JSON.stringify(['hosts', ['2.2.2.2']]) + '\n');
      // A journal of a process that runs and wrote it after it started: it may still grow.
      const live = `journal-${process.ppid}-${Date.now() * 1000}.log`;
      writeFileSync(join(dir, live), JSON.stringify(['hosts', ['3.3.3.3']]) + '\n');
      const b = new EmbeddedEngine(fixtureCatalogues, { dir });
      const r = b.persistence!.open();
      assert.ok(r.loaded);
      assert.deepEqual([...(r.tail.get('hosts') ?? [])].sort(), ['2.2.2.2', '3.3.3.3'], 'both journals are replayed');
      assert.equal(b.persistence!.shared, false, 'the dead owner is taken over');
      assert.equal(readFileSync(join(dir, 'owner.pid'), 'utf8'), String(process.pid));
      b.upsert('hosts', '2.2.2.2', hostDoc('2.2.2.2', 'HTTP'));
      b.upsert('hosts', '3.3.3.3', hostDoc('3.3.3.3', 'HTTP'));
      b.persistence!.checkpoint();
      const files = readdirSync(dir);
      assert.ok(!files.includes(reused), 'the dead writer\'s journal is covered by the checkpoint');
      assert.ok(files.includes(live), 'the live writer\'s journal is kept');
      b.persistence!.close();
      // The same pid written now is a live owner's.
      writeFileSync(join(dir, 'owner.pid'), '1');
      const c = reopen(dir);
      assert.equal(c.persistence!.shared, true);
      c.persistence!.close();
    });
  });

  it('one process takes over a dead owner: a live takeover claim makes the others share', () => {
    inTempDir((dir) => {
      checkpointedOneHost(dir);
      writeFileSync(join(dir, 'owner.pid'), '999999999');
      // Another live process (our parent) is replacing that dead owner's file at this moment.
      writeFileSync(join(dir, 'owner.pid.takeover'), String(process.ppid));
      const b = new EmbeddedEngine(fixtureCatalogues, { dir });
      assert.ok(b.persistence!.open().loaded);
      assert.equal(b.persistence!.shared, true);
      assert.equal(readFileSync(join(dir, 'owner.pid'), 'utf8'), '999999999', 'left to the claim holder');
      b.persistence!.close();
      // A claim left long ago by a process that died while taking over does not block anyone.
      const old = new Date(Date.now() - 120_000);
      utimesSync(join(dir, 'owner.pid.takeover'), old, old);
      const c = new EmbeddedEngine(fixtureCatalogues, { dir });
      assert.ok(c.persistence!.open().loaded);
      assert.equal(c.persistence!.shared, false);
      assert.equal(readFileSync(join(dir, 'owner.pid'), 'utf8'), String(process.pid));
      assert.ok(!readdirSync(dir).includes('owner.pid.takeover'), 'the claim is gone once the takeover is done');
      c.persistence!.close();
    });
  });

  it('reopen() swaps a loaded engine for the segments it just wrote, which answer the same and wait on disk', () => {
    inTempDir((dir) => {
      const a = new EmbeddedEngine(fixtureCatalogues, { dir });
      a.persistence!.open();
      for (let i = 1; i <= 300; i++) a.upsert('hosts', `10.4.${i >> 8}.${i & 255}`, hostDoc(`10.4.${i >> 8}.${i & 255}`, i % 3 ? 'SSH' : 'HTTP'));
      assert.equal(a.persistence!.reopen(), false, 'nothing written yet');
      a.persistence!.checkpoint();
      a.upsert('hosts', '10.4.9.9', hostDoc('10.4.9.9', 'FTP'));
      assert.equal(a.persistence!.reopen(), false, 'changed since the checkpoint');
      a.persistence!.checkpoint();
      const queries = [all, field('services.service_name', eq('http')), field('services.banner', eq('SSH banner')), field('ip', eq('10.4.0.7'))];
      const before = queries.map((q) => a.search('hosts', { query: q, limit: 500 }).hits.map((h) => h.id));
      const oldData = (a as unknown as { data: Record<IndexName, object> }).data.hosts;
      assert.equal(a.persistence!.reopen(), true);
      const data = (a as unknown as { data: Record<IndexName, { slotAt(p: string): { slot: { pending?: unknown } } }> }).data;
      assert.notEqual(data.hosts, oldData, 'the loaded index was dropped');
      assert.ok(data.hosts.slotAt('services.banner')!.slot.pending, 'blocks wait on disk until a query needs them');
      assert.deepEqual(queries.map((q) => a.search('hosts', { query: q, limit: 500 }).hits.map((h) => h.id)), before);
      // It goes on as usual: writes, a delta checkpoint, a restart.
      a.upsert('hosts', '10.4.9.10', hostDoc('10.4.9.10', 'FTP'));
      a.remove('hosts', '10.4.0.7');
      a.persistence!.checkpoint();
      a.persistence!.close();
      const b = reopen(dir);
      assert.equal(b.search('hosts', { query: field('services.service_name', eq('ftp')), limit: 10 }).total, 2);
      assert.equal(b.search('hosts', { query: all, limit: 1 }).total, 301);
      assert.equal(b.search('hosts', { query: field('ip', eq('10.4.0.7')), limit: 1 }).total, 0);
      b.persistence!.close();
    });
  });

  it('a write the journal could not name makes the next open reload the whole store', () => {
    inTempDir((dir) => {
      const a = new EmbeddedEngine(fixtureCatalogues, { dir });
      a.persistence!.open();
      a.upsert('hosts', '1.1.1.1', hostDoc('1.1.1.1', 'SSH'));
      a.persistence!.journalUnknown();
      // Even across a checkpoint of this process: the engine never saw that write.
      a.persistence!.checkpoint();
      a.persistence!.close();
      const b = new EmbeddedEngine(fixtureCatalogues, { dir });
      const r = b.persistence!.open();
      assert.equal(r.loaded, false);
      assert.match(r.loaded ? '' : r.reason, /could not name/);
      b.upsert('hosts', '1.1.1.1', hostDoc('1.1.1.1', 'SSH'));
      b.persistence!.checkpoint();
      b.persistence!.close();
      assert.ok(new EmbeddedEngine(fixtureCatalogues, { dir }).persistence!.open().loaded, 'the reload covered it');
    });
  });

  it('refuses segments written for another catalogue', () => {
    inTempDir((dir) => {
      const a = new EmbeddedEngine(fixtureCatalogues, { dir });
      a.persistence!.open();
      a.upsert('hosts', '1.1.1.1', hostDoc('1.1.1.1', 'SSH'));
      a.persistence!.checkpoint();
      const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...m, fingerprint: 'other' }));
      const b = new EmbeddedEngine(fixtureCatalogues, { dir });
      const r = b.persistence!.open();
      assert.equal(r.loaded, false);
    });
  });
});
