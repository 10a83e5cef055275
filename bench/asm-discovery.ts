/**
 * ASM discovery cost on the demo corpus: a full evaluation of a workspace with a /16, a domain and
 * an ASN seed, a no-change re-evaluation, and the incremental path (up to 200 changed in-scope
 * hosts, 200 changed unrelated hosts: Indexer.put, then discovery on the same ids), then a
 * full evaluation that must change nothing.
 * Usage: `node --import tsx bench/asm-discovery.ts [hosts=20000] [cidr=the /16 of a sampled host]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '../src/main/config.ts';
import { openRuntime } from '../src/main/runtime.ts';
import { loadDemo } from '../src/main/load-demo.ts';
import { createAsmContext } from '../src/asm/index.ts';
import { Discovery } from '../src/asm/discovery/index.ts';

const N = Number(process.argv[2] ?? 20000);
const dir = mkdtempSync(join(tmpdir(), 'asm-bench-'));
const rt = await openRuntime({ ...DEFAULTS, dataDir: dir, logLevel: 'silent' });
let t = Date.now();
await loadDemo(rt.indexer, { hosts: N, certificates: Math.round(N / 4), quiet: true });
console.log(`demo ${N} hosts loaded in ${Date.now() - t} ms`);
// Pick seeds from the data: the /16 of some host, the domain of some names, an ASN.
const sample: any[] = [];
for await (const batch of rt.store.documents.scan('hosts', 2000)) { sample.push(...batch.slice(0, 50).map((d) => d.doc)); if (sample.length > 400) break; }
const ip = sample.find((d) => !String(d.ip).includes(':')).ip as string;
const cidr = process.argv[3] ?? ip.split('.').slice(0, 2).join('.') + '.0.0/16';
const named = sample.find((d) => d.dns?.names?.length);
const domain = named ? String(named.dns.names[0]).split('.').slice(-2).join('.') : 'example.com';
const asn = sample.find((d) => d.autonomous_system?.asn)?.autonomous_system.asn;
const ws = await rt.store.users.createWorkspace('bench');
await rt.store.seeds.add(ws.id, [{ type: 'CIDR', value: cidr, label: '' }, { type: 'DOMAIN_NAME', value: domain, label: '' }, ...(asn ? [{ type: 'ASN' as const, value: String(asn), label: '' }] : [])], 'API', new Date().toISOString());
// Discovery alone: its own context, so nothing else (risk evaluation) listens to AssetsChanged.
const discovery = new Discovery(createAsmContext(rt.store, () => new Date(), (err) => console.error(err), rt.ctx));
t = Date.now();
const r = await discovery.evaluate(ws.id);
const full = Date.now() - t;
const counts: Record<string, number> = {};
for (const type of ['HOST', 'CERT', 'DOMAIN', 'SUBDOMAIN', 'WEB_ENTITY', 'STORAGE_BUCKET'] as const) counts[type] = await rt.store.asmAssets.count(ws.id, type);
console.log(`seeds ${cidr} ${domain} AS${asn}: full evaluation ${full} ms, ${r.upserted} assets, ${r.events} events`, counts);
t = Date.now();
const again = await discovery.evaluate(ws.id);
console.log(`full re-evaluation with no change: ${Date.now() - t} ms (${again.upserted} upserts)`);
// Incremental: re-put 200 in-scope hosts with one more port each, then 200 unrelated.
const inScope = (await rt.store.asmAssets.ids(ws.id, 'HOST')).slice(0, 200);
const docs = await rt.store.documents.getMany('hosts', inScope);
t = Date.now();
await rt.indexer.put('hosts', docs.map((d) => ({ id: d.id, doc: { ...d.doc, services: [...((d.doc.services as unknown[]) ?? []), { port: 65001, service_name: 'HTTP', transport_protocol: 'TCP' }] }, observedAt: new Date().toISOString() })));
console.log(`indexer.put of ${docs.length} changed in-scope hosts: ${Date.now() - t} ms`);
t = Date.now();
await discovery.documentsChanged('hosts', docs.map((d) => d.id));
console.log(`  incremental discovery on those ${docs.length} ids: ${Date.now() - t} ms`);
const other: any[] = [];
for await (const batch of rt.store.documents.scan('hosts', 2000)) { for (const d of batch) if (!inScope.includes(d.id) && !(await rt.store.asmAssets.get(ws.id, 'HOST', d.id))) other.push(d); if (other.length >= 200) break; }
t = Date.now();
await rt.indexer.put('hosts', other.slice(0, 200).map((d) => ({ id: d.id, doc: { ...d.doc, labels: ['bench'] }, observedAt: new Date().toISOString() })));
console.log(`indexer.put of 200 changed unrelated hosts: ${Date.now() - t} ms`);
t = Date.now();
await discovery.documentsChanged('hosts', other.slice(0, 200).map((d) => d.id));
console.log(`  discovery on those 200 ids (matched against the workspace, nothing to do): ${Date.now() - t} ms`);
const full2 = await discovery.evaluate(ws.id);
console.log(`full evaluation after the incremental ones changed ${full2.upserted + full2.removed} assets (0 = incremental was exact)`);
await rt.close();
rmSync(dir, { recursive: true, force: true });
