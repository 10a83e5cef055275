/**
 * Kills during delta checkpoints and merges: a process writing batches into an embedded engine,
 * checkpointing after each (delta segments) and merging on a worker thread meanwhile, is
 * SIGKILLed at random moments. Every restart opens the segments (never a half-written state),
 * holding exactly the batches of its last or next-to-acknowledged checkpoint, and answers like
 * the reference evaluator over those batches.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { EmbeddedEngine, ReferenceEngine } from '../../src/engine/index.ts';
import type { Manifest } from '../../src/engine/embedded/engine-directory.ts';
import { fixtureCatalogues } from './fixture-catalogue.ts';
import { caseArb, compare } from './compare-engines.ts';
import { applyBatch } from './merge-kill-child.ts';
import { everyHostId, runAndKill } from './kill-child.ts';

const CHILD = new URL('./merge-kill-child.ts', import.meta.url).pathname;
const ROUNDS = Number(process.env.DURABILITY_ROUNDS ?? 4);

test('killed during delta checkpoints and merges: the restart opens a whole checkpoint', { timeout: 600_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-merge-kill-'));
  try {
    let next = 0;
    let sawDeltas = false;
    let sawMerged = false;
    const cases = fc.sample(caseArb(fixtureCatalogues.hosts), { seed: 21, numRuns: 4 });
    for (let round = 0; round < ROUNDS; round++) {
      // The first round's child awaits its first merge and is killed only after it, so that one
      // surely finished whatever the machine's speed; the others die at random moments.
      const { acked, out } = await runAndKill(CHILD, round === 0 ? [dir, String(next), 'await-merge'] : [dir, String(next)], 500, 4000, round === 0 ? /^merged$/m : undefined);
      const merged = /^merged$/m.test(out);
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
      assert.deepEqual(everyHostId(engine), everyHostId(ref), `round ${round}: same ids`);
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
