/**
 * `--http`: the real server in-process on 127.0.0.1 (ephemeral port) over the corpus, loaded
 * through the Indexer into a temporary SQLite store (so the load rate is store plus index), with
 * the search hits rendered ahead (as a server does after start), then driven by autocannon (in a
 * child process) at 16 connections: search pages of 100 hits over the query mix, host views over
 * a list of ids, and a `services.port` aggregation. The server's CPU time per request and the
 * machine's load average are reported beside the rates: the machine is shared.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
import { promisify } from 'node:util';
import { buildApp } from '../src/api/app.ts';
import { DEFAULTS, type Config } from '../src/main/config.ts';
import { openRuntime, type Runtime } from '../src/main/runtime.ts';
import { VERSION } from '../src/main/version.ts';
import { Indexer } from '../src/search/indexer.ts';
import { createAccount } from '../src/users/accounts.ts';
import { renderAhead } from '../src/search/page-hits.ts';
import { readCorpus } from './corpus-file.ts';
import { readCorpusItems } from './corpus-items.ts';
import { fmtMs, formatTable } from './format-table.ts';
import type { BenchOptions } from './parse-options.ts';
import { queryMix, type QueryParams } from './query-mix.ts';

const run = promisify(execFile);
const CONNECTIONS = 16;
const VIEW_IDS = 2000;
const MB = 2 ** 20;

export interface HttpScenario {
  readonly name: string;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
  /** CPU time of the server process (user + system) per request. */
  readonly serverCpuMsPerRequest: number;
  /** CPU time of the load generator (autocannon's process) per request: it shares the machine. */
  readonly clientCpuMsPerRequest: number;
  /** Response bytes per request (headers and body). */
  readonly bytesPerRequest: number;
  readonly loadAverage: readonly number[];
}

interface AutocannonResult {
  requests: { average: number; total: number };
  throughput: { total: number };
  clientCpuMs: number;
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

async function drive(name: string, input: Record<string, unknown>, durationSec: number): Promise<HttpScenario> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'drive-autocannon.ts');
  const cpu0 = process.cpuUsage();
  const { stdout } = await run(process.execPath, ['--import', 'tsx', script, JSON.stringify(input)], {
    maxBuffer: 64 * MB,
    // Bounded whatever happens to the server.
    timeout: (durationSec + 60) * 1000,
  });
  const cpu = process.cpuUsage(cpu0);
  const r = JSON.parse(stdout) as AutocannonResult;
  return {
    name,
    requestsPerSecond: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    serverCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / Math.max(1, r.requests.total),
    clientCpuMsPerRequest: r.clientCpuMs / Math.max(1, r.requests.total),
    bytesPerRequest: r.throughput.total / Math.max(1, r.requests.total),
    loadAverage: loadavg(),
  };
}

/** Profiles this process's thread (the server's) from now on: `--cpu-profile`. */
async function startProfile(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return session;
}

async function stopProfile(session: Session, file: string): Promise<void> {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
  session.disconnect();
  process.stderr.write(`[bench] CPU profile of the search scenario: ${file}\n`);
}

/** Written into a kept data directory once it is fully loaded: its presence means "reuse me". */
const CREDENTIALS_FILE = 'bench-credentials.json';

interface Loaded {
  readonly auth: string;
  readonly docs: number;
  /** Undefined when an earlier run's data directory was reused. */
  readonly loadMs: number | undefined;
  readonly rendered: number;
  readonly renderMs: number;
}

/**
 * Loads the corpus through the Indexer (the store, then the engine) and renders the hits ahead.
 * A kept directory (`keep`) gets an engine that holds the whole store from the start (as a
 * server's), without checkpoints during the load (as in a temporary directory, so the load rates
 * compare), and one checkpoint when the runtime closes, so that the next run opens segments.
 */
