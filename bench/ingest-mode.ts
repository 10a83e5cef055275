/**
 * `--ingest`: the real `periscope ingest` command, as a child process, on a deterministic zgrab2
 * file (bench/zgrab2-corpus.ts) into a fresh data directory, with the child's resident memory
 * sampled from /proc every 200 ms. `--ingest-stages` also times the pipeline's stages in this
 * process on a sample of the file (read + parse; parse + merge without writes; full), so the
 * bottleneck shows. Figures are printed and written, never asserted.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sharedEnricher } from '../src/ingest/enrich/index.ts';
import { makeZgrab2Source } from '../src/ingest/zgrab2/zgrab2-source.ts';
import { runIngest, type IngestSummary } from '../src/ingest/pipeline/pipeline.ts';
import type { IngestRecord } from '../src/ingest/observation.ts';
import { openStore } from '../src/store/open-store.ts';
import { formatTable } from './format-table.ts';
import type { BenchOptions } from './parse-options.ts';
import { ensureZgrab2Corpus } from './zgrab2-corpus.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MB = 2 ** 20;
const TARGET_RATE = 20_000;
const TARGET_RSS_MB = 1536;

export interface IngestRun {
  readonly records: number;
  readonly wallMs: number;
  readonly recordsPerSecond: number;
  readonly peakRssMb: number;
  /** VmHWM as the kernel reports it (the peak between samples too), summed over the process tree, when it could be read. */
  readonly hwmMb: number | undefined;
  readonly exitCode: number | null;
  readonly stdout: string;
  /** CPU seconds (user + system) of each thread that used more than 0.5 s, busiest first (sampled). */
  readonly threadCpuSeconds: { name: string; seconds: number }[];
  /** The machine's 1-minute load average at the start and the end of the run. */
  readonly loadAverage: { start: number; end: number };
}

export interface StageTiming {
  readonly stage: string;
  readonly records: number;
  readonly ms: number;
  readonly recordsPerSecond: number;
}

