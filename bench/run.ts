/**
 * `npm run bench`: Periscope's embedded engine and its baselines (DuckDB, PostgreSQL, SQLite) on
 * the same deterministic demo corpus in one run: load, correctness gate, timed query mix and
 * aggregations, a table with the issue's targets, and a JSON report. `--http` drives the real
 * HTTP server instead (see http-mode.ts); `--ingest` times `periscope ingest` (ingest-mode.ts). Timings are printed and written, never asserted.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchEngine } from './bench-engine.ts';
import { compareBuckets, compareSearch, type Mismatch } from './check-agreement.ts';
import { ensureCorpus, readCorpus, type CorpusEntry } from './corpus-file.ts';
import { streamCorpus } from './corpus-stream.ts';
import { DuckDbEngine } from './duckdb-engine.ts';
import { fmtMs, fmtRatio, formatTable } from './format-table.ts';
import { runHttpMode } from './http-mode.ts';
import { runIngestMode } from './ingest-mode.ts';
import { parseOptions, type BenchOptions, type EngineName } from './parse-options.ts';
import { PeriscopeEngine } from './periscope-engine.ts';
import { DEFAULT_PART_DOCUMENTS } from '../src/engine/index.ts';
import { pickParams } from './pick-params.ts';
import { PostgresEngine, DEFAULT_POSTGRES_URL } from './postgres-engine.ts';
import { aggregations, queryMix, type AggSpec, type BenchQuery, type Bucket, type QueryParams, type SearchAnswer } from './query-mix.ts';
import { SqliteEngine } from './sqlite-engine.ts';
import { checkTargets } from './targets.ts';
import { geomean, time, type TimeOptions, type Timing } from './timing.ts';

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), 'out');
const BATCH = 5000;
/**
 * Periscope indexes one document at a time, so it reads the corpus in small batches: 5,000 parsed
 * documents held at once get copied and promoted by every young-generation GC, which cost it about
 * a quarter of its indexing CPU (measured at 50k documents: batch 5,000 vs 200). The baselines
 * keep large batches for their bulk inserts.
 */
const PERISCOPE_BATCH = 200;
const MB = 2 ** 20;
const STREAM_PARAMS_HOSTS = 1_000_000;

/** Logs a load's progress every million documents (a 10M load takes an hour). */
async function* progress(batches: AsyncIterable<CorpusEntry[]>, name: string): AsyncGenerator<CorpusEntry[]> {
  let n = 0;
  const started = performance.now();
  for await (const batch of batches) {
    const before = n;
    n += batch.length;
    if (Math.floor(n / 1_000_000) > Math.floor(before / 1_000_000)) {
      log(`  ${name}: ${n.toLocaleString('en')} documents, ${(n / ((performance.now() - started) / 1000)).toFixed(0)} docs/s, resident ${(process.memoryUsage().rss / MB).toFixed(0)} MB (peak ${((process.resourceUsage().maxRSS * 1024) / MB).toFixed(0)} MB)`);
    }
    yield batch;
  }
}

// Rough rates measured on the 2-core development machine, for the estimate only (Periscope's:
// 2,700-2,900 documents/s at 1M and at 10M streamed, sessions 6 and 16).
const RATE = { generate: 2000, periscope: 2700, duckdb: 2400, postgres: 1000, sqlite: 850, http: 1300 } as const;
/** Resident bytes per host of a store plus index (--http). */
const STORE_BYTES_PER_HOST = 12_000;
/** The engine's load: the part being built takes ~6,000 bytes per document at its peak, a sealed part ~450 MB (session 16: 9.8 GB peak for ten parts). */
const PART_BYTES_PER_DOCUMENT = 6_000;
const SEALED_PART_BYTES = 450 * 2 ** 20;
/** Documents per host of the corpus (virtual hosts beside some hosts). */
const DOCUMENTS_PER_HOST = 1.05;

function periscopeMemory(o: BenchOptions): number {
  const docs = o.hosts * DOCUMENTS_PER_HOST;
  const part = o.partDocuments ?? DEFAULT_PART_DOCUMENTS;
  return Math.min(docs, part) * PART_BYTES_PER_DOCUMENT + (Math.ceil(docs / part) - 1) * SEALED_PART_BYTES;
}

