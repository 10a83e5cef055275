/**
 * Stored assets against freshly computed ones: what to write and which logbook events tell of it.
 *
 * Cascade rule (our choice; the contract leaves it open): an associated HOST also reports ADD
 * events for each of its ports, protocols, software and certificates, and a disassociated one
 * reports their REMOVE events before its DISASSOCIATE; likewise a DOMAIN's subdomains
 * (DOMAIN_SUBDOMAIN ADD/REMOVE). So replaying ADD/REMOVE events alone rebuilds each asset's parts.
 *
 * Assets added by a cloud connector (source CLOUD_CONNECTOR) are not discovery's: they are
 * never removed here.
 */
import type { Asset, AssetType, LogbookEventType, NewLogbookEvent } from '../../model/asm-asset.ts';
import { assetKey, type ComputedAsset, type HostPort } from './compute-assets.ts';

export interface AssetDiff {
  readonly upsert: Asset[];
  readonly remove: { type: AssetType; assetId: string }[];
  readonly events: NewLogbookEvent[];
}

/** Sources discovery owns (and may remove). */
export const DISCOVERY_SOURCES: ReadonlySet<string> = new Set(['Seed', 'CENSYS_SCAN']);

const ASSOCIATION_EVENT: Record<AssetType, LogbookEventType> = {
  HOST: 'HOST',
  CERT: 'CERT',
  DOMAIN: 'DOMAIN',
  SUBDOMAIN: 'SUBDOMAIN',
  WEB_ENTITY: 'WEB_ENTITY',
  STORAGE_BUCKET: 'OBJECT_STORAGE',
};

/** The logbook entity of an asset (contract §2B.4: `{ipAddress}`, `{sha256}`, `{domain}`...). */
export function entityOf(type: AssetType, assetId: string, data: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  switch (type) {
    case 'HOST':
      return { ipAddress: assetId };
    case 'CERT':
      return { sha256: assetId };
    case 'DOMAIN':
      return { domain: assetId };
    case 'SUBDOMAIN':
      return typeof data.domain === 'string' ? { subdomain: assetId, domain: data.domain } : { subdomain: assetId };
    case 'WEB_ENTITY': {
      const i = assetId.lastIndexOf(':');
      return { name: assetId.slice(0, i), port: Number(assetId.slice(i + 1)) };
    }
    case 'STORAGE_BUCKET':
      return { bucketUrl: assetId };
  }
}

function same(a: unknown, b: unknown): boolean {
  return stable(a) === stable(b);
}

function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** CPE 2.3 fields, for HOST_SOFTWARE data. */
export function softwareData(uri: string): Record<string, unknown> {
  const parts = uri.startsWith('cpe:2.3:') ? uri.split(':') : [];
  const f = (i: number) => (parts[i] && parts[i] !== '*' && parts[i] !== '-' ? parts[i] : undefined);
  const part = f(2);
  const vendor = f(3);
  const product = f(4);
  const version = f(5);
  return {
    softwareUri: uri,
    softwareName: [product, version].filter(Boolean).join(' ') || uri,
    ...(part ? { softwarePart: part === 'a' ? 'application' : part === 'o' ? 'operating_system' : part === 'h' ? 'hardware' : part } : {}),
    softwareSource: 'CENSYS_SCAN',
    ...(vendor ? { softwareVendor: vendor } : {}),
    ...(product ? { softwareProduct: product } : {}),
    ...(version ? { softwareVersion: version } : {}),
  };
}

function portsOf(data: Readonly<Record<string, unknown>>): HostPort[] {
  return Array.isArray(data.ports) ? (data.ports as HostPort[]) : [];
}

const portKey = (p: HostPort) => `${p.port}/${p.transportProtocol}`;

/** Part events of a host going from `before` to `after` ports (either may be empty). */
export function hostPartEvents(ip: string, before: readonly HostPort[], after: readonly HostPort[], timestamp: string): NewLogbookEvent[] {
  const entity = { ipAddress: ip };
  const out: NewLogbookEvent[] = [];
  const ev = (type: LogbookEventType, operation: NewLogbookEvent['operation'], data: Record<string, unknown>) =>
    out.push({ type, operation, entity, data, timestamp });
  const old = new Map(before.map((p) => [portKey(p), p]));
  const now = new Map(after.map((p) => [portKey(p), p]));
  const base = (p: HostPort) => ({ port: p.port, transportProtocol: p.transportProtocol });
  const removed = (p: HostPort) => {
    for (const s of p.software) ev('HOST_SOFTWARE', 'REMOVE', { ...base(p), ...softwareData(s) });
    for (const c of p.certificates) ev('HOST_CERT', 'REMOVE', { ...base(p), sha256: c });
    ev('HOST_PROTOCOL', 'REMOVE', { ...base(p), protocol: p.protocol });
    ev('HOST_PORT', 'REMOVE', base(p));
  };
  const added = (p: HostPort) => {
    ev('HOST_PORT', 'ADD', base(p));
    ev('HOST_PROTOCOL', 'ADD', { ...base(p), protocol: p.protocol });
    for (const s of p.software) ev('HOST_SOFTWARE', 'ADD', { ...base(p), ...softwareData(s) });
    for (const c of p.certificates) ev('HOST_CERT', 'ADD', { ...base(p), sha256: c });
  };
  for (const [k, p] of old) if (!now.has(k)) removed(p);
  for (const [k, p] of now) {
    const q = old.get(k);
    if (!q) {
      added(p);
      continue;
    }
    if (q.protocol !== p.protocol) ev('HOST_PROTOCOL', 'CHANGE', { ...base(p), protocol: p.protocol, previousProtocol: q.protocol });
    const sw = new Set(p.software);
    const oldSw = new Set(q.software);
    for (const s of q.software) if (!sw.has(s)) ev('HOST_SOFTWARE', 'REMOVE', { ...base(p), ...softwareData(s) });
    for (const s of p.software) if (!oldSw.has(s)) ev('HOST_SOFTWARE', 'ADD', { ...base(p), ...softwareData(s) });
    const certs = new Set(p.certificates);
    const oldCerts = new Set(q.certificates);
    for (const c of q.certificates) if (!certs.has(c)) ev('HOST_CERT', 'REMOVE', { ...base(p), sha256: c });
    for (const c of p.certificates) if (!oldCerts.has(c)) ev('HOST_CERT', 'ADD', { ...base(p), sha256: c });
  }
  return out;
}

