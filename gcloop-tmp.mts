import { PartedEngine } from '/work/main/src/engine/index.ts';
import { compileQuery } from '/work/main/src/query/index.ts';
import { catalogueFor } from '/work/main/src/model/field-catalogue.ts';
import { queryMix, aggregations, PAGE, TOP_BUCKETS } from '/work/main/bench/query-mix.ts';
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
const dir = process.argv[2]; const name = process.argv[3];
const params = JSON.parse(readFileSync('/tmp/w/ten.params.json', 'utf8'));
const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
const e = new PartedEngine(catalogues, { dir, partDocuments: 5000000 });
const o = e.persistence!.open(); if (!o.loaded) throw new Error(o.reason);
const c = (t: string) => { const r = compileQuery(t, catalogues.hosts); if (!r.ok) throw new Error(t); return r.query; };
for (const q of queryMix(params)) e.search('hosts', { query: c(q.censys), limit: PAGE });
for (const a of aggregations()) e.aggregate('hosts', { query: c(a.censys), field: a.field, numBuckets: TOP_BUCKETS });
globalThis.gc!(); await new Promise((r) => setTimeout(r, 3000)); globalThis.gc!();
const space = () => Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, +(s.space_used_size / 2 ** 20).toFixed(0)]));
console.error('HEAP', JSON.stringify(space()), 'rss', (process.memoryUsage().rss / 2 ** 20).toFixed(0));
for (const qn of name.split(',')) {
  const q = queryMix(params).find((x) => x.name === qn)!;
  const query = c(q.censys);
  const times: number[] = [];
  const t = performance.now();
  console.error('LOOP', qn);
  while (performance.now() - t < 8000) { const s = performance.now(); e.search('hosts', { query, limit: PAGE }); times.push(performance.now() - s); }
  times.sort((a, b) => a - b);
  console.error('RESULT', qn, times.length, 'queries p50', times[times.length >> 1].toFixed(3), 'p90', times[Math.floor(times.length * 0.9)].toFixed(3), 'max', times[times.length - 1].toFixed(1));
}
console.error('HEAP', JSON.stringify(space()));
