/**
 * Size and speed check of the embedded engine on realistic host documents (not a test: timings
 * are printed, never asserted). Usage: npx tsx test/engine/bench-embedded.ts [count]
 */
import { EmbeddedEngine } from '../../src/engine/index.ts';
import { catalogueFor } from '../../src/model/field-catalogue.ts';
import { compileQuery } from '../../src/query/index.ts';
import roaring from 'roaring';
import { realisticHost } from './realistic-hosts.ts';

const count = Number(process.argv[2] ?? 20000);
const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
// Round-tripped through JSON like documents read from the store (flat strings, no shared structure).
// Documents round-trip through JSON like documents read from the store (flat strings), and are
// made on the fly so that what stays in memory afterwards is the index.
const docAt = (i: number) => JSON.parse(JSON.stringify(realisticHost(i))) as ReturnType<typeof realisticHost>;
let json = 0;
let t = performance.now();
for (let i = 0; i < count; i++) json += JSON.stringify(docAt(i).doc).length;
const makeMs = performance.now() - t;
globalThis.gc?.();
const before = process.memoryUsage();
const roaringBefore = roaring.RoaringBitmap32.getRoaringUsedMemory();
const engine = new EmbeddedEngine(catalogues);
t = performance.now();
for (let i = 0; i < count; i++) {
  const { id, doc } = docAt(i);
  engine.upsert('hosts', id, doc);
}
const indexMs = performance.now() - t - makeMs;

const queries = [
  '*',
  'services.service_name: HTTP',
  'nginx',
  'services.port: 22 and services.software.product: openssh',
  'services: (port: 443 and tls.version_selected: TLSv1_3)',
  'not services.port: 80',
  'location.country: Germany or location.country: France',
  'services.http.response.html_title: "Welcome to nginx"',
  'services.http.response.body: "serves customers"',
  'services.software.version: 2.4*',
  'dns.names: /acme.*example\\.com/',
  'ip: 10.0.0.0/16',
  'last_updated_at: [2024-03-01 TO 2024-04-01]',
  'autonomous_system.asn > 15000',
  'ngin*',
  '/ngin.*/',
];
const first: string[] = [];
const warm: string[] = [];
for (const text of queries) {
  const compiled = compileQuery(text, catalogues.hosts);
  if (!compiled.ok) {
    console.log('query error', text, compiled.error);
    continue;
  }
  for (const out of [first, warm]) {
    t = performance.now();
    const r = engine.search('hosts', { query: compiled.query, limit: 100 });
    out.push(`${(performance.now() - t).toFixed(1).padStart(7)} ms  total ${String(r.total).padStart(7)}  ${text}`);
  }
}
const aggs = ['services.port', 'services.service_name', 'location.country', 'autonomous_system.name', 'services.software.product', 'dns.names', 'ip'];
const aggLines: string[] = [];
const all = compileQuery('*', catalogues.hosts);
for (const field of aggs) {
  if (!all.ok) break;
  t = performance.now();
  const a = engine.aggregate('hosts', { query: all.query, field, numBuckets: 50 });
  aggLines.push(`${(performance.now() - t).toFixed(1).padStart(7)} ms  total ${a.total} buckets ${a.buckets.length} first ${JSON.stringify(a.buckets[0])}  ${field}`);
}
for (const sortField of ['ip', 'last_updated_at', 'services.port']) {
  if (!all.ok) break;
  t = performance.now();
  engine.search('hosts', { query: all.query, limit: 100, sort: [{ field: sortField, descending: true }] });
  aggLines.push(`${(performance.now() - t).toFixed(1).padStart(7)} ms  sort by ${sortField} desc`);
}
globalThis.gc?.();
const after = process.memoryUsage();
const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;
console.log(`${count} hosts, ${mb(json)} of JSON, indexed in ${indexMs.toFixed(0)} ms (document generation excluded)`);
console.log(`heap +${mb(after.heapUsed - before.heapUsed)}, external +${mb(after.external - before.external)}, roaring +${mb(roaring.RoaringBitmap32.getRoaringUsedMemory() - roaringBefore)}, rss ${mb(after.rss)}`);
console.log('first run:\n' + first.join('\n'));
console.log('warm:\n' + warm.join('\n'));
console.log('aggregations and sorts:\n' + aggLines.join('\n'));