function log(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

/** VmRSS and VmHWM of a process in MB, or undefined once it is gone. */
export function readProcMemory(pid: number): { rssMb: number; hwmMb: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(text)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/**
 * CPU ticks (user + system) of each thread of a process, by thread id. The machine may be shared:
 * a thread's CPU time says what its work costs whatever else runs, where wall time does not.
 */
export function readThreadTicks(pid: number): Map<string, { name: string; ticks: number }> {
  const out = new Map<string, { name: string; ticks: number }>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      // Fields 14 and 15 of stat (utime, stime), counted from the state field (3).
      out.set(tid, { name: stat.slice(stat.indexOf('(') + 1, close), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

const TICKS_PER_SECOND = 100;

/**
 * A process and its descendants: `bin/periscope.js ingest` runs the command in a child node (with
 * a larger young generation), so its work and memory are the whole tree's.
 */
export function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        for (const c of readFileSync(`/proc/${out[i]}/task/${tid}/children`, 'utf8').split(' ')) if (c.trim()) out.push(Number(c));
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  }
  return out;
}

/** Runs `node bin/periscope.js ingest --data-dir DIR FILE` and samples the memory and CPU of its process tree. */
export async function runIngestChild(file: string, records: number, dataDir: string, extraNodeArgs: readonly string[] = []): Promise<IngestRun> {
  const started = performance.now();
  // The environment a user's `periscope ingest` has: `npm run bench` sets glibc's fixed mmap
  // threshold for itself (as `periscope serve` runs), which `ingest` does not get from its
  // launcher and which cost it ~18% more wall time (system time 11 -> 17-18 s on 400,000 lines,
  // docs/BENCHMARK.md, ingest round 9).
  const env = { ...process.env };
  delete env.MALLOC_MMAP_THRESHOLD_;
  const child = spawn(process.execPath, [...extraNodeArgs, join(ROOT, 'bin/periscope.js'), 'ingest', '--data-dir', dataDir, file], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderrTail = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  // The progress line goes to stderr; only its tail is kept (for a failure message).
  child.stderr.on('data', (b: Buffer) => (stderrTail = (stderrTail + b.toString()).slice(-4000)));
  let peak = 0;
  let hwm: number | undefined;
  const loadStart = loadavg()[0]!;
  const threads = new Map<string, { name: string; ticks: number }>();
  const sample = (): void => {
    if (child.pid === undefined) return;
    let rss = 0;
    let hwmSum = 0;
    for (const pid of processTree(child.pid)) {
      const m = readProcMemory(pid);
      if (!m) continue;
      for (const [tid, t] of readThreadTicks(pid)) threads.set(tid, t);
      rss += m.rssMb;
      hwmSum += m.hwmMb;
    }
    peak = Math.max(peak, rss);
    // Summed over the processes, an upper bound of the tree's peak.
    hwm = Math.max(hwm ?? 0, hwmSum);
  };
  const timer = setInterval(sample, 200);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearInterval(timer);
  const wallMs = performance.now() - started;
  if (code !== 0 && code !== 3) log(`ingest exited with ${code}: ${stderrTail.split('\n').slice(-5).join('\n')}`);
  const threadCpuSeconds = [...threads.values()]
    .map((t) => ({ name: t.name, seconds: t.ticks / TICKS_PER_SECOND }))
    .filter((t) => t.seconds > 0.5)
    .sort((a, b) => b.seconds - a.seconds);
  return {
    records,
    wallMs,
    recordsPerSecond: records / (wallMs / 1000),
    peakRssMb: peak,
    hwmMb: hwm,
    exitCode: code,
    stdout,
    threadCpuSeconds,
    loadAverage: { start: loadStart, end: loadavg()[0]! },
  };
}

async function writeSample(file: string, lines: number, dir: string): Promise<string> {
  const path = join(dir, 'sample.jsonl');
  const out = createWriteStream(path);
  const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let n = 0;
  for await (const line of rl) {
    if (n++ >= lines) break;
    if (!out.write(line + '\n')) await once(out, 'drain');
  }
  rl.close();
  out.end();
  await once(out, 'finish');
  return path;
}

async function* readRecords(path: string, now: Date): AsyncGenerator<IngestRecord> {
  yield* makeZgrab2Source().read(createReadStream(path), { now });
}

/** Times read + parse, parse + merge (dry run: reads of an empty store, no writes), and the full pipeline, on the first `lines` lines. */
export async function timeStages(file: string, lines: number, dir: string): Promise<StageTiming[]> {
  const sample = await writeSample(file, lines, dir);
  const now = new Date();
  const out: StageTiming[] = [];
  const stage = (name: string, ms: number): void => {
    out.push({ stage: name, records: lines, ms, recordsPerSecond: lines / (ms / 1000) });
  };
  let t = performance.now();
  let n = 0;
  for await (const _ of readRecords(sample, now)) n++;
  stage(`read + parse (${n} ingest records)`, performance.now() - t);

  for (const [name, dryRun] of [['parse + merge, no writes (dry run)', true], ['full pipeline into SQLite', false]] as const) {
    const dataDir = mkdtempSync(join(dir, 'stage-'));
    const store = await openStore({ kind: 'sqlite', file: join(dataDir, 'periscope.db') });
    try {
      t = performance.now();
      await runIngest(readRecords(sample, now), {
        indexer: { put: (index, items) => store.documents.putMany(index, items) },
        store,
        enricher: sharedEnricher(),
        now: () => now,
        dryRun,
      });
      stage(name, performance.now() - t);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return out;
}

function summaryLines(stdout: string): string {
  return stdout.split('\n').filter((l) => l.trim() !== '' && !l.includes('picks these up')).map((l) => `  ${l}`).join('\n');
}

export async function runIngestMode(o: BenchOptions, outDir: string, started: Date): Promise<number> {
  const records = o.records;
  log(`zgrab2 corpus: ${records.toLocaleString('en')} records, seed ${o.seed}`);
  const corpus = await ensureZgrab2Corpus(outDir, records, o.seed, undefined, (n) => log(`  written ${n} lines`));
  log(corpus.generated ? `corpus generated in ${(corpus.ms / 1000).toFixed(1)} s: ${corpus.path}` : `corpus reused: ${corpus.path}`);
  const bytes = statSync(corpus.path).size;

  const work = mkdtempSync(join(tmpdir(), 'periscope-ingest-bench-'));
  try {
    let stages: StageTiming[] = [];
    if (o.ingestStages) {
      const lines = Math.min(records, o.stageSample);
      log(`stages in-process on the first ${lines} lines`);
      stages = await timeStages(corpus.path, lines, work);
    }
    const dataDir = join(work, 'data');
    log(`periscope ingest (child process) into ${dataDir}`);
    const run = await runIngestChild(corpus.path, records, dataDir);
    const dbBytes = ['periscope.db', 'periscope.db-wal'].map((f) => join(dataDir, f)).filter(existsSync).reduce((s, f) => s + statSync(f).size, 0);

    const lines: string[] = [];
    lines.push(`Periscope ingest benchmark: ${records.toLocaleString('en')} zgrab2 lines (${(bytes / MB).toFixed(0)} MB), SQLite store, ${cpus().length} cores, node ${process.version}`);
    lines.push(`command: node bin/periscope.js ingest --data-dir <tmp> ${corpus.path}`);
    lines.push(`wall ${(run.wallMs / 1000).toFixed(1)} s (process start included), ${Math.round(run.recordsPerSecond).toLocaleString('en')} records/s, ${(bytes / MB / (run.wallMs / 1000)).toFixed(1)} MB/s`);
    lines.push(`peak resident memory ${run.peakRssMb.toFixed(0)} MB (200 ms samples of VmRSS, process tree), VmHWM summed ${run.hwmMb === undefined ? 'n/a' : run.hwmMb.toFixed(0) + ' MB'}; database ${(dbBytes / MB).toFixed(0)} MB; exit code ${run.exitCode}`);
    const cpuTotal = run.threadCpuSeconds.reduce((sum, t) => sum + t.seconds, 0);
    const busiest = run.threadCpuSeconds[0];
    lines.push(`load average ${run.loadAverage.start.toFixed(1)} at the start, ${run.loadAverage.end.toFixed(1)} at the end (${cpus().length} cores; other work on the machine stretches wall time)`);
    lines.push(`CPU ${cpuTotal.toFixed(1)} s in all threads: ${run.threadCpuSeconds.map((t) => t.seconds.toFixed(1)).join(' + ')} s`);
    if (busiest) {
      // Wall time on otherwise idle cores is at least the busiest thread's CPU and the total spread over the cores.
      const bound = Math.max(busiest.seconds, cpuTotal / cpus().length);
      lines.push(`busiest thread ${busiest.seconds.toFixed(1)} s; on ${cpus().length} otherwise idle cores this run could reach at most ${Math.round(records / bound).toLocaleString('en')} records/s`);
    }
    lines.push('summary:');
    lines.push(summaryLines(run.stdout));
    if (stages.length > 0) {
      lines.push('');
      lines.push(formatTable(
        ['stage (in-process sample)', 'lines', 'ms', 'lines/s'],
        stages.map((s) => [s.stage, String(s.records), s.ms.toFixed(0), Math.round(s.recordsPerSecond).toLocaleString('en')]),
      ));
    }
    const peak = Math.max(run.peakRssMb, run.hwmMb ?? 0);
    lines.push('');
    lines.push(formatTable(
      ['target (issue, at 1M records)', 'measured', 'met'],
      [
        [`ingest >= ${TARGET_RATE.toLocaleString('en')} records/s`, `${Math.round(run.recordsPerSecond).toLocaleString('en')}/s`, run.recordsPerSecond >= TARGET_RATE ? 'met' : 'NOT MET'],
        [`resident memory < ${(TARGET_RSS_MB / 1024).toFixed(1)} GB`, `${peak.toFixed(0)} MB`, peak < TARGET_RSS_MB ? 'met' : 'NOT MET'],
      ],
    ));
    if (records < 1_000_000) lines.push(`(measured at ${records.toLocaleString('en')} records, not the 1,000,000 of the target)`);
    const text = lines.join('\n');
    process.stdout.write(text + '\n');
    if (o.out) {
      writeFileSync(o.out, JSON.stringify({ mode: 'ingest', started: started.toISOString(), corpus: corpus.path, bytes, run: { ...run, stdout: undefined, summary: run.stdout }, stages }, null, 2));
      log(`report written to ${o.out}`);
    }
    // Exit 3 is a partial ingest (some records rejected): still a completed run.
    return run.exitCode === 0 || run.exitCode === 3 ? 0 : 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
