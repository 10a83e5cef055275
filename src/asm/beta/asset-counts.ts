/**
 * `GET /beta/assets/counts` and `/beta/assets/hostCountsByCountry` (contract §2B.10). Environments
 * split assets by cloud: CLOUD (a provider is known), OTHER (none), SHARED (shared hosting; not
 * told apart yet, always 0); ALL is their sum. Under CLOUD, sub-environments are the providers.
 * "New" means associated on or after `since` (default: seven days ago).
 */
import type { Asset, AssetType } from '../../model/asm-asset.ts';
import { fail, ok, type Result } from '../../lib/problem.ts';
import type { AsmContext } from '../asm-context.ts';
import { cloudResolver } from '../clouds/cloud-counts.ts';
import { parseSinceTime } from '../clouds/since-date.ts';

export type Environment = 'ALL' | 'CLOUD' | 'OTHER' | 'SHARED';
export const ENVIRONMENTS: readonly Environment[] = ['ALL', 'CLOUD', 'OTHER', 'SHARED'];
export const COUNTED_TYPES = ['CERT', 'DOMAIN', 'HOST', 'SOFTWARE', 'STORAGE_BUCKET', 'SUBDOMAIN'] as const;
export type CountedType = (typeof COUNTED_TYPES)[number];

const ALL = { offset: 0, limit: 1_000_000 };
const DEFAULT_WINDOW_MS = 7 * 24 * 3600 * 1000;

/** One countable thing: an asset, or a piece of software seen on hosts. */
interface Item {
  readonly cloud: string | null;
  readonly associatedAt: string;
  readonly host?: Asset;
}

function since(ctx: AsmContext, text: string | undefined): Result<string> {
  if (text === undefined || text === '') return ok(new Date(ctx.now().getTime() - DEFAULT_WINDOW_MS).toISOString());
  return parseSinceTime(text);
}

function environment(text: string | undefined): Result<Environment> {
  const env = (text ?? 'ALL') as Environment;
  return ENVIRONMENTS.includes(env) ? ok(env) : fail('invalid_request', `environment must be one of ${ENVIRONMENTS.join(', ')}`);
}

function inEnv(env: Environment, item: Item): boolean {
  return env === 'ALL' || (env === 'CLOUD' ? item.cloud !== null : env === 'OTHER' ? item.cloud === null : false);
}

/** Sub-environment names an item counts under within `env`. */
function subEnvOf(env: Environment, item: Item): string | undefined {
  if (env === 'ALL') return item.cloud ? 'CLOUD' : 'OTHER';
  if (env === 'CLOUD') return item.cloud ?? undefined;
  return env === 'OTHER' && !item.cloud ? 'OTHER' : undefined;
}

function subEnvsOf(env: Environment, items: readonly Item[]): string[] {
  if (env === 'ALL') return ['CLOUD', 'OTHER', 'SHARED'];
  if (env === 'CLOUD') return [...new Set(items.map((i) => i.cloud).filter((c): c is string => c !== null))].sort();
  return env === 'OTHER' ? ['OTHER'] : [];
}

async function itemsOf(ctx: AsmContext, workspaceId: string, type: CountedType): Promise<Item[]> {
  if (type !== 'SOFTWARE') {
    const assets = (await ctx.store.asmAssets.list(workspaceId, type as AssetType, ALL)).items;
    const cloudOf = await cloudResolver(ctx, workspaceId, type as AssetType);
    return assets.map((a) => ({ cloud: cloudOf(a), associatedAt: a.associatedAt, host: a }));
  }
  // A piece of software (by CPE URI) counts once per environment; it is as new as the earliest host running it.
  const bySoftware = new Map<string, Item[]>();
  for (const h of (await ctx.store.asmAssets.list(workspaceId, 'HOST', ALL)).items) {
    const ports = Array.isArray(h.data.ports) ? (h.data.ports as { software?: unknown }[]) : [];
    const uris = new Set(ports.flatMap((p) => (Array.isArray(p.software) ? p.software.filter((s): s is string => typeof s === 'string') : [])));
    for (const uri of uris) {
      const list = bySoftware.get(uri) ?? [];
      list.push({ cloud: h.cloud, associatedAt: h.associatedAt });
      bySoftware.set(uri, list);
    }
  }
  const out: Item[] = [];
  for (const list of bySoftware.values()) {
    for (const cloud of new Set(list.map((i) => i.cloud))) {
      const first = list.filter((i) => i.cloud === cloud).map((i) => i.associatedAt).sort()[0];
      out.push({ cloud, associatedAt: first });
    }
  }
  return out;
}

