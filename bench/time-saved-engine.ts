/**
 * Times the query mix and aggregations on an engine directory saved by a bench run (or a
 * server's `<data-dir>/engine`), opened as a second process would (it never checkpoints):
 * p50/p99 of 30 runs after 3 warm-ups, and each query's first run (decoding its slots and
 * building derived structures). Lets the Periscope side of a long run be timed while the
 * baselines still load:
 *   node --import tsx bench/time-saved-engine.ts /tmp/periscope-bench-engine-XXXX [params-json]
 * Parameters default to those `npm run bench` picks for seed 1 (see pick-params.ts).
 */
import { EmbeddedEngine } from '../src/engine/index.ts';
import { compileQuery } from '../src/query/index.ts';
import { catalogueFor } from '../src/model/field-catalogue.ts';
import { aggregations, PAGE, queryMix, TOP_BUCKETS, type QueryParams } from './query-mix.ts';
import { geomean, time } from './timing.ts';

const dir = process.argv[2]!;
const params: QueryParams = process.argv[3]
  ? (JSON.parse(process.argv[3]) as QueryParams)
  : { cidr: '43.0.0.0/8', cidrLo: '', cidrHi: '', domain: 'pixel-academy.com', phrase: 'Server: nginx', term: 'nginx' };
const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
const engine = new EmbeddedEngine(catalogues, { dir });
const opened = engine.persistence!.open();
if (!opened.loaded) throw new Error(`segments did not open: ${opened.reason}`);
console.log(`documents ${opened.documents}`);
const compile = (text: string) => {
  const r = compileQuery(text, catalogues.hosts);
  if (!r.ok) throw new Error(`bench query does not compile: ${text}`);
  return r.query;
};
const rows: [string, () => { total: number }][] = [];
for (const q of queryMix(params)) {
  const query = compile(q.censys);
  rows.push([q.name, () => engine.search('hosts', { query, limit: PAGE })]);
}
for (const a of aggregations()) {
  const query = compile(a.censys);
  rows.push([a.name, () => engine.aggregate('hosts', { query, field: a.field, numBuckets: TOP_BUCKETS })]);
}
const p50 = new Map<string, number>();
for (const [name, f] of rows) {
  const started = performance.now();
  const r = f();
  const first = performance.now() - started;
  // The bench's own loop (bench/timing.ts), with no budget: always 3 warm-ups and 30 runs.
  const t = await time(f, { warmups: 3, runs: 30, budgetMs: Infinity });
  p50.set(name, t.p50);
  console.log(`${name.padEnd(34)} p50 ${t.p50.toFixed(3)}  p99 ${t.p99.toFixed(3)}  first ${first.toFixed(0)}  hits ${r.total}`);
}
const queries = geomean(queryMix(params).map((q) => p50.get(q.name)!));
const aggs = geomean(aggregations().map((a) => p50.get(a.name)!));
console.log(`query geomean ${queries.toFixed(3)} ms, aggregation geomean ${aggs.toFixed(3)} ms, resident ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
engine.persistence!.close();
