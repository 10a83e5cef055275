/**
 * A data directory written before delta segments (manifest 1, one full segment per index in
 * format 1, 2 or 3) opened by the current code: writes checkpoint as a delta on top of the old
 * full segment (manifest 2), the chain reopens and answers like the reference evaluator, and a
 * merge on the worker thread (which reads the old format itself) and a clean close rewrite it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { EmbeddedEngine, ReferenceEngine } from '../../src/engine/index.ts';
import { indexingFingerprint, type Manifest } from '../../src/engine/embedded/engine-directory.ts';
import { SegmentReader } from '../../src/engine/embedded/segment-codec.ts';
import { fixtureCatalogues } from './fixture-catalogue.ts';
import type { Entry, Op } from './arbitraries.ts';
import { caseArb, compare, load, write } from './compare-engines.ts';

const root = new URL('../fixtures/engine/', import.meta.url).pathname;
const INDEXES = ['hosts', 'certificates'] as const;

interface FixtureDocs {
  hosts: Entry[];
  hostWrites: Op[];
  certificates: Entry[];
  certificateWrites: Op[];
}

/** A data directory as the code of manifest 1 left it, holding the fixture's segments. */
function oldDataDir(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), `periscope-upgrade-${version}-`));
  const segments: Record<string, unknown> = {};
  for (const index of INDEXES) {
    const file = `${index}-00000003.seg`;
    copyFileSync(join(root, version, `${index}.seg`), join(dir, file));
    const r = SegmentReader.open(join(dir, file));
    const header = r.header;
    const fd = r.close();
    if (fd !== undefined) closeSync(fd);
    segments[index] = { file, formatVersion: header.version, bytes: statSync(join(dir, file)).size, crc32: header.crc, documents: 0 };
  }
  const manifest = { manifestVersion: 1, generation: 3, fingerprint: indexingFingerprint(fixtureCatalogues), createdAt: new Date(0).toISOString(), segments };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

function open(dir: string): EmbeddedEngine {
  const e = new EmbeddedEngine(fixtureCatalogues, { dir, compaction: { minDead: Infinity, ratio: 1 } });
  e.persistence!.mergeEnabled = false;
  const r = e.persistence!.open();
  assert.ok(r.loaded, r.loaded ? '' : r.reason);
  return e;
}

describe('manifest 1 data directories upgrade to delta chains', () => {
  for (const version of ['v1', 'v2', 'v3']) {
    it(`${version}: a delta on the old full segment, reopened, merged and closed, answers like the reference`, async () => {
      const docs = JSON.parse(readFileSync(join(root, version, 'documents.json'), 'utf8')) as FixtureDocs;
      const ref = new ReferenceEngine(fixtureCatalogues);
      load([ref], 'hosts', docs.hosts);
      write([ref], 'hosts', docs.hosts, docs.hostWrites);
      load([ref], 'certificates', docs.certificates);
      write([ref], 'certificates', docs.certificates, docs.certificateWrites);
      const dir = oldDataDir(version);
      const engines: EmbeddedEngine[] = [];
      try {
        const a = open(dir);
        engines.push(a);
        const cases = (index: 'hosts' | 'certificates', seed: number) => fc.sample(caseArb(fixtureCatalogues[index]), { seed, numRuns: 25 });
        for (const index of INDEXES) for (const c of cases(index, 1)) compare(ref, a, index, c);
        // Later writes: the fixture's own replacements and removals again, reversed, plus new documents.
        const reversed = (ops: Op[]) => ops.slice().reverse();
        write([ref, a], 'hosts', docs.hosts, reversed(docs.hostWrites));
        write([ref, a], 'certificates', docs.certificates, reversed(docs.certificateWrites));
        load([ref, a], 'hosts', docs.hosts.slice(0, 5).map((e) => ({ id: `${e.id.split('+')[0]}+new.example`, doc: e.doc })));
        a.persistence!.checkpoint();
        const m = manifest(dir);
        assert.equal(m.manifestVersion, 2);
        assert.equal(m.segments.hosts.file, 'hosts-00000003.seg', 'the old full segment stays the base');
        assert.equal(m.segments.hosts.deltas?.length, 1);
        a.persistence!.close();

        const b = open(dir);
        engines.push(b);
        for (const index of INDEXES) {
          assert.equal(b.size(index), ref.size(index));
          for (const c of cases(index, 2)) compare(ref, b, index, c);
        }
        b.persistence!.mergeEnabled = true;
        await b.persistence!.merge('hosts');
        assert.equal(b.persistence!.lastMergeError, undefined);
        assert.ok(manifest(dir).segments.hosts.file.includes('merged'));
        b.persistence!.close();

        const c2 = open(dir);
        engines.push(c2);
        for (const index of INDEXES) for (const c of cases(index, 3)) compare(ref, c2, index, c);
        write([ref, c2], 'hosts', docs.hosts, docs.hostWrites);
        await c2.close();
        assert.equal(manifest(dir).segments.certificates.deltas?.length ?? 0, 0);
        const d = open(dir);
        engines.push(d);
        for (const index of INDEXES) for (const c of cases(index, 4)) compare(ref, d, index, c);
      } finally {
        for (const e of engines) e.persistence!.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
