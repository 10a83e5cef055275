/**
 * A workspace's assets computed from its seeds against the indexes (contract §2B, issue 5):
 * - IP / CIDR / ASN seeds → the hosts in them; the certificates those hosts present.
 * - DOMAIN_NAME seeds → the DOMAIN; SUBDOMAINs from host DNS and reverse-DNS names and certificate
 *   names under it; the hosts those names resolve to (hosts whose `dns.names` hold the name); the
 *   certificates naming the domain or its subdomains.
 * - WEB_ENTITY: `name:port` of each HTTP(S) service of an in-scope host, for each in-scope name
 *   that resolves to it, or `ip:port` when no in-scope name does.
 * - STORAGE_BUCKET: bucket endpoints among in-scope names and in redirect targets and page
 *   bodies of in-scope hosts' HTTP services.
 * Every asset keeps the shortest trail back to a seed; a seed asset's trail is empty.
 */
import type { AssetType, TrailStep } from '../../model/asm-asset.ts';
import type { Seed } from '../../store/store.ts';
import { addressTrail, cleanName, domainOf, seedScope } from './seed-scope.ts';
import type { DiscoveryIndex, Doc } from './discovery-index.ts';
import { bucketOfName, bucketsInText, type BucketEndpoint } from './bucket-endpoints.ts';
import { headerValues } from '../risks/service-view.ts';

/** An asset as discovery sees it, before association times are attached. */
export interface ComputedAsset {
  readonly type: AssetType;
  readonly assetId: string;
  readonly isSeed: boolean;
  readonly source: string;
  readonly trail: readonly TrailStep[];
  readonly cloud: string | null;
  readonly data: Readonly<Record<string, unknown>>;
}

export const assetKey = (type: AssetType, assetId: string): string => `${type}\u0000${assetId}`;

export interface HostPort {
  readonly port: number;
  readonly transportProtocol: string;
  readonly protocol: string;
  readonly software: readonly string[];
  readonly certificates: readonly string[];
}

type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const sorted = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();

function names(doc: Doc, path: 'dns.names' | 'dns.reverse_dns.names'): string[] {
  const dns = obj(doc.dns);
  const list = path === 'dns.names' ? dns?.names : obj(dns?.reverse_dns)?.names;
  return sorted(arr(list).flatMap((n) => cleanName(n) ?? []));
}

function certNames(doc: Doc | undefined): string[] {
  if (!doc) return [];
  return sorted(arr(doc.names).flatMap((n) => (typeof n === 'string' ? [n.toLowerCase()] : [])));
}

function softwareUri(entry: unknown): string | undefined {
  const e = obj(entry);
  if (!e) return undefined;
  if (typeof e.uniform_resource_identifier === 'string') return e.uniform_resource_identifier;
  if (typeof e.product !== 'string') return undefined;
  const part = typeof e.part === 'string' ? e.part : 'a';
  const f = (v: unknown) => (typeof v === 'string' && v !== '' ? v : '*');
  return `cpe:2.3:${part}:${f(e.vendor)}:${e.product}:${f(e.version)}:*:*:*:*:*:*:*`;
}

function isHttp(svc: Obj): boolean {
  const name = String(svc.service_name ?? '').toUpperCase();
  const ext = String(svc.extended_service_name ?? '').toUpperCase();
  return name === 'HTTP' || ext === 'HTTP' || ext === 'HTTPS' || obj(svc.http) !== undefined;
}

function isTls(svc: Obj): boolean {
  return String(svc.extended_service_name ?? '').toUpperCase() === 'HTTPS' || obj(svc.tls) !== undefined || typeof svc.certificate === 'string';
}

function services(doc: Doc): Obj[] {
  return arr(doc.services).flatMap((s): Obj[] => {
    const o = obj(s);
    return o ? [o] : [];
  });
}

export function hostPorts(doc: Doc): HostPort[] {
  const out: HostPort[] = [];
  for (const s of services(doc)) {
    if (typeof s.port !== 'number') continue;
    out.push({
      port: s.port,
      transportProtocol: String(s.transport_protocol ?? 'TCP').toUpperCase(),
      protocol: String(s.extended_service_name ?? s.service_name ?? 'UNKNOWN'),
      software: sorted(arr(s.software).flatMap((e) => softwareUri(e) ?? [])),
      certificates: typeof s.certificate === 'string' ? [s.certificate.toLowerCase()] : [],
    });
  }
  return out.sort((a, b) => a.port - b.port || (a.transportProtocol < b.transportProtocol ? -1 : a.transportProtocol > b.transportProtocol ? 1 : 0));
}

