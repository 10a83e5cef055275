/**
 * ASM risk evaluation cost on the demo corpus: every host and certificate of N demo hosts is an
 * asset of one workspace; a full evaluation opens their risk instances, a second one finds them
 * all again unchanged. Reports wall and process CPU time (CPU is the fairer figure on a shared
 * machine). Usage: `node --import tsx bench/asm-risks.ts [sqlite|postgres] [hosts=2000]`
 * (postgres: postgres://root@127.0.0.1:5432/test, a scratch schema dropped afterwards).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/index.ts';
import { demoStream } from '../src/ingest/demo/index.ts';
import { createAsmContext } from '../src/asm/index.ts';
import { evaluateWorkspace } from '../src/asm/risks/index.ts';
import type { Asset } from '../src/model/asm-asset.ts';

const kind = process.argv[2] ?? 'sqlite';
const hosts = Number(process.argv[3] ?? 2000);
const dir = mkdtempSync(join(tmpdir(), 'risk-bench-'));
const store = kind === 'sqlite' ? await openStore({ kind: 'sqlite', file: join(dir, 'b.db') }) : await openStore({ kind: 'postgres', url: 'postgres://root@127.0.0.1:5432/test', schema: `risk_bench_${process.pid}` });
const demo = demoStream({ hosts, certificates: Math.round(hosts / 4) });
const now = new Date(demo.now);
const hostDocs = [...demo.hosts].map((h) => h.versions[h.versions.length - 1].doc as Record<string, unknown> & { ip: string });
await store.documents.putMany('hosts', hostDocs.map((d) => ({ id: d.ip, doc: d, observedAt: demo.now })));
await store.documents.putMany('certificates', demo.certificates.map((c) => ({ id: c.doc.fingerprint_sha256, doc: c.doc, observedAt: demo.now })));
const at = now.toISOString();
const mk = (type: Asset['type'], assetId: string): Asset => ({ workspaceId: 'w', type, assetId, isSeed: false, source: 'CENSYS_SCAN', associatedAt: at, updatedAt: at, trail: [], cloud: null, data: { names: [] } });
const assets = [...hostDocs.map((d) => mk('HOST', d.ip)), ...demo.certificates.map((c) => mk('CERT', c.doc.fingerprint_sha256))];
await store.asmAssets.apply('w', { upsert: assets, remove: [] }, []);
const ctx = createAsmContext(store, () => now);
for (const label of ['first (opens)', 'again (unchanged)']) {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const c = await evaluateWorkspace(ctx, 'w');
  console.log(`${kind} ${hosts} hosts + ${demo.certificates.length} certs, ${label}: ${(performance.now() - t).toFixed(0)} ms wall, ${((process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000).toFixed(0)} ms cpu`, JSON.stringify(c));
}
await store.close();
if (kind === 'postgres') {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: 'postgres://root@127.0.0.1:5432/test' });
  await c.connect();
  await c.query(`drop schema risk_bench_${process.pid} cascade`);
  await c.end();
}
rmSync(dir, { recursive: true, force: true });
