/**
 * An incremental evaluation: after some host and certificate documents changed, recompute only
 * the assets they can affect, exactly as a full evaluation would, without reading the rest.
 *
 * From the changed documents (their new versions) and the stored assets (their old effect) it
 * gathers the touched names T (DNS, reverse-DNS and certificate names under a domain seed) and the
 * touched certificates C (changed, presented before or now by a changed host, or naming a name in
 * T). The universe of hosts is the changed ones plus every host named by a name in T; a touched
 * certificate's other presenters are unchanged and come from its stored row (with the stored
 * trails of those hosts). computeAssets over that universe is exact for:
 *   HOST in the universe (a host depends on its own document and the seeds),
 *   CERT in C (presenters inside the universe recomputed, outside it as stored; its names are its own),
 *   SUBDOMAIN in T (every host and certificate naming it is in the universe),
 *   WEB_ENTITY named by a name in T or by the address of a universe host,
 *   DOMAIN of a name in T (its subdomain list = stored ones outside T + recomputed ones in T),
 *   STORAGE_BUCKET seen on a universe host or a certificate in C (sources outside the universe
 *   are unchanged and kept from the stored `seenOn`, with their stored trails).
 * Everything else is left as stored. Trails are chosen in a total order (compareTrails), so the
 * result equals a full evaluation's; discovery.test.ts checks that on random changes.
 */
import type { Asset, AssetType, TrailStep } from '../../model/asm-asset.ts';
import type { AsmAssetRepository, Seed } from '../../store/store.ts';
import { assetKey, bucketAsset, computeAssets, hostPorts, type ComputedAsset } from './compute-assets.ts';
import type { BucketEndpoint } from './bucket-endpoints.ts';
import { DISCOVERY_SOURCES } from './diff-assets.ts';
import type { DiscoveryIndex, Doc } from './discovery-index.ts';
import { cleanName, domainOf, seedScope } from './seed-scope.ts';

export interface Focus {
  readonly hosts: readonly string[];
  readonly certs: readonly string[];
}

export interface IncrementalResult {
  /** The recomputed assets of the determined part. */
  readonly computed: Map<string, ComputedAsset>;
  /** The stored assets of the determined part (what the diff compares against and may remove). */
  readonly stored: Asset[];
  readonly nameHosts: Set<string>;
  /** Sizes, for logs and tests. */
  readonly universe: { readonly hosts: number; readonly certs: number; readonly names: number };
}

const ALL = { offset: 0, limit: 1_000_000_000 };

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function docNames(doc: Doc | undefined): string[] {
  const dns = (doc?.dns ?? {}) as { names?: unknown; reverse_dns?: { names?: unknown } };
  return [...strings(dns.names), ...strings(dns.reverse_dns?.names)];
}

function entityName(webEntityId: string): string {
  return webEntityId.slice(0, webEntityId.lastIndexOf(':'));
}

