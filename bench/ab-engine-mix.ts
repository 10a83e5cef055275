/**
 * A/B of the embedded engine between two source trees on one machine: loads a bench corpus into
 * the engine of the tree at argv[2] (in memory) and prints the p50 (ms, 25 runs after 2 warm-ups)
 * of every query and aggregation of the mix as one JSON line. Alternate runs of the two trees
 * (e.g. a `git worktree` of an older commit) when the machine is busy:
 *   node --import tsx bench/ab-engine-mix.ts /tmp/old-tree bench/out/corpus-h20000-s1.ndjson
 */
import { readCorpus } from './corpus-file.ts';
import { aggregations, queryMix } from './query-mix.ts';

const root = process.argv[2]!;
const { EmbeddedEngine } = await import(`${root}/src/engine/index.ts`);
const { catalogueFor } = await import(`${root}/src/model/field-catalogue.ts`);
const { compileQuery } = await import(`${root}/src/query/index.ts`);
const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
const engine = new EmbeddedEngine(catalogues);
for await (const batch of readCorpus(process.argv[3]!, 5000)) for (const { id, doc } of batch) engine.upsert('hosts', id, doc);
// The parameters `npm run bench` picks for the 20k and 100k corpora of seed 1.
const params = { cidr: '43.0.0.0/8', cidrLo: '', cidrHi: '', domain: 'pixel-academy.com', phrase: 'Server: nginx', term: 'nginx' };
const out: Record<string, number> = {};
const time = (name: string, f: () => unknown) => {
  f();
  f();
  const t: number[] = [];
  for (let i = 0; i < 25; i++) {
    const s = performance.now();
    f();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  out[name] = t[12]!;
};
const compiled = (text: string) => {
  const c = compileQuery(text, catalogues.hosts);
  if (!c.ok) throw new Error(`does not compile: ${text}`);
  return c.query;
};
for (const q of queryMix(params)) {
  const query = compiled(q.censys);
  time(q.name, () => engine.search('hosts', { query, limit: 100 }));
}
for (const a of aggregations()) {
  const query = compiled(a.censys);
  time(a.name, () => engine.aggregate('hosts', { query, field: a.field, numBuckets: 50 }));
}
console.log(JSON.stringify(out));
