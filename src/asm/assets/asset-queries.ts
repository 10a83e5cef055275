/**
 * Reading a workspace's assets (contract §2B.3): paged lists with tag and source filters, one
 * asset, the subdomains of a domain, and the instances of a web entity. Every read is scoped to
 * the caller's workspace; another workspace's asset is simply not found.
 */
import type { Asset, AssetType } from '../../model/asm-asset.ts';
import { fail, ok, type Result } from '../../lib/problem.ts';
import type { AssetListFilter } from '../../store/store.ts';
import type { AsmContext } from '../asm-context.ts';
import { FAMILIES, normaliseName, type AssetFamily } from './asset-families.ts';
import { pageInfo, pageWindow, parsePage } from './asset-page.ts';
import { loadPresentContext, type PresentTarget } from './load-present-context.ts';
import {
  domainOfSubdomain,
  presentCertificate,
  presentDomain,
  presentHost,
  presentInstance,
  presentStorage,
  presentStorageItem,
  presentSubdomain,
  presentSubdomainItem,
  presentWebEntity,
  webEntityHosts,
  type PresentContext,
} from './present-assets.ts';

type Json = Record<string, unknown>;

export const TAG_OPERATORS = ['is', 'is not', 'contains', 'not contains'] as const;
export type TagOperator = (typeof TAG_OPERATORS)[number];

export interface AssetListQuery {
  readonly pageNumber?: string;
  readonly pageSize?: string;
  readonly tag?: readonly string[];
  readonly tagOperator?: string;
  readonly source?: readonly string[];
  readonly discoveryTrail?: boolean;
}

/** An asset as a path names it; `domain` is set on the 2.1.9 `/domains/{d}/subdomains/{sub}` paths. */
export interface AssetAddress {
  readonly family: AssetFamily;
  readonly rawId: string;
  readonly domain?: string;
}

type Presenter = (asset: Asset, pc: PresentContext) => Json;

const LIST_PRESENTERS: Readonly<Record<AssetType, Presenter>> = {
  HOST: presentHost,
  CERT: presentCertificate,
  DOMAIN: presentDomain,
  SUBDOMAIN: presentSubdomainItem,
  WEB_ENTITY: presentWebEntity,
  STORAGE_BUCKET: presentStorageItem,
};

const GET_PRESENTERS: Readonly<Record<AssetType, Presenter>> = {
  ...LIST_PRESENTERS,
  SUBDOMAIN: presentSubdomain,
  STORAGE_BUCKET: presentStorage,
};

const SOURCES: Readonly<Record<string, string>> = { seed: 'Seed', censys_scan: 'CENSYS_SCAN', cloud_connector: 'CLOUD_CONNECTOR' };

/** Source names as stored, whatever the caller's casing; unknown names are kept (they match nothing). */
function canonicalSources(raw: readonly string[]): string[] {
  return raw.map((s) => SOURCES[s.trim().toLowerCase().replace(/[\s-]+/g, '_')] ?? s);
}

/**
 * The tag part of a list filter: `is`/`contains` keep assets carrying a matching tag, `is not`/
 * `not contains` drop them. Labels compare ignoring case (they are unique that way).
 */
async function tagFilter(ctx: AsmContext, workspaceId: string, type: AssetType, tags: readonly string[], rawOperator: string | undefined): Promise<Result<AssetListFilter>> {
  const operator = (rawOperator ?? 'is').trim().toLowerCase() as TagOperator;
  if (!TAG_OPERATORS.includes(operator)) {
    return fail('invalid_request', `tagOperator must be one of ${TAG_OPERATORS.map((o) => `'${o}'`).join(', ')}, not ${JSON.stringify(rawOperator)}.`);
  }
  const wanted = tags.map((t) => t.toLowerCase());
  const all = await ctx.store.asmAnnotations.listTags(workspaceId);
  const exact = operator === 'is' || operator === 'is not';
  const matching = all.filter((t) => {
    const label = t.label.toLowerCase();
    return wanted.some((w) => (exact ? label === w : label.includes(w)));
  });
  const ids = await ctx.store.asmAnnotations.assetsTagged(workspaceId, type, matching.map((t) => t.tagId));
  return ok(operator === 'is' || operator === 'contains' ? { assetIds: ids } : { excludeIds: ids });
}