export async function computeIncremental(
  workspaceId: string,
  seeds: readonly Seed[],
  index: DiscoveryIndex,
  assets: AsmAssetRepository,
  focus: Focus,
): Promise<IncrementalResult> {
  const scope = seedScope(seeds);
  const focusHosts = [...new Set(focus.hosts.filter((id) => !id.includes('+')))];
  const focusCerts = [...new Set(focus.certs)];
  const newHosts = await index.documents('hosts', focusHosts);
  const newCerts = await index.documents('certificates', focusCerts);
  const storedFocusHosts = await assets.getMany(workspaceId, 'HOST', focusHosts);
  const storedFocusCerts = await assets.getMany(workspaceId, 'CERT', focusCerts);
  const storedSubs = scope.domains.length > 0 ? (await assets.list(workspaceId, 'SUBDOMAIN', ALL)).items : [];

  // Touched names.
  const T = new Set<string>();
  const touch = (raw: unknown) => {
    const n = cleanName(typeof raw === 'string' ? raw.replace(/^\*\./, '') : raw);
    if (n !== undefined && domainOf(scope, n) !== undefined) T.add(n);
  };
  for (const doc of newHosts.values()) docNames(doc).forEach(touch);
  for (const a of storedFocusHosts) strings(a.data.names).forEach(touch);
  const focusHostSet = new Set(focusHosts);
  for (const s of storedSubs) if (strings(s.data.reverseHosts).some((h) => focusHostSet.has(h))) T.add(s.assetId);
  for (const doc of newCerts.values()) strings(doc.names).forEach(touch);
  for (const a of storedFocusCerts) strings(a.data.names).forEach(touch);

  // Touched certificates.
  const C = new Set<string>(focusCerts);
  for (const doc of newHosts.values()) for (const p of hostPorts(doc)) p.certificates.forEach((c) => C.add(c));
  for (const a of storedFocusHosts) {
    for (const p of Array.isArray(a.data.ports) ? (a.data.ports as { certificates?: unknown }[]) : []) strings(p.certificates).forEach((c) => C.add(c));
  }
  for (const t of T) for (const c of index.ids('certificates', index.certsNamingQuery(t))) C.add(c);

  // The universe of hosts: the changed ones and every host a touched name names.
  const U = new Set<string>(focusHosts);
  for (const t of T) for (const h of index.ids('hosts', index.hostsNamedExactlyQuery(t))) U.add(h);
  // A touched certificate's other presenters did not change: they come from its stored row, with
  // the trails of their stored host rows, instead of reading their documents.
  const storedC = await assets.getMany(workspaceId, 'CERT', [...C]);
  const outsideRefs = new Map<string, { ip: string; port: number }[]>();
  for (const c of storedC) {
    const refs = (Array.isArray(c.data.hosts) ? (c.data.hosts as { ip: string; port: number }[]) : []).filter((h) => !U.has(h.ip));
    if (refs.length > 0) outsideRefs.set(c.assetId, refs);
  }
  const presenterRows = new Map(
    (await assets.getMany(workspaceId, 'HOST', [...new Set([...outsideRefs.values()].flat().map((h) => h.ip))])).map((h) => [h.assetId, h]),
  );
  const outsidePresenters = new Map<string, { ip: string; port: number; trail: readonly TrailStep[] }[]>();
  for (const [fp, refs] of outsideRefs) {
    outsidePresenters.set(
      fp,
      refs.flatMap((r) => {
        const row = presenterRows.get(r.ip);
        return row ? [{ ip: r.ip, port: r.port, trail: row.trail }] : [];
      }),
    );
  }

  const comp = await computeAssets(seeds, index, { hosts: U, certs: C, outsidePresenters });

  const domainsOfT = new Set([...T].map((t) => domainOf(scope, t)!));
  const determined = (type: AssetType, id: string): boolean => {
    switch (type) {
      case 'HOST':
        return U.has(id);
      case 'CERT':
        return C.has(id);
      case 'SUBDOMAIN':
        return T.has(id);
      case 'DOMAIN':
        return domainsOfT.has(id);
      case 'WEB_ENTITY': {
        const name = entityName(id);
        return T.has(name) || U.has(name);
      }
      case 'STORAGE_BUCKET':
        return false; // decided below
    }
  };

  const computed = new Map<string, ComputedAsset>();
  for (const [k, a] of comp.assets) if (a.type !== 'DOMAIN' && a.type !== 'STORAGE_BUCKET' && determined(a.type, a.assetId)) computed.set(k, a);

  // Stored counterparts of the determined part.
  const stored: Asset[] = [];
  stored.push(...(await assets.getMany(workspaceId, 'HOST', [...U])));
  stored.push(...storedC);
  stored.push(...storedSubs.filter((s) => T.has(s.assetId)));
  const webIds = (await assets.ids(workspaceId, 'WEB_ENTITY')).filter((id) => determined('WEB_ENTITY', id));
  stored.push(...(await assets.getMany(workspaceId, 'WEB_ENTITY', webIds)));

  // Domains: stored subdomains outside T stay, those in T are as recomputed.
  const storedDomains = await assets.getMany(workspaceId, 'DOMAIN', [...domainsOfT]);
  stored.push(...storedDomains);
  for (const d of domainsOfT) {
    const subs = new Set(
      storedSubs.filter((s) => DISCOVERY_SOURCES.has(s.source) && s.data.domain === d && !T.has(s.assetId)).map((s) => s.assetId),
    );
    for (const a of computed.values()) if (a.type === 'SUBDOMAIN' && a.data.domain === d) subs.add(a.assetId);
    const full = comp.assets.get(assetKey('DOMAIN', d));
    if (full) computed.set(assetKey('DOMAIN', d), { ...full, data: { ...full.data, subdomains: [...subs].sort() } });
  }

  // Buckets seen on the universe: sources inside it as recomputed, outside it as stored.
  const inside = (source: string) => U.has(source) || C.has(source);
  // Cloud-connector buckets are loaded too: the diff must see them to leave them alone.
  const storedBuckets = (await assets.list(workspaceId, 'STORAGE_BUCKET', ALL)).items;
  const affected = new Map<string, { endpoint: BucketEndpoint; sources: Map<string, readonly TrailStep[]> }>();
  const endpointOf = (url: string, data: Readonly<Record<string, unknown>>): BucketEndpoint => ({
    url,
    provider: data.provider as BucketEndpoint['provider'],
    bucket: String(data.bucket ?? ''),
    ...(typeof data.accountId === 'string' ? { accountId: data.accountId } : {}),
  });
  for (const a of comp.assets.values()) {
    if (a.type !== 'STORAGE_BUCKET') continue;
    const mine = strings(a.data.seenOn).filter(inside);
    if (mine.length === 0) continue;
    const entry = { endpoint: endpointOf(a.assetId, a.data), sources: new Map<string, readonly TrailStep[]>() };
    for (const s of mine) {
      const src = comp.assets.get(assetKey('HOST', s)) ?? comp.assets.get(assetKey('CERT', s));
      if (src) entry.sources.set(s, [...src.trail, { type: src.type === 'HOST' ? 'IP_ADDRESS' : 'CERT_SHA_256', assetId: s, isSeed: false }]);
    }
    affected.set(a.assetId, entry);
  }
  const outsideSources = new Map<string, string[]>();
  for (const b of storedBuckets) {
    const seenOn = strings(b.data.seenOn);
    if (!seenOn.some(inside) && !affected.has(b.assetId)) continue;
    stored.push(b);
    if (!affected.has(b.assetId)) affected.set(b.assetId, { endpoint: endpointOf(b.assetId, b.data), sources: new Map() });
    outsideSources.set(b.assetId, seenOn.filter((s) => !inside(s)));
  }
  const outsideIds = [...new Set([...outsideSources.values()].flat())];
  const outsideHosts = new Map((await assets.getMany(workspaceId, 'HOST', outsideIds)).map((a) => [a.assetId, a]));
  const outsideCerts = new Map((await assets.getMany(workspaceId, 'CERT', outsideIds)).map((a) => [a.assetId, a]));
  for (const [url, entry] of affected) {
    for (const s of outsideSources.get(url) ?? []) {
      const h = outsideHosts.get(s);
      const c = outsideCerts.get(s);
      if (h) entry.sources.set(s, [...h.trail, { type: 'IP_ADDRESS', assetId: s, isSeed: false }]);
      else if (c) entry.sources.set(s, [...c.trail, { type: 'CERT_SHA_256', assetId: s, isSeed: false }]);
    }
    if (entry.sources.size > 0) computed.set(assetKey('STORAGE_BUCKET', url), bucketAsset(entry.endpoint, entry.sources));
  }

  return { computed, stored, nameHosts: comp.nameHosts, universe: { hosts: U.size, certs: C.size, names: T.size } };
}
