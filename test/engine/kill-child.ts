/**
 * Shared by the kill tests (durability, merge-kill): runs a writer child that prints `ack <n>`
 * per acknowledged batch, SIGKILLs it at a random moment after its first acknowledgement, and
 * reads back what it acknowledged; and lists every id an engine holds.
 */
import { spawn } from 'node:child_process';
import type { SearchEngine } from '../../src/engine/index.ts';

export interface KilledChild {
  /** Batches the child acknowledged before it was killed. */
  readonly acked: number[];
  /** Everything it printed, for test-specific markers. */
  readonly out: string;
}

/**
 * Runs `child` (a .ts file, under tsx) with `args`; kills it `minMs` to `minMs + spanMs` after it
 * first prints a line matching `arm` (its first ack by default). A child that never does is
 * killed after `armWithinMs`, so that a test waiting for a rarer event (a merge) fails on its own
 * assertion instead of hanging.
 */
export function runAndKill(child: string, args: readonly string[], minMs: number, spanMs: number, arm = /^ack /m, armWithinMs = 120_000): Promise<KilledChild> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let armed = false;
    const fallback = setTimeout(() => proc.kill('SIGKILL'), armWithinMs);
    proc.stderr.on('data', (d) => (err += d));
    proc.stdout.on('data', (d) => {
      out += d;
      if (!armed && arm.test(out)) {
        armed = true;
        clearTimeout(fallback);
        setTimeout(() => proc.kill('SIGKILL'), minMs + Math.floor(Math.random() * spanMs));
      }
    });
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      clearTimeout(fallback);
      if (signal !== 'SIGKILL') return reject(new Error(`child exited (${code}) before it was killed: ${err}`));
      resolve({ acked: [...out.matchAll(/^ack (\d+)$/gm)].map((m) => Number(m[1])), out });
    });
  });
}

/** Every host id the engine holds, in its order, walking pages of 1000. */
export function everyHostId(engine: SearchEngine): string[] {
  const ids: string[] = [];
  let after;
  for (;;) {
    const r = engine.search('hosts', { query: { kind: 'all' }, limit: 1000, ...(after ? { after } : {}) });
    for (const h of r.hits) ids.push(h.id);
    if (!r.more) return ids;
    after = r.hits[r.hits.length - 1].position;
  }
}
