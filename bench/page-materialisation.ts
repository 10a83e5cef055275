/**
 * A/B of how a search page of 100 default-field hits is materialised, on the same SQLite store
 * and in the same process, alternating between the ways so that a busy machine slows them alike:
 *
 *   documents  — the former path: read the 100 current documents, parse them, project the default
 *                fields, serialise the page envelope with JSON.stringify;
 *   hits-cold  — the present path when no rendering is saved yet (the documents come back from the
 *                same statement, are rendered, and the renderings are saved);
 *   hits-saved — the present path once renderings are saved: one statement, no parse, the hits'
 *                text spliced into the envelope.
 *
 * Usage: npx tsx bench/page-materialisation.ts [--hosts 20000] [--pages 200] [--seed 1]
 * (the corpus file is the one `npm run bench` writes to bench/out/).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/store/index.ts';
import { projectFields } from '../src/model/project-fields.ts';
import { DEFAULT_HIT_FIELDS } from '../src/search/default-fields.ts';
import { defaultHits, flushSavedHits, renderAhead } from '../src/search/page-hits.ts';
import { searchPageJson } from '../src/search/search-documents.ts';
import { ensureCorpus, readCorpus } from './corpus-file.ts';
import { formatTable } from './format-table.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const hosts = arg('--hosts', 20000);
const pageCount = arg('--pages', 200);
const seed = arg('--seed', 1);
const outDir = join(dirname(fileURLToPath(import.meta.url)), 'out');
const corpus = await ensureCorpus(outDir, hosts, seed);
const dir = mkdtempSync(join(tmpdir(), 'bench-pages-'));
const store = await openStore({ kind: 'sqlite', file: join(dir, 'periscope.db') });
try {
  const ids: string[] = [];
  const t = performance.now();
  for await (const batch of readCorpus(corpus.path, 2000)) {
    await store.documents.putMany('hosts', batch.map((e) => ({ id: e.id, doc: e.doc, observedAt: String(e.doc.last_updated_at) })));
    for (const e of batch) ids.push(e.id);
  }
  process.stderr.write(`[pages] ${ids.length} documents stored in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  // Deterministic pages of 100 ids spread over the corpus, as an engine's page would be.
  let x = seed;
  const rand = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pages = Array.from({ length: pageCount }, () => Array.from({ length: 100 }, () => ids[Math.floor(rand() * ids.length)]!));
  const envelope = (hits: string[]) =>
    `{"code":200,"status":"OK","result":${searchPageJson({ query: 'q', total: 1, duration_ms: 1, hits, links: { prev: '', next: '' } })}}`;

  const ways: Record<string, (page: string[]) => Promise<number>> = {
    documents: async (page) => {
      const stored = await store.documents.getMany('hosts', page);
      const byId = new Map(stored.map((s) => [s.id, s.doc]));
      const hits = page.flatMap((id) => (byId.has(id) ? [projectFields(byId.get(id)!, DEFAULT_HIT_FIELDS.hosts)] : []));
      return JSON.stringify({ code: 200, status: 'OK', result: { query: 'q', total: 1, duration_ms: 1, hits, links: { prev: '', next: '' } } }).length;
    },
    'hits-saved': async (page) => {
      const byId = await defaultHits(store, 'hosts', page);
      return envelope(page.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []))).length;
    },
  };
  const samples: Record<string, { wall: number[]; cpu: number[] }> = {};
  const time = async (name: string, f: (page: string[]) => Promise<number>, page: string[]) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await f(page);
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    (samples[name] ??= { wall: [], cpu: [] }).wall.push(wall);
    samples[name].cpu.push((c.user + c.system) / 1000);
  };
  // Cold: each page's first materialisation, alternating with the former path on the same page.
  for (const page of pages) {
    await time('documents', ways.documents!, page);
    await time('hits-cold', ways['hits-saved']!, page);
  }
  await flushSavedHits(store);
  const tr = performance.now();
  const rendered = await renderAhead(store, 'hosts');
  process.stderr.write(`[pages] ${rendered} more hits rendered ahead in ${((performance.now() - tr) / 1000).toFixed(1)} s\n`);
  for (let round = 0; round < 3; round++) {
    for (const page of pages) {
      await time('documents', ways.documents!, page);
      await time('hits-saved', ways['hits-saved']!, page);
    }
  }
  const pct = (v: number[], p: number) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(p * v.length))]!;
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  console.log(`\npage of 100 default-field hits, ${ids.length.toLocaleString('en')} documents, SQLite; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(
    formatTable(
      ['way', 'pages', 'wall p50 ms', 'wall p99 ms', 'cpu mean ms'],
      Object.entries(samples).map(([name, s]) => [name, String(s.wall.length), pct(s.wall, 0.5).toFixed(2), pct(s.wall, 0.99).toFixed(2), mean(s.cpu).toFixed(2)]),
    ),
  );
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
