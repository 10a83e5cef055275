/**
 * Child process of merge-kill.test.ts: opens an embedded engine over argv[2] (no store), then
 * applies deterministic batches from the one after those its segments hold — 40 new hosts and
 * rewrites and removals of earlier ones — checkpointing after each (a delta segment) and
 * starting a merge on the worker every third batch, printing `ack N` once batch N's checkpoint
 * returned.
 */
import { EmbeddedEngine, type SearchEngine } from '../../src/engine/index.ts';
import { fixtureCatalogues } from './fixture-catalogue.ts';

export const NEW_PER_BATCH = 40;

function hostDoc(ip: string, n: number): Record<string, unknown> {
  const port = [22, 80, 443, 8080][n % 4];
  return { ip, location: { country: ['Germany', 'France', 'Japan'][n % 3] }, services: [{ port, service_name: port === 22 ? 'SSH' : 'HTTP', banner: `banner rev ${n} ${ip}` }] };
}

const ipOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/** Batch n: 40 new hosts, 5 rewrites of earlier ones, 2 removals (a removed host may come back in a rewrite). */
export function applyBatch(engine: SearchEngine, n: number): void {
  for (let k = 0; k < NEW_PER_BATCH; k++) engine.upsert('hosts', ipOf(n * NEW_PER_BATCH + k), hostDoc(ipOf(n * NEW_PER_BATCH + k), n));
  if (n === 0) return;
  for (let k = 0; k < 5; k++) {
    const i = (n * 7919 + k * 104729) % (n * NEW_PER_BATCH);
    engine.upsert('hosts', ipOf(i), hostDoc(ipOf(i), n + k));
  }
  for (let k = 0; k < 2; k++) engine.remove('hosts', ipOf((n * 31 + k * 17) % (n * NEW_PER_BATCH)));
}

if (process.argv[2]) {
  const engine = new EmbeddedEngine(fixtureCatalogues, { dir: process.argv[2] });
  const p = engine.persistence!;
  p.open();
  let n = Number(process.argv[3] ?? 0);
  let awaitMerge = process.argv[4] === 'await-merge';
  process.stdout.write(`opened ${n}\n`);
  for (;;) {
    applyBatch(engine, n);
    p.checkpoint();
    process.stdout.write(`ack ${n}\n`);
    // With `await-merge`, the first merge is awaited (the test kills that child only after it),
    // so one merge surely finished however slow the machine; writing deltas faster than a loaded
    // machine merges them could otherwise keep every merge from finishing.
    if (awaitMerge && n % 3 === 2) {
      awaitMerge = false;
      await p.merge('hosts');
      if (p.lastMergeError === undefined) process.stdout.write('merged\n');
    } else if (n % 3 === 2) {
      // A merge runs on its worker while the next batches are written and checkpointed.
      void p.merge('hosts').then(() => {
        if (p.lastMergeError === undefined) process.stdout.write('merged\n');
      });
    }
    await new Promise((r) => setImmediate(r));
    n++;
  }
}