async function load(runtime: Runtime, corpusPath: string, started: Date, keep: string | undefined): Promise<Loaded> {
  if (keep) await runtime.indexer.rebuild();
  const indexer = keep ? new Indexer(runtime.ctx, { checkpointIds: Number.POSITIVE_INFINITY }) : runtime.indexer;
  const creds = await createAccount(runtime.store, { email: 'bench@periscope.local', quota: 1e12 });
  process.stderr.write('[bench] loading the store and engine through the Indexer...\n');
  const t = performance.now();
  let docs = 0;
  // As `periscope import` loads a file: the store writes one batch ahead on its writer thread
  // (canonicalising each line's document text there) while this thread indexes.
  await indexer.putAll('hosts', readCorpusItems(corpusPath, 2000, started.toISOString()), (items) => {
    docs += items.length;
  });
  const loadMs = performance.now() - t;
  const tr = performance.now();
  const rendered = await renderAhead(runtime.store, 'hosts');
  const renderMs = performance.now() - tr;
  process.stderr.write(`[bench] ${rendered} search hits rendered ahead in ${(renderMs / 1000).toFixed(1)} s\n`);
  if (keep) writeFileSync(join(keep, CREDENTIALS_FILE), JSON.stringify(creds));
  return { auth: basicAuth(creds), docs, loadMs, rendered, renderMs };
}

function basicAuth(creds: { apiId: string; apiSecret: string }): string {
  return `Basic ${Buffer.from(`${creds.apiId}:${creds.apiSecret}`).toString('base64')}`;
}

/** The first host ids of the corpus that are plain addresses, for the view scenario. */
async function viewIds(corpusPath: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const batch of readCorpus(corpusPath, 2000)) {
    for (const e of batch) if (ids.length < VIEW_IDS && !e.id.includes('+')) ids.push(e.id);
    if (ids.length >= VIEW_IDS) break;
  }
  return ids;
}

