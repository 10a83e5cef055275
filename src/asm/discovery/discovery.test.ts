import { after, afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type KyselyStore } from '../../store/index.ts';
import { EmbeddedEngine } from '../../engine/index.ts';
import { catalogueFor } from '../../model/field-catalogue.ts';
import { Indexer } from '../../search/indexer.ts';
import type { SearchContext } from '../../search/search-context.ts';
import { createAsmContext, type AsmContext } from '../asm-context.ts';
import type { AssetsChange } from '../assets-changed.ts';
import type { AssetType, LogbookEvent } from '../../model/asm-asset.ts';
import { Discovery } from './discovery.ts';

const dir = mkdtempSync(join(tmpdir(), 'periscope-discovery-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const FP_A = 'a'.repeat(64);
const FP_B = 'b'.repeat(64);
const FP_C = 'c'.repeat(64);
const T0 = '2024-06-01T00:00:00.000Z';

function host(ip: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ip, services: [], ...extra };
}

function http(port: number, extra: Record<string, unknown> = {}) {
  return { port, service_name: 'HTTP', transport_protocol: 'TCP', ...extra };
}

/** The crafted world: two seeds' worth of hosts and certificates, plus noise. */
const HOSTS = [
  // In 10.0.0.0/24 (CIDR seed), presents FP_A on 443, HTTP on 80 with nginx.
  host('10.0.0.1', {
    autonomous_system: { asn: 64500 },
    cloud: { provider: 'Amazon AWS' },
    services: [
      http(80, { software: [{ uniform_resource_identifier: 'cpe:2.3:a:f5:nginx:1.18.0:*:*:*:*:*:*:*', vendor: 'f5', product: 'nginx', version: '1.18.0' }] }),
      { port: 443, service_name: 'HTTP', extended_service_name: 'HTTPS', transport_protocol: 'TCP', certificate: FP_A },
      { port: 22, service_name: 'SSH', transport_protocol: 'TCP' },
    ],
  }),
  // Named www.example.com (domain seed), outside the CIDR.
  host('192.0.2.10', { dns: { names: ['www.example.com', 'elsewhere.org'] }, services: [http(8080)] }),
  // Only reverse DNS under the domain: gives a subdomain but is not a host of the workspace.
  host('192.0.2.20', { dns: { reverse_dns: { names: ['mail.example.com'] } }, services: [http(80)] }),
  // AS 64501 (ASN seed in the other workspace only).
  host('198.51.100.7', { autonomous_system: { asn: 64501 }, services: [{ port: 25, service_name: 'SMTP', transport_protocol: 'TCP' }] }),
  // Noise.
  host('203.0.113.9', { dns: { names: ['example.org'] }, services: [http(80)] }),
  // In the CIDR, names a bucket and redirects to another one.
  host('10.0.0.2', {
    dns: { names: ['acme-assets.s3.amazonaws.com'] },
    services: [http(80, { http: { response: { headers: { Location: ['https://storage.googleapis.com/acme-backups/index.html'] } } } })],
  }),
];

const CERTS = [
  { fingerprint_sha256: FP_A, names: ['shop.example.com', 'example.com'] },
  { fingerprint_sha256: FP_B, names: ['*.api.example.com'] },
  { fingerprint_sha256: FP_C, names: ['unrelated.net'] },
];

interface World {
  store: KyselyStore;
  indexer: Indexer;
  asm: AsmContext;
  discovery: Discovery;
  changes: AssetsChange[];
  clock: { now: Date };
}

let n = 0;
async function world(): Promise<World> {
  const store = await openStore({ kind: 'sqlite', file: join(dir, `w-${n++}.db`) });
  const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
  const engine = new EmbeddedEngine(catalogues);
  const clock = { now: new Date(T0) };
  const ctx: SearchContext = { store, engine, catalogues, now: () => clock.now };
  const indexer = new Indexer(ctx);
  const errors: unknown[] = [];
  const asm = createAsmContext(store, () => clock.now, (err) => errors.push(err), ctx);
  const discovery = new Discovery(asm);
  indexer.onChanged((index, ids) => discovery.documentsChanged(index, ids));
  indexer.onListenerError = (err) => {
    throw err;
  };
  const changes: AssetsChange[] = [];
  asm.assetsChanged.subscribe((c) => {
    changes.push(c);
  });
  await indexer.put('certificates', CERTS.map((c) => ({ id: c.fingerprint_sha256, doc: c, observedAt: T0 })));
  await indexer.put('hosts', HOSTS.map((h) => ({ id: String(h.ip), doc: h, observedAt: T0 })));
  return { store, indexer, asm, discovery, changes, clock };
}

async function ids(w: World, ws: string, type: AssetType): Promise<string[]> {
  return w.store.asmAssets.ids(ws, type);
}

async function addSeeds(w: World, ws: string, seeds: { type: 'IP_ADDRESS' | 'DOMAIN_NAME' | 'CIDR' | 'ASN'; value: string }[]) {
  const added = await w.store.seeds.add(ws, seeds.map((s) => ({ ...s, label: '' })), 'API', T0);
  await w.asm.seedsChanged.emit({ workspaceId: ws, added, removed: [] });
}

async function events(w: World, ws: string): Promise<LogbookEvent[]> {
  return w.store.asmLogbook.read(ws, { limit: 10_000 });
}

describe('discovery', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(async () => {
    await w.store.close();
  });

  it('finds hosts, certificates, web entities and buckets of a CIDR seed', async () => {
    await addSeeds(w, 'w1', [{ type: 'CIDR', value: '10.0.0.0/24' }]);
    assert.deepEqual(await ids(w, 'w1', 'HOST'), ['10.0.0.1', '10.0.0.2']);
    assert.deepEqual(await ids(w, 'w1', 'CERT'), [FP_A]);
    assert.deepEqual(await ids(w, 'w1', 'WEB_ENTITY'), ['10.0.0.1:443', '10.0.0.1:80', '10.0.0.2:80']);
    assert.deepEqual(await ids(w, 'w1', 'STORAGE_BUCKET'), ['https://acme-assets.s3.amazonaws.com', 'https://storage.googleapis.com/acme-backups']);
    assert.deepEqual(await ids(w, 'w1', 'DOMAIN'), []);
    const h = await w.store.asmAssets.get('w1', 'HOST', '10.0.0.1');
    assert.equal(h?.cloud, 'Amazon AWS');
    assert.equal(h?.isSeed, false);
    assert.equal(h?.source, 'CENSYS_SCAN');
    assert.deepEqual(h?.trail, [{ type: 'CIDR', assetId: '10.0.0.0/24', isSeed: true }]);
    assert.deepEqual(h?.associatedAt, T0);
    assert.deepEqual((h?.data.ports as { port: number }[]).map((p) => p.port), [22, 80, 443]);
    const cert = await w.store.asmAssets.get('w1', 'CERT', FP_A);
    assert.deepEqual(cert?.trail, [{ type: 'CIDR', assetId: '10.0.0.0/24', isSeed: true }, { type: 'IP_ADDRESS', assetId: '10.0.0.1', isSeed: false }]);
    assert.deepEqual(cert?.data, { hosts: [{ ip: '10.0.0.1', port: 443 }], names: ['example.com', 'shop.example.com'] });
    const web = await w.store.asmAssets.get('w1', 'WEB_ENTITY', '10.0.0.1:443');
    assert.deepEqual(web?.data, { name: '10.0.0.1', port: 443, hosts: ['10.0.0.1'], scheme: 'https' });
    const bucket = await w.store.asmAssets.get('w1', 'STORAGE_BUCKET', 'https://storage.googleapis.com/acme-backups');
    assert.deepEqual(bucket?.data, { provider: 'Google Cloud', bucket: 'acme-backups', seenOn: ['10.0.0.2'] });
    assert.equal(bucket?.cloud, 'Google Cloud');
  });

  it('finds the domain, its subdomains, the hosts they resolve to and the certificates naming them', async () => {
    await addSeeds(w, 'w1', [{ type: 'DOMAIN_NAME', value: 'example.com' }]);
    assert.deepEqual(await ids(w, 'w1', 'DOMAIN'), ['example.com']);
    assert.deepEqual(await ids(w, 'w1', 'SUBDOMAIN'), ['api.example.com', 'mail.example.com', 'shop.example.com', 'www.example.com']);
    assert.deepEqual(await ids(w, 'w1', 'HOST'), ['192.0.2.10']);
    assert.deepEqual(await ids(w, 'w1', 'CERT'), [FP_A, FP_B]);
    assert.deepEqual(await ids(w, 'w1', 'WEB_ENTITY'), ['www.example.com:8080']);
    const domain = await w.store.asmAssets.get('w1', 'DOMAIN', 'example.com');
    assert.deepEqual([domain?.isSeed, domain?.source, domain?.trail], [true, 'Seed', []]);
    assert.deepEqual(domain?.data, { subdomains: ['api.example.com', 'mail.example.com', 'shop.example.com', 'www.example.com'] });
    assert.deepEqual((await w.store.asmAssets.get('w1', 'SUBDOMAIN', 'www.example.com'))?.data, { domain: 'example.com', resolvedHosts: ['192.0.2.10'] });
    assert.deepEqual((await w.store.asmAssets.get('w1', 'SUBDOMAIN', 'mail.example.com'))?.data, { domain: 'example.com', resolvedHosts: [], reverseHosts: ['192.0.2.20'] });
    assert.deepEqual((await w.store.asmAssets.get('w1', 'HOST', '192.0.2.10'))?.trail, [
      { type: 'DOMAIN_NAME', assetId: 'example.com', isSeed: true },
      { type: 'DOMAIN_NAME', assetId: 'www.example.com', isSeed: false },
    ]);
    // FP_A names the seed itself: the shortest trail is the seed alone.
    assert.deepEqual((await w.store.asmAssets.get('w1', 'CERT', FP_A))?.trail, [{ type: 'DOMAIN_NAME', assetId: 'example.com', isSeed: true }]);
  });

  it('marks seed hosts, picks the shortest trail and keeps workspaces apart', async () => {
    await addSeeds(w, 'w1', [{ type: 'IP_ADDRESS', value: '10.0.0.1' }, { type: 'CIDR', value: '10.0.0.0/8' }]);
    await addSeeds(w, 'w2', [{ type: 'ASN', value: '64501' }]);
    const seedHost = await w.store.asmAssets.get('w1', 'HOST', '10.0.0.1');
    assert.deepEqual([seedHost?.isSeed, seedHost?.source, seedHost?.trail], [true, 'Seed', []]);
    assert.deepEqual(await ids(w, 'w2', 'HOST'), ['198.51.100.7']);
    assert.deepEqual((await w.store.asmAssets.get('w2', 'HOST', '198.51.100.7'))?.trail, [{ type: 'ASN', assetId: '64501', isSeed: true }]);
    assert.equal(await w.store.asmAssets.get('w2', 'HOST', '10.0.0.1'), undefined);
    assert.ok((await events(w, 'w2')).every((e) => e.workspaceId === 'w2'));
    assert.ok(!(await events(w, 'w2')).some((e) => e.entity.ipAddress === '10.0.0.1'));
  });

  it('writes association and cascaded part events, then disassociates when a seed goes', async () => {
    await addSeeds(w, 'w1', [{ type: 'IP_ADDRESS', value: '10.0.0.1' }]);
    const first = await events(w, 'w1');
    const summary = first.filter((e) => e.entity.ipAddress === '10.0.0.1' || e.type === 'CERT').map((e) => `${e.type} ${e.operation} ${JSON.stringify(e.data ?? {})}`);
    assert.deepEqual(summary, [
      'HOST ASSOCIATE {}',
      'HOST_PORT ADD {"port":22,"transportProtocol":"TCP"}',
      'HOST_PROTOCOL ADD {"port":22,"transportProtocol":"TCP","protocol":"SSH"}',
      'HOST_PORT ADD {"port":80,"transportProtocol":"TCP"}',
      'HOST_PROTOCOL ADD {"port":80,"transportProtocol":"TCP","protocol":"HTTP"}',
      'HOST_SOFTWARE ADD {"port":80,"transportProtocol":"TCP","softwareUri":"cpe:2.3:a:f5:nginx:1.18.0:*:*:*:*:*:*:*","softwareName":"nginx 1.18.0","softwarePart":"application","softwareSource":"CENSYS_SCAN","softwareVendor":"f5","softwareProduct":"nginx","softwareVersion":"1.18.0"}',
      'HOST_PORT ADD {"port":443,"transportProtocol":"TCP"}',
      'HOST_PROTOCOL ADD {"port":443,"transportProtocol":"TCP","protocol":"HTTPS"}',
      `HOST_CERT ADD {"port":443,"transportProtocol":"TCP","sha256":"${FP_A}"}`,
      'CERT ASSOCIATE {}',
    ]);
    assert.ok(first.every((e) => e.timestamp === T0));
    for (let i = 1; i < first.length; i++) assert.ok(first[i].id > first[i - 1].id);
    // The event list stays the same on a re-evaluation that finds nothing new.
    await w.discovery.evaluate('w1');
    assert.equal((await events(w, 'w1')).length, first.length);

    w.clock.now = new Date('2024-06-02T00:00:00.000Z');
    const [seed] = await w.store.seeds.list('w1');
    await w.store.seeds.remove('w1', seed.id);
    await w.asm.seedsChanged.emit({ workspaceId: 'w1', added: [], removed: [seed] });
    const later = (await events(w, 'w1')).slice(first.length);
    assert.deepEqual(later.filter((e) => e.operation === 'DISASSOCIATE').map((e) => e.type).sort(), ['CERT', 'HOST', 'WEB_ENTITY', 'WEB_ENTITY']);
    assert.equal(later.filter((e) => e.type === 'HOST_PORT' && e.operation === 'REMOVE').length, 3);
    // Parts go before the host itself.
    const hostGone = later.findIndex((e) => e.type === 'HOST' && e.operation === 'DISASSOCIATE');
    assert.ok(later.findIndex((e) => e.type === 'HOST_PORT') < hostGone);
    assert.equal(await w.store.asmAssets.count('w1', 'HOST'), 0);
    assert.equal(w.changes.at(-1)?.removed.length, 4);
  });

  it('updates incrementally when new documents arrive, touching only workspaces they concern', async () => {
    await addSeeds(w, 'w1', [{ type: 'DOMAIN_NAME', value: 'example.com' }]);
    await addSeeds(w, 'w2', [{ type: 'CIDR', value: '10.0.0.0/24' }]);
    const before1 = (await events(w, 'w1')).length;
    const before2 = (await events(w, 'w2')).length;
    w.changes.length = 0;
    w.clock.now = new Date('2024-06-03T00:00:00.000Z');

    // A new host named under example.com: w1's business only.
    await w.indexer.put('hosts', [{ id: '192.0.2.30', doc: host('192.0.2.30', { dns: { names: ['new.example.com'] }, services: [http(80)] }), observedAt: T0 }]);
    assert.deepEqual(await ids(w, 'w1', 'HOST'), ['192.0.2.10', '192.0.2.30']);
    assert.equal((await events(w, 'w2')).length, before2);
    assert.deepEqual(w.changes.map((c) => c.workspaceId), ['w1']);
    const added = (await events(w, 'w1')).slice(before1).map((e) => `${e.type} ${e.operation}`);
    assert.ok(added.includes('HOST ASSOCIATE'));
    assert.ok(added.includes('SUBDOMAIN ASSOCIATE'));
    assert.ok(added.includes('DOMAIN_SUBDOMAIN ADD'));
    assert.ok(added.includes('WEB_ENTITY ASSOCIATE'));

    // A port change on a w2 host: HOST_PORT/HOST_PROTOCOL events in w2, associatedAt kept.
    w.changes.length = 0;
    const changed = { ...HOSTS[0], services: [...(HOSTS[0].services as unknown[]), { port: 3306, service_name: 'MYSQL', transport_protocol: 'TCP' }] };
    await w.indexer.put('hosts', [{ id: '10.0.0.1', doc: changed, observedAt: '2024-06-03T00:00:00Z' }]);
    const w2new = (await events(w, 'w2')).slice(before2).map((e) => `${e.type} ${e.operation} ${e.data?.port ?? ''}`);
    assert.deepEqual(w2new, ['HOST_PORT ADD 3306', 'HOST_PROTOCOL ADD 3306']);
    const h = await w.store.asmAssets.get('w2', 'HOST', '10.0.0.1');
    assert.equal(h?.associatedAt, T0);
    assert.equal(h?.updatedAt, '2024-06-03T00:00:00.000Z');
    assert.deepEqual(w.changes.map((c) => [c.workspaceId, c.upserted.map((a) => a.assetId)]), [['w2', ['10.0.0.1']]]);

    // A document that changes without changing the asset row is reported as touched.
    w.changes.length = 0;
    await w.indexer.put('hosts', [{ id: '10.0.0.1', doc: { ...changed, labels: ['x'] }, observedAt: '2024-06-04T00:00:00Z' }]);
    assert.deepEqual(w.changes.map((c) => [c.workspaceId, c.upserted.length, c.touched]), [['w2', 0, [{ type: 'HOST', assetId: '10.0.0.1' }]]]);

    // Unrelated data wakes no workspace.
    w.changes.length = 0;
    await w.indexer.put('hosts', [{ id: '203.0.113.50', doc: host('203.0.113.50', { dns: { names: ['other.net'] } }), observedAt: T0 }]);
    await w.indexer.put('certificates', [{ id: 'd'.repeat(64), doc: { fingerprint_sha256: 'd'.repeat(64), names: ['x.other.net'] }, observedAt: T0 }]);
    assert.deepEqual(w.changes, []);
  });

  it('catches up with data indexed while nobody listened', async () => {
    const ws = await w.store.users.createWorkspace('acme');
    await w.store.users.createWorkspace('unused');
    await w.store.seeds.add(ws.id, [{ type: 'CIDR', value: '10.0.0.0/24', label: '' }], 'API', T0);
    assert.equal(await w.store.asmAssets.count(ws.id, 'HOST'), 0);
    const lines: string[] = [];
    const results = await w.discovery.catchUp((l) => lines.push(l));
    assert.deepEqual(results.map((r) => r.workspaceId), [ws.id]);
    assert.equal(await w.store.asmAssets.count(ws.id, 'HOST'), 2);
    assert.equal(lines.length, 1);
  });

  it('leaves cloud-connector assets alone', async () => {
    await w.store.asmAssets.apply(
      'w1',
      {
        upsert: [{ workspaceId: 'w1', type: 'STORAGE_BUCKET', assetId: 'https://mine.s3.amazonaws.com', isSeed: false, source: 'CLOUD_CONNECTOR', associatedAt: T0, updatedAt: T0, trail: [], cloud: 'Amazon AWS', data: { provider: 'Amazon AWS' } }],
        remove: [],
      },
      [],
    );
    await addSeeds(w, 'w1', [{ type: 'CIDR', value: '10.0.0.0/24' }]);
    assert.deepEqual(await ids(w, 'w1', 'STORAGE_BUCKET'), ['https://acme-assets.s3.amazonaws.com', 'https://mine.s3.amazonaws.com', 'https://storage.googleapis.com/acme-backups']);
  });

  it('runs one evaluation at a time per workspace, joining queued requests', async () => {
    await w.store.seeds.add('w1', [{ type: 'CIDR', value: '10.0.0.0/24', label: '' }], 'API', T0);
    const runs = await Promise.all([w.discovery.evaluate('w1'), w.discovery.evaluate('w1'), w.discovery.evaluate('w1')]);
    // Requests made before the queued run starts join it.
    assert.equal(runs[0], runs[1]);
    assert.equal(runs[1], runs[2]);
    // One that arrives while it runs waits for it, then finds nothing new.
    const running = w.discovery.evaluate('w1');
    await new Promise((r) => setImmediate(r));
    const next = await w.discovery.evaluate('w1');
    await running;
    assert.equal(next.upserted, 0);
    const all = await events(w, 'w1');
    assert.equal(all.filter((e) => e.type === 'HOST' && e.operation === 'ASSOCIATE').length, 2);
  });

  it('updates incrementally to exactly what a full evaluation finds, on random changes', async () => {
    // A small random world under two seeds; documents change in random batches and after each
    // one the stored assets must equal a fresh full evaluation's, for every family.
    // mulberry32: a seeded generator whose low bits are as random as its high ones.
    let state = 12345;
    const rnd = (n: number) => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
    };
    const pick = <T,>(xs: readonly T[]): T => xs[rnd(xs.length)];
    const NAMES = ['a.example.com', 'b.example.com', 'c.b.example.com', 'example.com', 'x.other.org', 'assets-1.s3.amazonaws.com', 'shop.example.com'];
    const CERT_IDS = ['1', '2', '3', '4', '5'].map((c) => c.repeat(64));
    const IPS = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.1.1', '192.0.2.10', '192.0.2.11', '198.51.100.1', '198.51.100.2'];
    const randomHost = (ip: string): Record<string, unknown> => {
      const services = Array.from({ length: rnd(3) }, () => {
        const port = pick([80, 443, 8443, 22]);
        const svc: Record<string, unknown> = { port, service_name: port === 22 ? 'SSH' : 'HTTP', transport_protocol: 'TCP' };
        if (port !== 22 && rnd(2)) svc.certificate = pick(CERT_IDS);
        if (port === 80 && rnd(3) === 0) svc.http = { response: { headers: { Location: ['https://storage.googleapis.com/bkt-' + rnd(2) + '/x'] } } };
        return svc;
      });
      const unique = new Map(services.map((x) => [x.port, x]));
      return {
        ip,
        ...(rnd(3) ? { dns: { names: Array.from({ length: rnd(3) }, () => pick(NAMES)), ...(rnd(2) ? { reverse_dns: { names: [pick(NAMES)] } } : {}) } } : {}),
        autonomous_system: { asn: pick([64500, 64501]) },
        services: [...unique.values()],
      };
    };
    const randomCert = (fp: string) => ({ fingerprint_sha256: fp, names: Array.from({ length: rnd(3) }, () => pick([...NAMES, '*.b.example.com'])) });

    const ws = await w.store.users.createWorkspace('random');
    // A fresh world (the crafted documents are replaced by random ones).
    await w.indexer.put('hosts', IPS.map((ip) => ({ id: ip, doc: randomHost(ip), observedAt: T0 })));
    await w.indexer.put('certificates', CERT_IDS.map((fp) => ({ id: fp, doc: randomCert(fp), observedAt: T0 })));
    await addSeeds(w, ws.id, [{ type: 'CIDR', value: '10.0.0.0/24' }, { type: 'DOMAIN_NAME', value: 'example.com' }, { type: 'ASN', value: '64501' }]);

    const snapshot = async () => {
      const out: Record<string, unknown> = {};
      for (const type of ['HOST', 'CERT', 'DOMAIN', 'SUBDOMAIN', 'WEB_ENTITY', 'STORAGE_BUCKET'] as const) {
        for (const a of (await w.store.asmAssets.list(ws.id, type, { offset: 0, limit: 10_000 })).items) {
          out[`${type} ${a.assetId}`] = { trail: a.trail, data: a.data, cloud: a.cloud, isSeed: a.isSeed, source: a.source };
        }
      }
      return out;
    };
    for (let round = 0; round < 120; round++) {
      const t = new Date(Date.parse(T0) + (round + 1) * 60_000).toISOString();
      if (rnd(3) === 0) {
        const fps = [...new Set([pick(CERT_IDS), pick(CERT_IDS)])];
        await w.indexer.put('certificates', fps.map((fp) => ({ id: fp, doc: randomCert(fp), observedAt: t })));
      } else {
        const ips = [...new Set([pick(IPS), pick(IPS), pick(IPS)].slice(0, 1 + rnd(3)))];
        await w.indexer.put('hosts', ips.map((ip) => ({ id: ip, doc: randomHost(ip), observedAt: t })));
      }
      const incremental = await snapshot();
      const before = (await events(w, ws.id)).length;
      const full = await w.discovery.evaluate(ws.id);
      assert.deepEqual(await snapshot(), incremental, `round ${round}: a full evaluation changed nothing`);
      assert.equal(full.upserted + full.removed, 0, `round ${round}`);
      assert.equal((await events(w, ws.id)).length, before);
    }
  });
});
