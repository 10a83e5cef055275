/**
 * `/v1/clouds/...` (contract §2B.5): a workspace's assets counted by cloud provider, and how many
 * of them discovery first associated on or after a day ("new").
 *
 * Hosts carry their provider (from the enrichment's cloud ranges). Domains and subdomains are in
 * the cloud of the hosts their name resolves to; buckets in their provider's. Known and unknown
 * hosts: a host is known when it lies in the address space the workspace declared (an IP, CIDR or
 * ASN seed); hosts found only through names (DNS of a domain seed, certificates) are unknown —
 * the cloud machines a team did not list.
 */
import type { Asset, AssetType } from '../../model/asm-asset.ts';
import { ok, type Result } from '../../lib/problem.ts';
import type { AsmContext } from '../asm-context.ts';
import { parseSinceDay } from './since-date.ts';

const ALL = { offset: 0, limit: 1_000_000 };

export interface ProviderCount {
  cloudProvider: string;
  assetCount: number;
  newAssetCount: number;
}

export interface CloudCounts {
  totalAssetCount: number;
  totalNewAssetCount: number;
  totalCloudAssetCount: number;
  totalCloudNewAssetCount: number;
  assetCountByProvider: ProviderCount[];
}

export type CountedFamily = 'hosts' | 'domains' | 'subdomains' | 'objectStores';

const FAMILY_TYPE: Readonly<Record<CountedFamily, AssetType>> = {
  hosts: 'HOST',
  domains: 'DOMAIN',
  subdomains: 'SUBDOMAIN',
  objectStores: 'STORAGE_BUCKET',
};

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Provider of each name some cloud host of the workspace answers to. */
async function cloudByName(ctx: AsmContext, workspaceId: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const h of (await ctx.store.asmAssets.list(workspaceId, 'HOST', ALL)).items) {
    if (!h.cloud) continue;
    for (const n of strings(h.data.names)) if (!out.has(n.toLowerCase())) out.set(n.toLowerCase(), h.cloud);
  }
  return out;
}

/** The provider an asset counts under, or null outside any cloud. */
export async function cloudResolver(ctx: AsmContext, workspaceId: string, type: AssetType): Promise<(a: Asset) => string | null> {
  if (type === 'HOST' || type === 'STORAGE_BUCKET') return (a) => a.cloud ?? (typeof a.data.provider === 'string' ? a.data.provider : null);
  if (type !== 'DOMAIN' && type !== 'SUBDOMAIN') return (a) => a.cloud;
  const byName = await cloudByName(ctx, workspaceId);
  return (a) => a.cloud ?? byName.get(a.assetId.toLowerCase()) ?? null;
}

export function countByProvider(assets: readonly Asset[], cloudOf: (a: Asset) => string | null, since: string): CloudCounts {
  const providers = new Map<string, ProviderCount>();
  const counts: CloudCounts = { totalAssetCount: 0, totalNewAssetCount: 0, totalCloudAssetCount: 0, totalCloudNewAssetCount: 0, assetCountByProvider: [] };
  for (const a of assets) {
    const isNew = a.associatedAt >= since;
    counts.totalAssetCount++;
    if (isNew) counts.totalNewAssetCount++;
    const cloud = cloudOf(a);
    if (!cloud) continue;
    counts.totalCloudAssetCount++;
    if (isNew) counts.totalCloudNewAssetCount++;
    const p = providers.get(cloud) ?? { cloudProvider: cloud, assetCount: 0, newAssetCount: 0 };
    p.assetCount++;
    if (isNew) p.newAssetCount++;
    providers.set(cloud, p);
  }
  counts.assetCountByProvider = [...providers.values()].sort((a, b) => b.assetCount - a.assetCount || (a.cloudProvider < b.cloudProvider ? -1 : 1));
  return counts;
}

export async function cloudCounts(
  ctx: AsmContext,
  workspaceId: string,
  family: CountedFamily,
  sinceDay: string,
  options: { readonly source?: string } = {},
): Promise<Result<CloudCounts>> {
  const since = parseSinceDay(sinceDay);
  if (!since.ok) return since;
  const type = FAMILY_TYPE[family];
  let assets = (await ctx.store.asmAssets.list(workspaceId, type, ALL)).items;
  if (options.source) assets = assets.filter((a) => a.source === options.source);
  return ok(countByProvider(assets, await cloudResolver(ctx, workspaceId, type), since.value));
}

export interface UnknownCounts {
  totalKnownCount: number;
  totalUnknownCount: number;
  totalKnownCloudCount: number;
  totalUnknownCloudCount: number;
  countByProvider: { cloudProvider: string; knownCount: number; unknownCount: number }[];
}

const DECLARED = new Set(['IP_ADDRESS', 'CIDR', 'ASN']);

/** Known: reached from an IP, CIDR or ASN seed (its trail starts there, or it is such a seed). */
export function isKnownHost(a: Asset): boolean {
  return a.trail.length === 0 ? a.isSeed || a.source === 'Seed' : DECLARED.has(a.trail[0].type);
}

export async function unknownCounts(ctx: AsmContext, workspaceId: string): Promise<UnknownCounts> {
  const hosts = (await ctx.store.asmAssets.list(workspaceId, 'HOST', ALL)).items;
  const out: UnknownCounts = { totalKnownCount: 0, totalUnknownCount: 0, totalKnownCloudCount: 0, totalUnknownCloudCount: 0, countByProvider: [] };
  const providers = new Map<string, { cloudProvider: string; knownCount: number; unknownCount: number }>();
  for (const h of hosts) {
    const known = isKnownHost(h);
    if (known) out.totalKnownCount++;
    else out.totalUnknownCount++;
    if (!h.cloud) continue;
    if (known) out.totalKnownCloudCount++;
    else out.totalUnknownCloudCount++;
    const p = providers.get(h.cloud) ?? { cloudProvider: h.cloud, knownCount: 0, unknownCount: 0 };
    if (known) p.knownCount++;
    else p.unknownCount++;
    providers.set(h.cloud, p);
  }
  out.countByProvider = [...providers.values()].sort((a, b) => (a.cloudProvider < b.cloudProvider ? -1 : 1));
  return out;
}