interface Header {
  environment: Environment;
  newAssetsSince: string;
  requestCompleteTime: string;
  totalCount: number;
  totalNewCount: number;
}

export async function assetCounts(
  ctx: AsmContext,
  workspaceId: string,
  input: { since?: string; environment?: string; assetType?: string },
): Promise<Result<Header & { totalCountsBySubEnvironment: { environment: string; totalCount: number; totalNewCount: number }[] }>> {
  const from = since(ctx, input.since);
  if (!from.ok) return from;
  const env = environment(input.environment);
  if (!env.ok) return env;
  if (!(COUNTED_TYPES as readonly string[]).includes(input.assetType ?? '')) return fail('invalid_request', `assetType must be one of ${COUNTED_TYPES.join(', ')}`);
  const items = (await itemsOf(ctx, workspaceId, input.assetType as CountedType)).filter((i) => inEnv(env.value, i));
  const subs = new Map(subEnvsOf(env.value, items).map((e) => [e, { environment: e, totalCount: 0, totalNewCount: 0 }]));
  let total = 0;
  let fresh = 0;
  for (const i of items) {
    const isNew = i.associatedAt >= from.value;
    total++;
    if (isNew) fresh++;
    const sub = subs.get(subEnvOf(env.value, i) ?? '');
    if (sub) {
      sub.totalCount++;
      if (isNew) sub.totalNewCount++;
    }
  }
  return ok({
    environment: env.value,
    newAssetsSince: from.value,
    requestCompleteTime: ctx.now().toISOString(),
    totalCount: total,
    totalNewCount: fresh,
    totalCountsBySubEnvironment: [...subs.values()],
  });
}

interface CountryCount {
  country: string;
  countryCode: string;
  totalCount: number;
  totalNewCount: number;
}

export async function hostCountsByCountry(
  ctx: AsmContext,
  workspaceId: string,
  input: { since?: string; environment?: string },
): Promise<Result<Header & { totalCountsBySubEnvironment: { environment: string; totalCountsByCountry: CountryCount[] }[] }>> {
  const from = since(ctx, input.since);
  if (!from.ok) return from;
  const env = environment(input.environment);
  if (!env.ok) return env;
  const items = (await itemsOf(ctx, workspaceId, 'HOST')).filter((i) => inEnv(env.value, i));
  const docs = new Map(
    (await ctx.store.documents.getMany('hosts', items.map((i) => i.host!.assetId))).map((d) => [d.id, d.doc as { location?: { country?: unknown; country_code?: unknown } }]),
  );
  const subs = new Map(subEnvsOf(env.value, items).map((e) => [e, new Map<string, CountryCount>()]));
  let total = 0;
  let fresh = 0;
  for (const i of items) {
    const isNew = i.associatedAt >= from.value;
    total++;
    if (isNew) fresh++;
    const byCountry = subs.get(subEnvOf(env.value, i) ?? '');
    if (!byCountry) continue;
    const loc = docs.get(i.host!.assetId)?.location;
    const code = typeof loc?.country_code === 'string' ? loc.country_code : '';
    const name = typeof loc?.country === 'string' ? loc.country : code ? code : 'Unknown';
    const c = byCountry.get(code) ?? { country: name, countryCode: code, totalCount: 0, totalNewCount: 0 };
    c.totalCount++;
    if (isNew) c.totalNewCount++;
    byCountry.set(code, c);
  }
  return ok({
    environment: env.value,
    newAssetsSince: from.value,
    requestCompleteTime: ctx.now().toISOString(),
    totalCount: total,
    totalNewCount: fresh,
    totalCountsBySubEnvironment: [...subs].map(([environment, m]) => ({
      environment,
      totalCountsByCountry: [...m.values()].sort((a, b) => b.totalCount - a.totalCount || (a.countryCode < b.countryCode ? -1 : 1)),
    })),
  });
}