function intersect(a: readonly string[] | undefined, b: readonly string[] | undefined): readonly string[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const keep = new Set(b);
  return a.filter((x) => keep.has(x));
}

async function listOf(
  ctx: AsmContext,
  workspaceId: string,
  family: AssetFamily,
  query: AssetListQuery,
  target: PresentTarget,
  only?: readonly string[],
): Promise<Result<Json>> {
  const page = parsePage(query.pageNumber, query.pageSize);
  if (!page.ok) return page;
  let filter: AssetListFilter = only ? { assetIds: only } : {};
  const tags = (query.tag ?? []).filter((t) => t !== '');
  if (tags.length > 0) {
    const byTag = await tagFilter(ctx, workspaceId, family.type, tags, query.tagOperator);
    if (!byTag.ok) return byTag;
    const assetIds = intersect(filter.assetIds, byTag.value.assetIds);
    filter = { ...(assetIds ? { assetIds } : {}), ...(byTag.value.excludeIds ? { excludeIds: byTag.value.excludeIds } : {}) };
  } else if (query.tagOperator !== undefined && query.tagOperator !== '' && !TAG_OPERATORS.includes(query.tagOperator.trim().toLowerCase() as TagOperator)) {
    return fail('invalid_request', `tagOperator must be one of ${TAG_OPERATORS.map((o) => `'${o}'`).join(', ')}.`);
  }
  const sources = (query.source ?? []).filter((s) => s !== '');
  if (sources.length > 0) filter = { ...filter, sources: canonicalSources(sources) };

  const { items, total } = await ctx.store.asmAssets.list(workspaceId, family.type, pageWindow(page.value), filter);
  const info = pageInfo(page.value, total);
  if (!info.ok) return info;
  const pc = await loadPresentContext(ctx, workspaceId, family.type, items, { ...target, includeTrail: query.discoveryTrail === true });
  const present = LIST_PRESENTERS[family.type];
  return ok({ ...info.value, [family.listKey]: items.map((a) => present(a, pc)) });
}

export function listAssets(ctx: AsmContext, workspaceId: string, family: AssetFamily, query: AssetListQuery, target: PresentTarget): Promise<Result<Json>> {
  return listOf(ctx, workspaceId, family, query, target);
}

/** The asset a path names, or the family's error (bad id, not found, not under the path's domain). */
export async function resolveAsset(ctx: AsmContext, workspaceId: string, address: AssetAddress): Promise<Result<Asset>> {
  const { family } = address;
  if (address.domain !== undefined) {
    const domain = await resolveDomain(ctx, workspaceId, address.domain);
    if (!domain.ok) return domain;
  }
  const id = family.parseId(address.rawId);
  if (!id.ok) return id;
  const asset = (await ctx.store.asmAssets.get(workspaceId, family.type, id.value)) ?? (await bucketWithOtherSlash(ctx, workspaceId, family, id.value));
  if (!asset) return family.notFound(id.value);
  if (address.domain !== undefined && !underDomain(asset, normaliseName(address.domain)!)) return family.notFound(id.value);
  return ok(asset);
}

/** `https://b.s3.amazonaws.com` and `https://b.s3.amazonaws.com/` name the same bucket. */
async function bucketWithOtherSlash(ctx: AsmContext, workspaceId: string, family: AssetFamily, id: string): Promise<Asset | undefined> {
  if (family.type !== 'STORAGE_BUCKET') return undefined;
  return ctx.store.asmAssets.get(workspaceId, family.type, id.endsWith('/') ? id.slice(0, -1) : `${id}/`);
}

function underDomain(subdomain: Asset, domain: string): boolean {
  return domainOfSubdomain(subdomain) === domain || subdomain.assetId === domain || subdomain.assetId.endsWith(`.${domain}`);
}

async function resolveDomain(ctx: AsmContext, workspaceId: string, rawDomain: string): Promise<Result<Asset>> {
  const domains = FAMILIES.domains;
  const id = domains.parseId(rawDomain);
  if (!id.ok) return id;
  const domain = await ctx.store.asmAssets.get(workspaceId, 'DOMAIN', id.value);
  return domain ? ok(domain) : domains.notFound(id.value);
}

