/**
 * Checkpoint cost, delta against full, and the event loop during a merge (not a test: numbers are
 * printed, never asserted). Loads N demo hosts into an EmbeddedEngine over a fresh directory,
 * checkpoints (full), then per round writes `share` more hosts (new ones from the same demo
 * stream, plus as many rewrites of loaded ones) and times a delta checkpoint, then a full one
 * (`checkpoint(true)`, what every checkpoint was before deltas) of the same state. Finally, with
 * deltas listed, a merge on the worker thread while the event loop's longest pause is recorded.
 * Usage: npx tsx bench/checkpoint-delta.ts [hosts=200000] [share=0.01,0.05] [rounds=2]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { EmbeddedEngine } from '../src/engine/index.ts';
import { catalogueFor } from '../src/model/field-catalogue.ts';
import { demoHostStream } from '../src/ingest/demo/index.ts';

const hosts = Number(process.argv[2] ?? 200_000);
const shares = (process.argv[3] ?? '0.01,0.05').split(',').map(Number);
const rounds = Number(process.argv[4] ?? 2);
const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
const dir = mkdtempSync(join(tmpdir(), 'periscope-bench-delta-'));
const engine = new EmbeddedEngine(catalogues, { dir });
const p = engine.persistence!;
p.mergeEnabled = false;
p.open();

const stream = demoHostStream({ hosts: hosts * 2, certificates: Math.min(2000, Math.max(100, Math.ceil(hosts / 100))) })[Symbol.iterator]();
const loaded: string[] = [];
function put(n: number): void {
  for (let i = 0; i < n; i++) {
    const h = stream.next().value!;
    const doc = JSON.parse(JSON.stringify(h.versions[h.versions.length - 1].doc)) as Record<string, unknown>;
    engine.upsert('hosts', h.id, doc);
    loaded.push(h.id);
  }
}
/** Rewrites n loaded hosts (a label changes): updates are tombstones plus new units. */
function rewrite(n: number): void {
  for (let i = 0; i < n; i++) {
    const id = loaded[(i * 7919) % loaded.length];
    engine.upsert('hosts', id, { ip: id.split('+')[0], labels: [`rewritten-${i}`], location: { country: 'Germany' } });
  }
}

function timed<T>(f: () => T): { value: T; cpuMs: number; wallMs: number } {
  const c = process.cpuUsage();
  const t = performance.now();
  const value = f();
  const u = process.cpuUsage(c);
  return { value, cpuMs: (u.user + u.system) / 1000, wallMs: performance.now() - t };
}

const fmt = (x: number) => x.toFixed(0);
let t = timed(() => put(hosts));
console.log(`loaded ${engine.size('hosts')} hosts: ${fmt(t.wallMs)} ms`);
const first = timed(() => p.checkpoint());
console.log(`first checkpoint (full): cpu ${fmt(first.cpuMs)} ms, wall ${fmt(first.wallMs)} ms, ${(first.value.bytes / 1e6).toFixed(1)} MB`);
// A few queries decode the common slots, as a serving process would have.
for (const q of ['services.service_name', 'location.country', 'services.port']) {
  engine.aggregate('hosts', { query: { kind: 'all' }, field: q, numBuckets: 5 });
}

for (const share of shares) {
  for (let round = 0; round < rounds; round++) {
    const n = Math.round(hosts * share);
    put(Math.round(n / 2));
    rewrite(n - Math.round(n / 2));
    const delta = timed(() => p.checkpoint());
    const full = timed(() => p.checkpoint(true));
    console.log(
      `share ${share} round ${round}: delta cpu ${fmt(delta.cpuMs)} ms wall ${fmt(delta.wallMs)} ms ${(delta.value.bytes / 1e6).toFixed(2)} MB | ` +
        `full cpu ${fmt(full.cpuMs)} ms wall ${fmt(full.wallMs)} ms ${(full.value.bytes / 1e6).toFixed(1)} MB`,
    );
  }
}

// Deltas listed, then a merge on the worker while the event loop is watched.
for (let i = 0; i < 3; i++) {
  put(Math.round(hosts * 0.02));
  p.checkpoint();
}
// Control: the same watch over an idle loop (the machine's own scheduling noise).
{
  const idle = monitorEventLoopDelay({ resolution: 5 });
  idle.enable();
  const timer = setInterval(() => {}, 5);
  await new Promise((r) => setTimeout(r, 3000));
  clearInterval(timer);
  idle.disable();
  console.log(`idle event loop over 3 s: max delay ${(idle.max / 1e6).toFixed(1)} ms (p99 ${(idle.percentile(99) / 1e6).toFixed(1)} ms)`);
}
const h = monitorEventLoopDelay({ resolution: 5 });
h.enable();
// Something for the loop to do meanwhile, as requests would.
let ticks = 0;
const timer = setInterval(() => ticks++, 5);
const c0 = process.cpuUsage();
const t0 = performance.now();
await p.merge('hosts');
const mu = process.cpuUsage(c0);
clearInterval(timer);
h.disable();
console.log(
  `merge on worker: wall ${fmt(performance.now() - t0)} ms, process cpu ${fmt((mu.user + mu.system) / 1000)} ms, ` +
    `event loop max delay ${(h.max / 1e6).toFixed(1)} ms (p99 ${(h.percentile(99) / 1e6).toFixed(1)} ms), ticks ${ticks}, error ${p.lastMergeError ?? 'none'}`,
);
const last = timed(() => p.checkpoint(true));
console.log(`the same merge on the event loop (full checkpoint): blocks ${fmt(last.wallMs)} ms (cpu ${fmt(last.cpuMs)} ms)`);
p.close();
rmSync(dir, { recursive: true, force: true });
