/**
 * Kills during delta checkpoints and merges: a process writing batches into an embedded engine,
 * checkpointing after each (delta segments) and merging on a worker thread meanwhile, is
 * SIGKILLed at random moments. Every restart opens the segments (never a half-written state),
 * holding exactly the batches of its last or next-to-acknowledged checkpoint, and answers like
 * the reference evaluator over those batches.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { EmbeddedEngine, ReferenceEngine, type SearchEngine } from '../../src/engine/index.ts';
import type { Manifest } from '../../src/engine/embedded/engine-directory.ts';
import { fixtureCatalogues } from './fixture-catalogue.ts';
import { caseArb, compare } from './compare-engines.ts';
import { applyBatch } from './merge-kill-child.ts';

const CHILD = new URL('./merge-kill-child.ts', import.meta.url).pathname;
const ROUNDS = Number(process.env.DURABILITY_ROUNDS ?? 4);

function runAndKill(dir: string, from: number): Promise<{ acked: number[]; merged: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, String(from)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let armed = false;
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      if (!armed && /^ack /m.test(out)) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), 500 + Math.floor(Math.random() * 4000));
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`child exited (${code}) before it was killed: ${err}`));
      resolve({ acked: [...out.matchAll(/^ack (\d+)$/gm)].map((m) => Number(m[1])), merged: /^merged$/m.test(out) });
    });
  });
}

function allIds(engine: SearchEngine): string[] {
  const ids: string[] = [];
  let after;
  for (;;) {
    const r = engine.search('hosts', { query: { kind: 'all' }, limit: 1000, ...(after ? { after } : {}) });
    for (const h of r.hits) ids.push(h.id);
    if (!r.more) return ids;
    after = r.hits[r.hits.length - 1].position;
  }
}

test('killed during delta checkpoints and merges: the restart opens a whole checkpoint', { timeout: 600_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-merge-kill-'));
  try {
    let next = 0;
    let sawDeltas = false;
    let sawMerged = false;
    const cases = fc.sample(caseArb(fixtureCatalogues.hosts), { seed: 21, numRuns: 4 });
    for (let round = 0; round < ROUNDS; round++) {
      const { acked, merged } = await runAndKill(dir, next);
      sawMerged ||= merged;
      assert.ok(acked.length > 0, `round ${round}: the child acknowledged a checkpoint`);
      const last = Math.max(...acked);
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
      sawDeltas ||= (manifest.segments.hosts.deltas?.length ?? 0) > 0;
      const engine = new EmbeddedEngine(fixtureCatalogues, { dir });
      const opened = engine.persistence!.open();
      assert.ok(opened.loaded, `round ${round}: ${opened.loaded ? '' : opened.reason}`);
      // The last acknowledged checkpoint, or the one after it (written, killed before its ack).
      let held: number | undefined;
      let ref: ReferenceEngine | undefined;
      for (const m of [last + 1, last + 2]) {
        const r = new ReferenceEngine(fixtureCatalogues);
        for (let n = 0; n < m; n++) applyBatch(r, n);
        if (r.size('hosts') === engine.size('hosts')) {
          held = m;
          ref = r;
          break;
        }
      }
      assert.ok(ref && held !== undefined, `round ${round}: ${engine.size('hosts')} hosts is no checkpoint after batch ${last}`);
      assert.deepEqual(allIds(engine), allIds(ref), `round ${round}: same ids`);
      for (const c of cases) compare(ref, engine, 'hosts', c);
      // Closed without a checkpoint: the next child appends to these deltas.
      engine.persistence!.close();
      next = held;
    }
    const names = readdirSync(dir);
    assert.ok(names.includes('manifest.json'));
    assert.ok(sawDeltas, 'the children wrote delta segments');
    assert.ok(sawMerged, 'merges completed while the children ran');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
