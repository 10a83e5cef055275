/**
 * Times one query on an engine directory saved by a bench run or a server (opened as a second
 * process would, never checkpointing): its first run, then p10/p50/p90 of `runs` runs after 5
 * warm-ups. With `--after QUERY`, that query runs first, so the first run shows what the timed
 * query itself derives (e.g. a phrase's document postings once the token index is built):
 *   node --import tsx bench/time-one-query.ts DIR 'services.banner: "Server: nginx"' [runs] [--after QUERY]
 */
import { EmbeddedEngine } from '../src/engine/index.ts';
import { compileQuery } from '../src/query/index.ts';
import { catalogueFor } from '../src/model/field-catalogue.ts';

const args = process.argv.slice(2);
const afterAt = args.indexOf('--after');
const after = afterAt >= 0 ? args.splice(afterAt, 2)[1] : undefined;
const [dir, text, runsArg] = args;
if (!dir || !text) {
  console.error('usage: time-one-query.ts DIR QUERY [runs] [--after QUERY]');
  process.exit(2);
}
const runs = Number(runsArg ?? 200);
const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
const compile = (q: string) => {
  const r = compileQuery(q, catalogues.hosts);
  if (!r.ok) throw new Error(`${q}: ${r.error.message}`);
  return r.query;
};
const engine = new EmbeddedEngine(catalogues, { dir });
const opened = engine.persistence!.open();
if (!opened.loaded) throw new Error(`segments did not open: ${opened.reason}`);
const ms = (f: () => unknown) => {
  const s = performance.now();
  f();
  return performance.now() - s;
};
if (after !== undefined) {
  const q = compile(after);
  console.log(`after: ${after}: ${ms(() => engine.search('hosts', { query: q, limit: 100 })).toFixed(0)} ms`);
}
const query = compile(text);
let total = 0;
const first = ms(() => (total = engine.search('hosts', { query, limit: 100 }).total));
for (let i = 0; i < 5; i++) engine.search('hosts', { query, limit: 100 });
const t: number[] = [];
for (let i = 0; i < runs; i++) t.push(ms(() => engine.search('hosts', { query, limit: 100 })));
t.sort((a, b) => a - b);
const at = (p: number) => t[Math.min(t.length - 1, Math.floor(t.length * p))]!.toFixed(3);
console.log(`${text}: ${total} hits; first ${first.toFixed(1)} ms; p10 ${at(0.1)} p50 ${at(0.5)} p90 ${at(0.9)} ms over ${runs} runs`);
engine.persistence!.close();