function asnOf(doc: Doc): number | undefined {
  const asn = obj(doc.autonomous_system)?.asn;
  return typeof asn === 'number' ? asn : undefined;
}

function cloudOf(doc: Doc): string | null {
  const p = obj(doc.cloud)?.provider;
  return typeof p === 'string' && p !== '' ? p : null;
}

/** Buckets a host shows: among its DNS and reverse-DNS names, in redirects and page bodies. */
export function bucketsOfHostDoc(doc: Doc): BucketEndpoint[] {
  const out: BucketEndpoint[] = [];
  for (const n of [...names(doc, 'dns.names'), ...names(doc, 'dns.reverse_dns.names')]) {
    const b = bucketOfName(n);
    if (b) out.push(b);
  }
  for (const s of services(doc)) {
    if (!isHttp(s)) continue;
    for (const loc of headerValues(s as Parameters<typeof headerValues>[0], 'location')) out.push(...bucketsInText(loc));
    const body = obj(obj(s.http)?.response)?.body;
    if (typeof body === 'string') out.push(...bucketsInText(body.slice(0, 200_000)));
  }
  return out;
}

const step = (type: TrailStep['type'], assetId: string, isSeed = false): TrailStep => ({ type, assetId, isSeed });

/**
 * Orders trails: shorter first, then by their text. Total and independent of the order candidates
 * are found in, so a full and an incremental evaluation pick the same trail.
 */
