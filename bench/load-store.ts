/**
 * The load of `bench --http` alone, measured in CPU time per thread (the machine is shared, so wall
 * time says little): the corpus (bench/out/corpus-h<N>-s<seed>.ndjson, or --corpus FILE) loaded
 * through the Indexer into a SQLite store plus the embedded engine in a temporary data directory.
 *
 *   npx tsx bench/load-store.ts --corpus FILE [--hosts N] [--batch 2000] [--put] [--render] [--keep DIR]
 *
 * --put loads batch by batch through Indexer.put (the path before Indexer.putAll), for A/B runs;
 * --render then renders every search hit ahead (renderAhead, as a server does after start) and
 * times it apart; --keep loads into DIR and leaves it (to compare store dumps). Prints one JSON line:
 * documents, wall seconds, process CPU seconds, CPU seconds of the main thread and of each other
 * thread that used more than 0.3 s (the store's writer thread, V8's GC helpers), docs per CPU second.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS, type Config } from '../src/main/config.ts';
import { openRuntime } from '../src/main/runtime.ts';
import type { PutItem } from '../src/search/indexer.ts';
import { renderAhead } from '../src/search/page-hits.ts';
import { readCorpusItems } from './corpus-items.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** CPU seconds per thread of this process (Linux: /proc/self/task), by thread id. */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  let tasks: string[] = [];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const t of tasks) {
    try {
      const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(t, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

const corpus = arg('--corpus');
if (!corpus) {
  process.stderr.write('usage: npx tsx bench/load-store.ts --corpus FILE [--hosts N] [--batch 2000] [--put] [--render] [--keep DIR]\n');
  process.exit(2);
}
const limit = Number(arg('--hosts') ?? Number.POSITIVE_INFINITY);
const batchSize = Number(arg('--batch') ?? 2000);
const keep = arg('--keep');
const dataDir = keep ?? mkdtempSync(join(tmpdir(), 'bench-load-'));
const config: Config = { ...DEFAULTS, dataDir, database: undefined, rateLimit: { requests: 0, windowSeconds: 60 }, logLevel: 'silent', demo: { ...DEFAULTS.demo, enabled: false } };
const runtime = await openRuntime(config);
try {
  let docs = 0;
  async function* batches(): AsyncGenerator<PutItem[]> {
    for await (const batch of readCorpusItems(corpus!, batchSize, new Date('2026-01-01T00:00:00Z').toISOString())) {
      const items = docs + batch.length > limit ? batch.slice(0, limit - docs) : batch;
      if (items.length > 0) yield items;
      docs += items.length;
      if (docs >= limit) return;
    }
  }
  // Threads that end during the load (the writer thread) are sampled while they run.
  const last = threadCpu();
  const before = new Map(last);
  const sample = () => {
    for (const [t, s] of threadCpu()) last.set(t, s);
  };
  const timer = setInterval(sample, 250);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  if (process.argv.includes('--put')) {
    for await (const items of batches()) await runtime.indexer.put('hosts', items.map(({ id, doc, observedAt }) => ({ id, doc, observedAt })));
  } else {
    await runtime.indexer.putAll('hosts', batches());
  }
  const wall = (performance.now() - t0) / 1000;
  clearInterval(timer);
  sample();
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const threads: Record<string, number> = {};
  for (const [t, s] of last) {
    const used = s - (before.get(t) ?? 0);
    if (used > 0.3) threads[t === String(process.pid) ? 'main' : `thread ${t}`] = Number(used.toFixed(1));
  }
  const report: Record<string, unknown> = { mode: process.argv.includes('--put') ? 'put' : 'putAll', documents: docs, wallS: Number(wall.toFixed(1)), cpuS: Number(cpuS.toFixed(1)), docsPerCpuS: Math.round(docs / cpuS), threads };
  if (process.argv.includes('--render')) {
    const c = process.cpuUsage();
    const t = performance.now();
    const rendered = await renderAhead(runtime.store, 'hosts');
    const rc = process.cpuUsage(c);
    report.render = { rendered, wallS: Number(((performance.now() - t) / 1000).toFixed(1)), cpuS: Number(((rc.user + rc.system) / 1e6).toFixed(1)) };
  }
  console.log(JSON.stringify(report));
} finally {
  await runtime.close();
  if (!keep) rmSync(dataDir, { recursive: true, force: true });
}