function log(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

function makeEngine(name: EngineName, params: QueryParams, o: BenchOptions): BenchEngine {
  switch (name) {
    case 'periscope': return new PeriscopeEngine(o.partDocuments);
    case 'duckdb': return new DuckDbEngine(params);
    case 'postgres': return new PostgresEngine(params, o.postgresUrl ?? DEFAULT_POSTGRES_URL);
    case 'sqlite': return new SqliteEngine(params);
  }
}

interface RestartFigures {
  readonly parts: number;
  /** Parts the query thread searched (0: one thread). */
  readonly threadParts: number;
  readonly documents: number;
  readonly openMs: number;
  readonly passMs: number;
  readonly firstMs: Record<string, number>;
  readonly rssStart: number;
  readonly rssOpen: number;
  readonly rssAfterPass: number;
  /** The mix and aggregations timed in that process, by name. */
  readonly timings: Record<string, Timing>;
}

/** Opens the segments in a fresh process (bench/periscope-restart.ts), as a restarted server does. */
function restartChild(dir: string, params: QueryParams, timing: TimeOptions, partDocuments: number | undefined, firstPart = false): Promise<RestartFigures> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'periscope-restart.ts');
  return new Promise((resolve, reject) => {
    // The young generation `periscope serve` gets from its launcher (bin/periscope.js).
    execFile(process.execPath, ['--expose-gc', '--max-semi-space-size=64', '--import', 'tsx', script, dir, JSON.stringify(params), JSON.stringify({ warmups: timing.warmups, runs: timing.runs, budgetMs: timing.budgetMs }), JSON.stringify(partDocuments ?? null), ...(firstPart ? ['first-part'] : [])], { maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`restart child failed: ${stderr || err.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as RestartFigures);
    });
  });
}

function estimate(o: BenchOptions): string {
  const gen = o.hosts / RATE.generate;
  const load = o.http ? o.hosts / RATE.http : o.engines.reduce((s, e) => s + o.hosts / RATE[e], 0);
  if (o.http) {
    return `estimate for ${o.hosts.toLocaleString('en')} hosts (--http): corpus generation ~${Math.ceil(gen / 60)} min (first time only), ` +
      `store + index load ~${Math.ceil(load / 60)} min, memory ~${((o.hosts * STORE_BYTES_PER_HOST) / 2 ** 30).toFixed(1)} GB, then 3 x ${o.duration} s of autocannon`;
  }
  const mem = periscopeMemory(o) / 2 ** 30;
  const corpus = o.stream ? 'corpus generated while it is read (--stream)' : `corpus generation ~${Math.ceil(gen / 60)} min (first time only, cached in bench/out)`;
  const others = o.engines.filter((e) => e !== 'periscope');
  const baselines = others.length === 0 ? '' : `${others.includes('duckdb') ? ', plus DuckDB in the same process' : ''}${others.some((e) => e === 'postgres' || e === 'sqlite') ? `; PostgreSQL/SQLite disk ~${((o.hosts * 2 * 9000) / 2 ** 30).toFixed(1)} GB` : ''}`;
  return `estimate for ${o.hosts.toLocaleString('en')} hosts: ${corpus}, ` +
    `loading ~${Math.ceil(load / 60)} min, Periscope peak memory ~${mem.toFixed(1)} GB${baselines}; queries up to ${Math.ceil(((o.budgetMs / 1000) * 17 * o.engines.length) / 60)} min (budget ${o.budgetMs / 1000} s per query per engine)`;
}

/** A failing statement is a gate failure of that engine, not the end of the run. */
async function guarded(name: string, kind: Mismatch['kind'], engine: string, check: () => Promise<Mismatch[]>): Promise<Mismatch[]> {
  try {
    return await check();
  } catch (e) {
    return [{ kind, name, engine, detail: `error: ${e instanceof Error ? e.message : String(e)}` }];
  }
}

interface Row {
  readonly name: string;
  readonly censys: string;
  readonly reference: number;
  readonly timings: Record<string, Timing>;
  readonly ratios: Record<string, number>;
  readonly mismatches: Mismatch[];
}

async function main(): Promise<number> {
  const parsed = parseOptions(process.argv.slice(2));
  if (!parsed.ok) {
    console.error(parsed.error);
    return 2;
  }
  const o = parsed.options;
  mkdirSync(OUT_DIR, { recursive: true });
  if (o.ingest) return runIngestMode(o, OUT_DIR, new Date());
  log(estimate(o));
  if (o.hosts >= 200_000 && !o.yes) {
    log('large run: starting in 5 s (Ctrl-C to stop, --yes to skip this pause)');
    await new Promise((r) => setTimeout(r, 5000));
  }
  const started = new Date();
  log(`corpus: ${o.hosts} hosts, seed ${o.seed}`);
  const corpus = o.stream ? { path: '(generated as read, --stream)', generated: false, ms: 0 } : await ensureCorpus(OUT_DIR, o.hosts, o.seed, (n) => log(`  generated ${n} hosts`));
  if (!o.stream) log(corpus.generated ? `corpus generated in ${(corpus.ms / 1000).toFixed(1)} s: ${corpus.path}` : `corpus reused: ${corpus.path}`);
  // Streamed, the parameters come from the corpus's first million hosts (a second full pass would double the run).
  const params = await pickParams(o.stream ? streamCorpus(o.hosts, o.seed, BATCH, STREAM_PARAMS_HOSTS) : readCorpus(corpus.path, BATCH), o.seed);
  log(`parameters: ${JSON.stringify({ cidr: params.cidr, domain: params.domain, phrase: params.phrase, term: params.term })}`);

  if (o.http) return runHttpMode(o, corpus.path, params, OUT_DIR, started);

  const engines: BenchEngine[] = [];
  const loads: Record<string, { docs: number; ms: number; docsPerSecond: number } | { error: string }> = {};
  let rssAfterPeriscope = 0;
  let rssAfterReopen = 0;
  let periscopeRate = 0;
  let restart: { checkpointMs: number; bytes: number; openMs: number; child: RestartFigures } | undefined;
  /** An index of several parts: its first part alone, restarted and timed the same way (one part against all, in one run). */
  let firstPart: RestartFigures | undefined;
  let peakRssAfterPeriscope = 0;
  try {
    for (const name of o.engines) {
      const engine = makeEngine(name, params, o);
      log(`loading ${name}...`);
      const t = performance.now();
      try {
        const batches = o.stream ? streamCorpus(o.hosts, o.seed, PERISCOPE_BATCH) : readCorpus(corpus.path, name === 'periscope' ? PERISCOPE_BATCH : BATCH);
        const docs = await engine.load(progress(batches, name));
        const ms = performance.now() - t;
        loads[name] = { docs, ms, docsPerSecond: docs / (ms / 1000) };
        engines.push(engine);
        log(`  ${name}: ${docs} documents in ${(ms / 1000).toFixed(1)} s (${(docs / (ms / 1000)).toFixed(0)} docs/s, corpus parsing included)`);
        if (name === 'periscope') {
          globalThis.gc?.();
          rssAfterPeriscope = process.memoryUsage().rss;
          peakRssAfterPeriscope = process.resourceUsage().maxRSS * 1024;
          periscopeRate = docs / (ms / 1000);
          log(`  periscope resident memory after load: ${(rssAfterPeriscope / MB).toFixed(0)} MB (peak so far ${(peakRssAfterPeriscope / MB).toFixed(0)} MB), ${(engine as PeriscopeEngine).parts} part(s)`);
          const cp = (engine as PeriscopeEngine).persistAndReopen();
          // What a server holds once its load is checkpointed and served from the segments
          // (Indexer.rebuild's reopen), in this process: the load's structures collected.
          await settle();
          rssAfterReopen = process.memoryUsage().rss;
          log(`  periscope resident memory after the checkpoint and reopen, in this process: ${(rssAfterReopen / MB).toFixed(0)} MB`);
          log(`  periscope checkpoint ${(cp.checkpointMs / 1000).toFixed(1)} s (${(cp.bytes / MB).toFixed(0)} MB of segments); reopening in a fresh process...`);
          // The children are measured without this process's engine beside them (at 10M hosts both would not fit).
          (engine as PeriscopeEngine).suspend();
          restart = { ...cp, child: await restartChild((engine as PeriscopeEngine).dir, params, o, o.partDocuments) };
          log(
            `  restart: segments opened in ${(restart.child.openMs / 1000).toFixed(2)} s (in this process: ${(cp.openMs / 1000).toFixed(2)} s), ` +
              `resident memory ${(restart.child.rssOpen / MB).toFixed(0)} MB, after a first pass over the mix ${(restart.child.rssAfterPass / MB).toFixed(0)} MB ` +
              `(pass ${(restart.child.passMs / 1000).toFixed(2)} s); the timed queries run on the reopened engine`,
          );
          if (restart.child.parts > 1) {
            log(`  ${restart.child.parts} parts: timing the first part alone in a fresh process...`);
            firstPart = await restartChild((engine as PeriscopeEngine).dir, params, o, o.partDocuments, true);
            log(`  first part: ${firstPart.documents} documents, opened in ${(firstPart.openMs / 1000).toFixed(2)} s, resident after a pass ${(firstPart.rssAfterPass / MB).toFixed(0)} MB`);
          }
          (engine as PeriscopeEngine).resume();
        }
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e);
        loads[name] = { error };
        log(`  ${name} FAILED to load: ${error} (left out of the run)`);
        await engine.close().catch(() => undefined);
        if (name === 'periscope') throw e;
      }
    }
    const periscope = engines[0] as PeriscopeEngine;
    const baselines = engines.slice(1);
    const queries = queryMix(params);
    const aggs = aggregations();

    log('correctness gate...');
    const mismatches: Mismatch[] = [];
    const refSearch = new Map<string, SearchAnswer>();
    const refAgg = new Map<string, Bucket[]>();
    for (const q of queries) {
      const ref = periscope.searchSync(q);
      refSearch.set(q.name, ref);
      for (const b of baselines) mismatches.push(...(await guarded(q.name, 'query', b.name, async () => compareSearch(q.name, b.name, ref, await b.search(q)))));
    }
    for (const a of aggs) {
      const ref = periscope.aggregateSync(a);
      refAgg.set(a.name, ref);
      for (const b of baselines) mismatches.push(...(await guarded(a.name, 'aggregation', b.name, async () => compareBuckets(a.name, b.name, ref, await b.aggregate(a)))));
    }
    if (mismatches.length === 0) log('  all engines agree on every count, first page and top bucket');
    else for (const m of mismatches) log(`  MISMATCH ${m.kind} ${m.name} [${m.engine}]: ${m.detail}`);

    const timeRow = async (name: string, censys: string, reference: number, run: (e: BenchEngine) => () => unknown): Promise<Row> => {
      const timings: Record<string, Timing> = {};
      for (const e of engines) {
        try {
          timings[e.name] = await time(run(e), o);
        } catch (err) {
          log(`  ${name} [${e.name}] failed while timing: ${err instanceof Error ? err.message : String(err)}`);
          timings[e.name] = { runs: 0, p50: NaN, p99: NaN, min: NaN, max: NaN };
        }
      }
      const base = timings.periscope!.p50;
      const ratios: Record<string, number> = {};
      for (const b of baselines) ratios[b.name] = timings[b.name]!.p50 / base;
      const mine = mismatches.filter((m) => m.name === name);
      log(`  ${name.padEnd(32)} ${engines.map((e) => `${e.name} ${fmtMs(timings[e.name]!.p50)}`).join('  ')}`);
      return { name, censys, reference, timings, ratios, mismatches: mine };
    };
    log(`timing queries (${o.warmups} warm-ups, up to ${o.runs} runs, budget ${o.budgetMs / 1000} s per query per engine)...`);
    const queryRows: Row[] = [];
    for (const q of queries) {
      queryRows.push(await timeRow(q.name, q.censys, refSearch.get(q.name)!.count, (e) => (e === periscope ? () => periscope.searchSync(q) : () => e.search(q as BenchQuery))));
    }
    log('timing aggregations...');
    const aggRows: Row[] = [];
    for (const a of aggs) {
      aggRows.push(await timeRow(a.name, `${a.censys} | top ${50} ${a.field}`, refAgg.get(a.name)![0]?.count ?? 0, (e) => (e === periscope ? () => periscope.aggregateSync(a) : () => e.aggregate(a as AggSpec))));
    }

    const gm = (rows: Row[], engine: string) => geomean(rows.map((r) => r.timings[engine]?.p50 ?? NaN));
    const summary = (rows: Row[]) => Object.fromEntries(engines.map((e) => [e.name, gm(rows, e.name)]));
    const qGm = summary(queryRows);
    const aGm = summary(aggRows);
    const fastest = (g: Record<string, number>) => {
      const v = baselines.map((b) => g[b.name]!).filter(Number.isFinite);
      return v.length > 0 ? Math.min(...v) : undefined;
    };
    const targets = checkTargets({
      queryP50: new Map(queryRows.map((r) => [r.name, r.timings.periscope!.p50])),
      queryGeomean: qGm.periscope!,
      restartedQueryP50: restart ? new Map(queryRows.flatMap((r) => (restart!.child.timings?.[r.name] ? [[r.name, restart!.child.timings[r.name]!.p50] as const] : []))) : undefined,
      fastestQueryBaselineGeomean: fastest(qGm),
      aggGeomean: aGm.periscope!,
      fastestAggBaselineGeomean: fastest(aGm),
      rssBytes: rssAfterPeriscope,
      rssAfterRestartBytes: restart?.child.rssAfterPass,
      rssAfterReopenBytes: rssAfterReopen || undefined,
      restartMs: restart?.child.openMs,
      docsPerSecond: periscopeRate,
      fullSize: o.hosts >= 1_000_000,
    });

    const names = engines.map((e) => e.name);
    // The same queries timed in the restarted process (a fresh heap), beside this process's.
    const restarted = (r: Row) => restart?.child.timings?.[r.name];
    const restartedGm = (rows: Row[]) => geomean(rows.map((r) => restarted(r)?.p50 ?? NaN));
    const first = (r: Row) => firstPart?.timings?.[r.name];
    const firstGm = (rows: Row[]) => geomean(rows.map((r) => first(r)?.p50 ?? NaN));
    const table = (title: string, rows: Row[], g: Record<string, number>) => {
      const extra = [...(restart ? ['restarted p50', 'p99'] : []), ...(firstPart ? ['first part p50', 'all/first'] : [])];
      const header = ['', 'hits', ...names.flatMap((n) => [`${n} p50`, 'p99']), ...extra, ...baselines.map((b) => `${b.name}/periscope`)];
      const body = rows.map((r) => [
        r.name + (r.mismatches.length > 0 ? ' (MISMATCH)' : ''),
        String(r.reference),
        ...names.flatMap((n) => [fmtMs(r.timings[n]?.p50), fmtMs(r.timings[n]?.p99)]),
        ...(restart ? [fmtMs(restarted(r)?.p50), fmtMs(restarted(r)?.p99)] : []),
        ...(firstPart ? [fmtMs(first(r)?.p50), fmtRatio((restarted(r)?.p50 ?? NaN) / (first(r)?.p50 ?? NaN))] : []),
        ...baselines.map((b) => fmtRatio(r.ratios[b.name])),
      ]);
      body.push([
        'geometric mean',
        '',
        ...names.flatMap((n) => [fmtMs(g[n]), '']),
        ...(restart ? [fmtMs(restartedGm(rows)), ''] : []),
        ...(firstPart ? [fmtMs(firstGm(rows)), fmtRatio(restartedGm(rows) / firstGm(rows))] : []),
        ...baselines.map((b) => fmtRatio(g[b.name]! / g.periscope!)),
      ]);
      return `${title} (ms)\n${formatTable(header, body)}`;
    };
    const docs = (loads.periscope as { docs: number }).docs;
    console.log(`\nPeriscope benchmark: ${docs.toLocaleString('en')} host documents (--hosts ${o.hosts}, seed ${o.seed}), ${cpus().length} cores, node ${process.version}`);
    console.log(`loads: ${Object.entries(loads).map(([n, l]) => ('error' in l ? `${n} failed (${l.error})` : `${n} ${(l.ms / 1000).toFixed(1)} s (${l.docsPerSecond.toFixed(0)} docs/s)`)).join(', ')}`);
    console.log(`Periscope resident memory after load: ${(rssAfterPeriscope / MB).toFixed(0)} MB (peak ${(peakRssAfterPeriscope / MB).toFixed(0)} MB); once checkpointed and reopened from the segments, in the same process: ${(rssAfterReopen / MB).toFixed(0)} MB`);
    if (firstPart) {
      const threaded = restart!.child.threadParts;
      console.log(
        `Periscope index in ${restart!.child.parts} parts of at most ${(o.partDocuments ?? DEFAULT_PART_DOCUMENTS).toLocaleString('en')} documents` +
          `${threaded > 0 ? ` (${threaded} searched by the query thread)` : ''}; 'first part' times its first part alone (${firstPart.documents.toLocaleString('en')} documents) in a fresh process`,
      );
    }
    if (restart) {
      const c = restart.child;
      console.log(
        `Periscope restart: checkpoint ${(restart.checkpointMs / 1000).toFixed(1)} s, ${(restart.bytes / MB).toFixed(0)} MB of segments; ` +
          `a fresh process opened them in ${(c.openMs / 1000).toFixed(2)} s (resident ${(c.rssOpen / MB).toFixed(0)} MB), ` +
          `first pass over the mix ${(c.passMs / 1000).toFixed(2)} s (resident ${(c.rssAfterPass / MB).toFixed(0)} MB); the queries below run on a reopened engine`,
      );
    }
    console.log('');
    console.log(table('Query mix: count + first 100 ids', queryRows, qGm) + '\n');
    console.log(table('Top-50 aggregations', aggRows, aGm) + '\n');
    console.log(formatTable(['target (issue, at 1M hosts)', 'periscope', 'met'], targets.map((t) => [t.target, t.value, t.met === null ? 'n/a' : t.met ? 'met' : 'NOT MET'])));
    console.log(mismatches.length === 0 ? '\ncorrectness gate: all engines agree' : `\ncorrectness gate: ${mismatches.length} MISMATCH(ES):\n${mismatches.map((m) => `  ${m.kind} ${m.name} [${m.engine}]: ${m.detail}`).join('\n')}`);

    const report = {
      startedAt: started.toISOString(),
      finishedAt: new Date().toISOString(),
      machine: { cores: cpus().length, cpu: cpus()[0]?.model, totalMemoryBytes: totalmem(), node: process.version },
      options: o,
      corpus: { path: corpus.path, documents: docs, generatedMs: corpus.generated ? corpus.ms : null },
      params,
      loads,
      periscopeRssAfterLoadBytes: rssAfterPeriscope,
      periscopeRssAfterReopenBytes: rssAfterReopen,
      periscopeRestart: restart ?? null,
      periscopeFirstPart: firstPart ?? null,
      periscopePeakRssAfterLoadBytes: peakRssAfterPeriscope,
      gate: { ok: mismatches.length === 0, mismatches },
      queries: queryRows,
      aggregations: aggRows,
      geometricMeans: { queries: qGm, aggregations: aGm },
      targets,
    };
    const out = o.out ?? join(OUT_DIR, `report-${started.toISOString().replace(/[:.]/g, '-')}.json`);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(report, null, 2));
    console.log(`\nreport: ${out}`);
    return mismatches.length === 0 ? 0 : 1;
  } finally {
    for (const e of engines) await e.close().catch((err) => log(`closing ${e.name}: ${String(err)}`));
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);

/**
 * Full collections a few seconds apart, with or without node's --expose-gc (the bench runs
 * without it): the backing stores of a dropped index are freed by a later collection than the
 * one that finds them dead (at 200k hosts, resident memory 1,164 MB right after one, 613 MB
 * three seconds and two collections later), as happens by itself in a server that goes on.
 */
async function settle(): Promise<void> {
  if (!globalThis.gc) setFlagsFromString('--expose-gc');
  const gc = globalThis.gc ?? (runInNewContext('gc') as () => void);
  gc();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  gc();
  gc();
}