export function compareTrails(a: readonly TrailStep[], b: readonly TrailStep[]): number {
  if (a.length !== b.length) return a.length - b.length;
  const x = trailText(a);
  const y = trailText(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function trailText(t: readonly TrailStep[]): string {
  return t.map((s) => `${s.type}\u0000${s.assetId}\u0000${s.isSeed ? 1 : 0}`).join('\u0001');
}

function shortest(trails: readonly (readonly TrailStep[])[]): readonly TrailStep[] {
  return [...trails].sort(compareTrails)[0];
}

/** Collects candidates for each asset and keeps the one with the first trail in compareTrails order. */
class Collector {
  readonly assets = new Map<string, ComputedAsset>();

  offer(asset: ComputedAsset): void {
    const key = assetKey(asset.type, asset.assetId);
    const prev = this.assets.get(key);
    if (!prev || compareTrails(asset.trail, prev.trail) < 0) this.assets.set(key, asset);
  }

  trailOf(type: AssetType, id: string): readonly TrailStep[] | undefined {
    return this.assets.get(assetKey(type, id))?.trail;
  }
}

/** Trail to a name under a domain seed: the seed, then the name itself when it is not the seed. */
function nameTrail(domain: string, name: string): TrailStep[] {
  return name === domain ? [step('DOMAIN_NAME', domain, true)] : [step('DOMAIN_NAME', domain, true), step('DOMAIN_NAME', name)];
}

/** What an evaluation found, with what an incremental one needs besides the assets. */
export interface Computation {
  readonly assets: Map<string, ComputedAsset>;
  /** Hosts that gave the workspace a name (DNS or reverse DNS) without being in it themselves. */
  readonly nameHosts: Set<string>;
}

/**
 * The universe: which documents to look at. Absent, every document the seeds select (a full
 * evaluation); given, only those (an incremental one — see incremental.ts for which of the
 * results are then exact).
 */
export interface Universe {
  readonly hosts: Iterable<string>;
  readonly certs: Iterable<string>;
  /** Workspace hosts outside the universe presenting its certificates, with their trails. */
  readonly outsidePresenters?: ReadonlyMap<string, readonly { ip: string; port: number; trail: readonly TrailStep[] }[]>;
}

export async function computeAssets(seeds: readonly Seed[], index: DiscoveryIndex, universe?: Universe): Promise<Computation> {
  const scope = seedScope(seeds);
  const out = new Collector();
  const nameHosts = new Set<string>();

  const hostIds = new Set<string>();
  const certIds = new Set<string>();
  if (universe) {
    for (const h of universe.hosts) hostIds.add(h);
    for (const c of universe.certs) certIds.add(c);
  } else {
    // 1. Hosts by address: IP, CIDR and ASN seeds.
    for (const s of seeds) {
      if (s.type === 'IP_ADDRESS' || s.type === 'CIDR') for (const id of index.ids('hosts', index.addressQuery(s.value))) hostIds.add(id);
      else if (s.type === 'ASN') for (const id of index.ids('hosts', index.asnQuery(Number(s.value)))) hostIds.add(id);
    }
    // 2. Hosts and certificates by name: domain seeds.
    for (const d of scope.domains) {
      for (const id of index.ids('hosts', index.hostNamesQuery(d))) hostIds.add(id);
      for (const id of index.ids('certificates', index.certNamesQuery(d))) certIds.add(id);
    }
  }
  const hosts = await index.documents('hosts', [...hostIds]);

  // Subdomains, with the hosts resolving to them; names seen only in reverse DNS resolve to none.
  const subdomains = new Map<string, { domain: string; resolvedHosts: Set<string>; reverseHosts: Set<string> }>();
  const addName = (name: string, ip?: string, reverse = false) => {
    const domain = domainOf(scope, name);
    if (!domain) return undefined;
    if (name !== domain) {
      let sub = subdomains.get(name);
      if (!sub) subdomains.set(name, (sub = { domain, resolvedHosts: new Set(), reverseHosts: new Set() }));
      if (ip) (reverse ? sub.reverseHosts : sub.resolvedHosts).add(ip);
    }
    return domain;
  };

  const hostNamesInScope = new Map<string, string[]>();
  for (const [ip, doc] of [...hosts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const dnsNames = names(doc, 'dns.names');
    const inScope: string[] = [];
    const trails: TrailStep[][] = [];
    const byAddress = addressTrail(scope, ip, asnOf(doc));
    if (byAddress) trails.push(byAddress);
    for (const n of dnsNames) {
      const d = addName(n, ip);
      if (d) {
        inScope.push(n);
        trails.push(nameTrail(d, n));
      }
    }
    for (const n of names(doc, 'dns.reverse_dns.names')) if (addName(n, ip, true)) nameHosts.add(ip);
    // A host named only by reverse DNS is not one the names resolve to.
    if (trails.length === 0) continue;
    hostNamesInScope.set(ip, inScope);
    out.offer({
      type: 'HOST',
      assetId: ip,
      isSeed: scope.ipSeeds.has(ip),
      source: scope.ipSeeds.has(ip) ? 'Seed' : 'CENSYS_SCAN',
      trail: shortest(trails),
      cloud: cloudOf(doc),
      data: { ports: hostPorts(doc), names: dnsNames },
    });
  }

  // 3. Certificates: presented by in-scope hosts, or naming in-scope names.
  const presenters = new Map<string, { ip: string; port: number }[]>();
  for (const ip of hostNamesInScope.keys()) {
    for (const p of hostPorts(hosts.get(ip)!)) {
      for (const fp of p.certificates) {
        let list = presenters.get(fp);
        if (!list) presenters.set(fp, (list = []));
        list.push({ ip, port: p.port });
        certIds.add(fp);
      }
    }
  }
  for (const [fp, outside] of universe?.outsidePresenters ?? []) {
    let list = presenters.get(fp);
    if (!list) presenters.set(fp, (list = []));
    for (const o of outside) list.push({ ip: o.ip, port: o.port });
  }
  const certs = await index.documents('certificates', [...certIds]);
  for (const fp of [...certIds].sort()) {
    const doc = certs.get(fp);
    const certNameList = certNames(doc);
    const trails: (readonly TrailStep[])[] = [];
    for (const h of presenters.get(fp) ?? []) {
      const hostTrail = out.trailOf('HOST', h.ip);
      if (hostTrail) trails.push([...hostTrail, step('IP_ADDRESS', h.ip)]);
    }
    for (const o of universe?.outsidePresenters?.get(fp) ?? []) trails.push([...o.trail, step('IP_ADDRESS', o.ip)]);
    presenters.get(fp)?.sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : a.port - b.port));
    for (const n of certNameList) {
      const clean = cleanName(n.replace(/^\*\./, ''));
      if (!clean) continue;
      const d = addName(clean);
      if (d) trails.push(nameTrail(d, clean));
    }
    if (trails.length === 0) continue;
    out.offer({
      type: 'CERT',
      assetId: fp,
      isSeed: false,
      source: 'CENSYS_SCAN',
      trail: shortest(trails),
      cloud: null,
      data: { hosts: presenters.get(fp) ?? [], names: certNameList },
    });
  }

  // 4. Domains and subdomains.
  for (const d of scope.domains) {
    const subs = sorted([...subdomains].filter(([, s]) => s.domain === d).map(([n]) => n));
    out.offer({ type: 'DOMAIN', assetId: d, isSeed: true, source: 'Seed', trail: [], cloud: null, data: { subdomains: subs } });
  }
  for (const [name, s] of subdomains) {
    out.offer({
      type: 'SUBDOMAIN',
      assetId: name,
      isSeed: false,
      source: 'CENSYS_SCAN',
      trail: [step('DOMAIN_NAME', s.domain, true)],
      cloud: null,
      data: { domain: s.domain, resolvedHosts: sorted(s.resolvedHosts), ...(s.reverseHosts.size > 0 ? { reverseHosts: sorted(s.reverseHosts) } : {}) },
    });
  }

  // 5. Web entities.
  const web = new Map<string, { name: string; port: number; hosts: Set<string>; scheme: string; trail: readonly TrailStep[] }>();
  for (const [ip, inScope] of hostNamesInScope) {
    const doc = hosts.get(ip)!;
    const hostTrail = out.trailOf('HOST', ip)!;
    for (const s of services(doc)) {
      if (typeof s.port !== 'number' || !isHttp(s)) continue;
      const scheme = isTls(s) ? 'https' : 'http';
      const targets: { name: string; trail: readonly TrailStep[] }[] =
        inScope.length > 0
          ? inScope.map((n) => ({ name: n, trail: nameTrail(domainOf(scope, n)!, n) }))
          : [{ name: ip, trail: [...hostTrail, step('IP_ADDRESS', ip)] }];
      for (const t of targets) {
        const id = `${t.name}:${s.port}`;
        let w = web.get(id);
        if (!w) web.set(id, (w = { name: t.name, port: s.port, hosts: new Set(), scheme, trail: t.trail }));
        w.hosts.add(ip);
        if (scheme === 'https') w.scheme = 'https';
      }
    }
  }
  for (const [id, w] of web) {
    out.offer({
      type: 'WEB_ENTITY',
      assetId: id,
      isSeed: false,
      source: 'CENSYS_SCAN',
      trail: w.trail,
      cloud: null,
      data: { name: w.name, port: w.port, hosts: sorted(w.hosts), scheme: w.scheme },
    });
  }

  // 6. Storage buckets, each with the workspace assets it was seen on (`seenOn`).
  const buckets = new Map<string, { endpoint: BucketEndpoint; sources: Map<string, readonly TrailStep[]> }>();
  const seen = (b: BucketEndpoint, source: string, trail: readonly TrailStep[]) => {
    let entry = buckets.get(b.url);
    if (!entry) buckets.set(b.url, (entry = { endpoint: b, sources: new Map() }));
    entry.sources.set(source, trail);
  };
  for (const ip of hostNamesInScope.keys()) {
    const doc = hosts.get(ip)!;
    const trail = [...out.trailOf('HOST', ip)!, step('IP_ADDRESS', ip)];
    for (const b of bucketsOfHostDoc(doc)) seen(b, ip, trail);
  }
  for (const a of [...out.assets.values()].filter((x) => x.type === 'CERT')) {
    for (const b of bucketsOfCert(a.data)) seen(b, a.assetId, [...a.trail, step('CERT_SHA_256', a.assetId)]);
  }
  for (const { endpoint, sources } of buckets.values()) out.offer(bucketAsset(endpoint, sources));
  return { assets: out.assets, nameHosts };
}



/** Buckets among a certificate asset's names. */
export function bucketsOfCert(data: Readonly<Record<string, unknown>>): BucketEndpoint[] {
  const out: BucketEndpoint[] = [];
  for (const n of Array.isArray(data.names) ? (data.names as string[]) : []) {
    const b = bucketOfName(n);
    if (b) out.push(b);
  }
  return out;
}

/** A bucket asset from every source (host IP or certificate SHA-256) it was seen on, with that source's trail. */
export function bucketAsset(b: BucketEndpoint, sources: ReadonlyMap<string, readonly TrailStep[]>): ComputedAsset {
  return {
    type: 'STORAGE_BUCKET',
    assetId: b.url,
    isSeed: false,
    source: 'CENSYS_SCAN',
    trail: shortest([...sources.values()]),
    cloud: b.provider,
    data: { provider: b.provider, bucket: b.bucket, ...(b.accountId ? { accountId: b.accountId } : {}), seenOn: sorted(sources.keys()) },
  };
}