export async function getAsset(ctx: AsmContext, workspaceId: string, address: AssetAddress, target: PresentTarget): Promise<Result<Json>> {
  const asset = await resolveAsset(ctx, workspaceId, address);
  if (!asset.ok) return asset;
  const pc = await loadPresentContext(ctx, workspaceId, asset.value.type, [asset.value], { ...target, includeTrail: true });
  return ok(GET_PRESENTERS[asset.value.type](asset.value, pc));
}

/**
 * `/v1/assets/domains/{domain}/subdomains`: the subdomains discovery filed under the domain (its
 * `subdomains` facts, and any subdomain asset whose recorded domain it is).
 */
export async function listDomainSubdomains(
  ctx: AsmContext,
  workspaceId: string,
  rawDomain: string,
  query: AssetListQuery,
  target: PresentTarget,
): Promise<Result<Json>> {
  const domain = await resolveDomain(ctx, workspaceId, rawDomain);
  if (!domain.ok) return domain;
  const page = parsePage(query.pageNumber, query.pageSize);
  if (!page.ok) return page;
  const listed = Array.isArray(domain.value.data.subdomains) ? domain.value.data.subdomains.filter((s): s is string => typeof s === 'string') : [];
  const all = await ctx.store.asmAssets.ids(workspaceId, 'SUBDOMAIN');
  const name = domain.value.assetId;
  const mine = new Set(listed);
  for (const id of all) if (id === name || id.endsWith(`.${name}`)) mine.add(id);
  return listOf(ctx, workspaceId, FAMILIES.subdomains, query, target, [...mine]);
}

// ---------------------------------------------------------------- web-entity instances

export const DEFAULT_INSTANCE_PAGE_SIZE = 100;
export const MAX_INSTANCE_PAGE_SIZE = 1000;

function encodeCursor(afterIp: string): string {
  return Buffer.from(JSON.stringify({ after: afterIp }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string | undefined {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    const after = value && typeof value === 'object' ? (value as Json).after : undefined;
    return typeof after === 'string' ? after : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The hosts serving a web entity, a page at a time: `cursor` names the next page and is null on
 * the last one, which ends the client's loop (contract §1.11).
 */
export async function webEntityInstances(
  ctx: AsmContext,
  workspaceId: string,
  rawId: string,
  query: { readonly pageSize?: string; readonly cursor?: string },
  target: PresentTarget,
): Promise<Result<Json>> {
  let pageSize = DEFAULT_INSTANCE_PAGE_SIZE;
  if (query.pageSize !== undefined && query.pageSize !== '' && query.pageSize !== 'None') {
    const n = /^\d{1,7}$/.test(query.pageSize.trim()) ? Number(query.pageSize.trim()) : NaN;
    if (!(n >= 1 && n <= MAX_INSTANCE_PAGE_SIZE)) {
      return fail('invalid_request', `pageSize must be an integer from 1 to ${MAX_INSTANCE_PAGE_SIZE}, not ${JSON.stringify(query.pageSize)}.`, { asmCode: 10050 });
    }
    pageSize = n;
  }
  let after: string | undefined;
  if (query.cursor !== undefined && query.cursor !== '' && query.cursor !== 'None') {
    after = decodeCursor(query.cursor);
    if (after === undefined) return fail('invalid_cursor', `${JSON.stringify(query.cursor)} is not a cursor this endpoint gave out.`);
  }
  const asset = await resolveAsset(ctx, workspaceId, { family: FAMILIES['web-entities'], rawId });
  if (!asset.ok) return asset;
  const hosts = [...new Set(webEntityHosts(asset.value))].sort();
  const start = after === undefined ? 0 : hosts.findIndex((ip) => ip > after);
  const page = start < 0 ? [] : hosts.slice(start, start + pageSize);
  const more = start >= 0 && start + pageSize < hosts.length;
  const pc = await loadPresentContext(ctx, workspaceId, 'WEB_ENTITY', [asset.value], { ...target, includeTrail: false }, page);
  return ok({
    instances: page.map((ip) => presentInstance(asset.value, ip, pc)),
    cursor: more ? encodeCursor(page[page.length - 1]!) : null,
  });
}