function subdomainsOf(data: Readonly<Record<string, unknown>>): string[] {
  return Array.isArray(data.subdomains) ? (data.subdomains as string[]) : [];
}

function domainPartEvents(domain: string, before: readonly string[], after: readonly string[], timestamp: string): NewLogbookEvent[] {
  const a = new Set(after);
  const b = new Set(before);
  return [
    ...before.filter((s) => !a.has(s)).map((subdomain) => ({ type: 'DOMAIN_SUBDOMAIN' as const, operation: 'REMOVE' as const, entity: { domain }, data: { subdomain }, timestamp })),
    ...after.filter((s) => !b.has(s)).map((subdomain) => ({ type: 'DOMAIN_SUBDOMAIN' as const, operation: 'ADD' as const, entity: { domain }, data: { subdomain }, timestamp })),
  ];
}

function partEvents(type: AssetType, assetId: string, before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>, at: string): NewLogbookEvent[] {
  if (type === 'HOST') return hostPartEvents(assetId, portsOf(before), portsOf(after), at);
  if (type === 'DOMAIN') return domainPartEvents(assetId, subdomainsOf(before), subdomainsOf(after), at);
  return [];
}

const ORDER: readonly AssetType[] = ['DOMAIN', 'SUBDOMAIN', 'HOST', 'CERT', 'WEB_ENTITY', 'STORAGE_BUCKET'];

/**
 * `stored`: the workspace's current assets (any source); `computed`: discovery's answer for the
 * part of the workspace being evaluated; `inScope` limits removals to stored assets discovery
 * looked at (all of them for a full evaluation).
 */
export function diffAssets(
  workspaceId: string,
  stored: readonly Asset[],
  computed: ReadonlyMap<string, ComputedAsset>,
  now: string,
  inScope: (a: Asset) => boolean = () => true,
): AssetDiff {
  const diff: AssetDiff = { upsert: [], remove: [], events: [] };
  const byKey = new Map(stored.map((a) => [assetKey(a.type, a.assetId), a]));
  const rank = (t: AssetType) => ORDER.indexOf(t);
  const removals = stored
    .filter((a) => DISCOVERY_SOURCES.has(a.source) && inScope(a) && !computed.has(assetKey(a.type, a.assetId)))
    .sort((a, b) => rank(a.type) - rank(b.type) || (a.assetId < b.assetId ? -1 : 1));
  for (const a of removals) {
    diff.remove.push({ type: a.type, assetId: a.assetId });
    diff.events.push(...partEvents(a.type, a.assetId, a.data, {}, now));
    diff.events.push({ type: ASSOCIATION_EVENT[a.type], operation: 'DISASSOCIATE', entity: entityOf(a.type, a.assetId, a.data), timestamp: now });
  }
  const fresh = [...computed.values()].sort((a, b) => rank(a.type) - rank(b.type) || (a.assetId < b.assetId ? -1 : 1));
  for (const c of fresh) {
    const prev = byKey.get(assetKey(c.type, c.assetId));
    // A cloud-connector asset that discovery also finds stays the connector's.
    if (prev && !DISCOVERY_SOURCES.has(prev.source)) continue;
    if (!prev) {
      diff.upsert.push({ workspaceId, ...c, associatedAt: now, updatedAt: now });
      diff.events.push({ type: ASSOCIATION_EVENT[c.type], operation: 'ASSOCIATE', entity: entityOf(c.type, c.assetId, c.data), timestamp: now });
      diff.events.push(...partEvents(c.type, c.assetId, {}, c.data, now));
      continue;
    }
    if (prev.isSeed === c.isSeed && prev.source === c.source && prev.cloud === c.cloud && same(prev.trail, c.trail) && same(prev.data, c.data)) continue;
    diff.upsert.push({ workspaceId, ...c, associatedAt: prev.associatedAt, updatedAt: now });
    diff.events.push(...partEvents(c.type, c.assetId, prev.data, c.data, now));
  }
  return diff;
}