export async function runHttpMode(o: BenchOptions, corpusPath: string, params: QueryParams, outDir: string, started: Date): Promise<number> {
  const keep = o.dataDir;
  const reuse = keep !== undefined && existsSync(join(keep, CREDENTIALS_FILE));
  if (keep) mkdirSync(keep, { recursive: true });
  const dataDir = keep ?? mkdtempSync(join(tmpdir(), 'bench-http-'));
  const config: Config = { ...DEFAULTS, dataDir, database: undefined, rateLimit: { requests: 0, windowSeconds: 60 }, logLevel: 'silent', demo: { ...DEFAULTS.demo, enabled: false } };
  const runtime = await openRuntime(config);
  try {
    let loaded: Loaded;
    if (reuse) {
      const to = performance.now();
      const opened = await runtime.indexer.rebuild();
      const docs = runtime.ctx.engine.size('hosts');
      process.stderr.write(`[bench] reusing ${dataDir}: ${docs} documents, engine from ${opened.mode} in ${((performance.now() - to) / 1000).toFixed(1)} s (the load is not timed)\n`);
      const creds = JSON.parse(readFileSync(join(dataDir, CREDENTIALS_FILE), 'utf8')) as { apiId: string; apiSecret: string };
      loaded = { auth: basicAuth(creds), docs, loadMs: undefined, rendered: 0, renderMs: 0 };
    } else {
      loaded = await load(runtime, corpusPath, started, keep);
    }
    const { auth, docs, loadMs, rendered, renderMs } = loaded;
    const ids = await viewIds(corpusPath);
    globalThis.gc?.();
    const rss = process.memoryUsage().rss;
    if (loadMs !== undefined) process.stderr.write(`[bench] ${docs} documents in ${(loadMs / 1000).toFixed(1)} s (${(docs / (loadMs / 1000)).toFixed(0)} docs/s, store + index), rss ${(rss / MB).toFixed(0)} MB\n`);

    const app = await buildApp({ ctx: runtime.ctx, auth: runtime.auth, rateLimit: config.rateLimit, bodyLimit: config.bodyLimit, logger: false, version: VERSION });
    await app.listen({ host: '127.0.0.1', port: 0 });
    // After start the server checks every document's hit and warms the engine's query structures
    // in the background; neither is part of the timings.
    await app.renderingAhead();
    await app.engineWarming();
    try {
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const base = `http://127.0.0.1:${port}`;
      const headers = { authorization: auth, 'content-type': 'application/json' };
      const common = { url: base, connections: CONNECTIONS, duration: o.duration, headers };
      const searches = queryMix(params).map((q) => ({ method: 'POST', path: '/api/v2/hosts/search', body: JSON.stringify({ q: q.censys, per_page: 100 }) }));
      // A sanity request first: a scenario of 401s or 400s would time nothing useful.
      const probe = await fetch(`${base}/api/v2/hosts/search`, { method: 'POST', headers, body: searches[0]!.body });
      if (probe.status !== 200) throw new Error(`search probe answered ${probe.status}: ${(await probe.text()).slice(0, 300)}`);
      // One request of each query and aggregation first: the engine may open parts of its index on
      // first use, which a server pays once, not per request.
      const tw = performance.now();
      for (const r of [...searches, { method: 'GET', path: '/api/v2/hosts/aggregate?field=services.port&num_buckets=50', body: undefined }]) {
        const res = await fetch(`${base}${r.path}`, { method: r.method, headers, ...(r.body !== undefined ? { body: r.body } : {}) });
        await res.arrayBuffer();
      }
      process.stderr.write(`[bench] warm-up: ${searches.length + 1} requests in ${(performance.now() - tw).toFixed(0)} ms\n`);
      const scenarios: HttpScenario[] = [];
      process.stderr.write(`[bench] autocannon: ${CONNECTIONS} connections, ${o.duration} s per scenario\n`);
      const profiler = o.cpuProfile ? await startProfile() : undefined;
      scenarios.push(await drive('search (POST /api/v2/hosts/search, 100 hits, query mix)', { ...common, requests: searches }, o.duration));
      if (profiler) await stopProfile(profiler, o.cpuProfile!);
      scenarios.push(await drive('view (GET /api/v2/hosts/{ip})', { ...common, requests: ids.map((id) => ({ method: 'GET', path: `/api/v2/hosts/${encodeURIComponent(id)}` })) }, o.duration));
      scenarios.push(await drive('aggregate (GET /api/v2/hosts/aggregate?field=services.port)', { ...common, requests: [{ method: 'GET', path: '/api/v2/hosts/aggregate?field=services.port&num_buckets=50' }] }, o.duration));
      const search = scenarios[0]!;
      const targets = [
        { target: 'first page of 100 hits p50 < 10 ms', value: `${search.p50} ms`, met: search.p50 < 10 },
        { target: '>= 2,000 searches/s at 16 connections', value: `${search.requestsPerSecond.toFixed(0)}/s`, met: search.requestsPerSecond >= 2000 },
        ...(loadMs === undefined
          ? []
          : [{ target: 'ingest >= 30,000 docs/s into store + index', value: `${(docs / (loadMs / 1000)).toFixed(0)} docs/s`, met: docs / (loadMs / 1000) >= 30_000 }]),
      ];
      console.log(`\nPeriscope HTTP benchmark: ${docs.toLocaleString('en')} host documents (--hosts ${o.hosts}), SQLite store, ${cpus().length} cores (server and autocannon share them)`);
      console.log(
        formatTable(
          ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'non-2xx', 'errors', 'server cpu ms/req', 'client cpu ms/req', 'bytes/req', 'load avg (1 min)'],
          scenarios.map((s) => [
            s.name,
            s.requestsPerSecond.toFixed(0),
            fmtMs(s.p50),
            fmtMs(s.p99),
            String(s.requests),
            String(s.non2xx),
            String(s.errors),
            s.serverCpuMsPerRequest.toFixed(2),
            s.clientCpuMsPerRequest.toFixed(2),
            s.bytesPerRequest.toFixed(0),
            s.loadAverage[0].toFixed(1),
          ]),
        ),
      );
      console.log('\n' + formatTable(['target (issue, at 1M hosts)', 'periscope', 'met'], targets.map((x) => [x.target, x.value, x.met ? 'met' : 'NOT MET'])));
      const report = { mode: 'http', startedAt: started.toISOString(), finishedAt: new Date().toISOString(), options: o, params, documents: docs, loadMs, renderedAhead: rendered, renderAheadMs: renderMs, docsPerSecond: loadMs === undefined ? null : docs / (loadMs / 1000), reusedDataDir: reuse ? dataDir : null, rssAfterLoadBytes: rss, connections: CONNECTIONS, scenarios, targets };
      const out = o.out ?? join(outDir, `report-http-${started.toISOString().replace(/[:.]/g, '-')}.json`);
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, JSON.stringify(report, null, 2));
      console.log(`\nreport: ${out}`);
      const bad = scenarios.filter((s) => s.non2xx > 0 || s.errors > 0);
      if (bad.length > 0) console.log(`WARNING: ${bad.map((s) => s.name).join('; ')} had non-2xx answers or errors`);
      return bad.length > 0 ? 1 : 0;
    } finally {
      await app.close();
    }
  } finally {
    await runtime.close();
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
  }
}
