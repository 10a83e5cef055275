/**
 * A restart of Periscope's engine in a fresh process, as `serve` does it: open the segments in
 * the directory given as argv[2], then answer the query mix and aggregations once (those
 * decode the parts of the index they touch), then time each of them as the bench times them
 * (argv[4]: warm-ups, runs, budget). Prints one JSON line: open time, resident memory after
 * opening and after the first pass, p50 and p99 per query. Run by bench/run.ts; a fresh process
 * keeps the figures free of the bench's own engines and of the garbage its load left behind.
 * argv[5]: documents per part (JSON, null for the default); argv[6] `first-part`: open part 0
 * alone, an index of the first documents only, to compare one part with all of them in one run.
 * Run with --expose-gc (see the collection after the first pass).
 */
import { EmbeddedEngine, PartedEngine } from '../src/engine/index.ts';
import { compileQuery } from '../src/query/index.ts';
import { catalogueFor } from '../src/model/field-catalogue.ts';
import { loadConfig } from '../src/main/config.ts';
import { aggregations, PAGE, queryMix, TOP_BUCKETS, type QueryParams } from './query-mix.ts';
import { time, type TimeOptions, type Timing } from './timing.ts';

const dir = process.argv[2]!;
const params = JSON.parse(process.argv[3]!) as QueryParams;
const timing = process.argv[4] ? (JSON.parse(process.argv[4]) as TimeOptions) : undefined;
const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
const rssStart = process.memoryUsage().rss;
const partDocuments = process.argv[5] ? ((JSON.parse(process.argv[5]) as number | null) ?? undefined) : undefined;
// As `serve` runs it: the query thread on unless PERISCOPE_ENGINE_QUERY_THREAD turns it off.
const queryThread = loadConfig({ flags: {}, env: process.env }).engine.queryThread ?? true;
const engine: EmbeddedEngine | PartedEngine =
  process.argv[6] === 'first-part' ? new EmbeddedEngine(catalogues, { dir }) : new PartedEngine(catalogues, { dir, partDocuments, queryThread });
const t = performance.now();
const opened = engine.persistence!.open();
const openMs = performance.now() - t;
if (!opened.loaded) throw new Error(`segments did not open: ${opened.reason}`);
const rssOpen = process.memoryUsage().rss;
const threadParts = engine instanceof PartedEngine ? engine.threadParts.length : 0;
const compile = (text: string) => {
  const r = compileQuery(text, catalogues.hosts);
  if (!r.ok) throw new Error(`bench query does not compile: ${text}`);
  return r.query;
};
const firstMs: Record<string, number> = {};
const pass = performance.now();
for (const q of queryMix(params)) {
  const s = performance.now();
  engine.search('hosts', { query: compile(q.censys), limit: PAGE });
  firstMs[q.name] = performance.now() - s;
}
for (const a of aggregations()) {
  const s = performance.now();
  engine.aggregate('hosts', { query: compile(a.censys), field: a.field, numBuckets: TOP_BUCKETS });
  firstMs[a.name] = performance.now() - s;
}
const passMs = performance.now() - pass;
const rssAfterPass = process.memoryUsage().rss;
// The first pass built gigabytes of structures at 10M hosts and left as much garbage; collected
// here, once, and given time to be swept, so that the timed queries measure queries and not the
// collection of the build's garbage. The one-part child does the same. A server's warm-up does
// this work in the background long before steady traffic. The query thread's parts left theirs
// in that thread: collected there too. Each collection is followed by a wait: V8 sweeps what a
// full collection freed afterwards, on its own threads and in every allocation until done, and
// timing at once after the second one measured that (ten parts: term's first twenty runs took
// 2-15 ms, then 0.8 ms; docs/BENCHMARK.md, session 20).
const collect = async () => {
  globalThis.gc!();
  if (engine instanceof PartedEngine) engine.collectThreadGarbage();
  await new Promise((resolve) => setTimeout(resolve, 3000));
};
if (globalThis.gc) {
  await collect();
  await collect();
}
const timings: Record<string, Timing> = {};
if (timing) {
  for (const q of queryMix(params)) {
    const query = compile(q.censys);
    timings[q.name] = await time(() => engine.search('hosts', { query, limit: PAGE }), timing);
  }
  for (const a of aggregations()) {
    const query = compile(a.censys);
    timings[a.name] = await time(() => engine.aggregate('hosts', { query, field: a.field, numBuckets: TOP_BUCKETS }), timing);
  }
}
engine.persistence!.close();
process.stdout.write(JSON.stringify({ parts: engine instanceof PartedEngine ? engine.parts.length : 1, threadParts, documents: opened.documents, openMs, passMs, firstMs, rssStart, rssOpen, rssAfterPass, timings }) + '\n');
