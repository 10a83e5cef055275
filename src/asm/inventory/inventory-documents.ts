/**
 * A workspace's assets as inventory documents: one JSON document per asset with the family's
 * payload under its prefix (`host` is the host's Search document, `cert` the certificate's) and
 * the fields every asset has (`type`, `source`, `tags`, `risks`, ...). Queries, sorting, `fields`
 * and aggregations all read these, so a hit shows exactly what was searched.
 */
import type { Asset, AssetType } from '../../model/asm-asset.ts';
import type { AsmContext } from '../asm-context.ts';
import { ipKey } from '../../lib/ip.ts';
import { riskTypeById } from '../risks/risk-types.ts';
import { FAMILY_PREFIX, type InventoryHitType } from './inventory-catalogue.ts';

export type InventoryDocument = Record<string, unknown>;

export interface InventoryEntry {
  /** Unique within the inventory; its order (family, then address or id) is the default hit order. */
  readonly key: string;
  readonly type: InventoryHitType;
  readonly asset: Asset;
  readonly doc: InventoryDocument;
}

/** Family order of hits without a sort, and the hit type of each asset family (subdomains are domains). */
const FAMILIES: readonly { readonly type: AssetType; readonly hit: InventoryHitType; readonly rank: number }[] = [
  { type: 'HOST', hit: 'HOST', rank: 0 },
  { type: 'DOMAIN', hit: 'DOMAIN', rank: 1 },
  { type: 'SUBDOMAIN', hit: 'DOMAIN', rank: 1 },
  { type: 'CERT', hit: 'CERT', rank: 2 },
  { type: 'WEB_ENTITY', hit: 'WEB_ENTITY', rank: 3 },
  { type: 'STORAGE_BUCKET', hit: 'STORAGE_BUCKET', rank: 4 },
];

// Everything of a workspace is read at once; beyond this many assets per family the inventory
// would need its own index (docs/ARCHITECTURE.md).
const MAX_PER_FAMILY = 1_000_000;

interface RiskSummary {
  readonly type: string;
  readonly name: string;
  readonly severity: string;
  readonly categories: readonly string[];
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function payload(asset: Asset, docs: { hosts: Map<string, Record<string, unknown>>; certs: Map<string, Record<string, unknown>> }): Record<string, unknown> {
  const d = asset.data;
  switch (asset.type) {
    case 'HOST':
      return docs.hosts.get(asset.assetId) ?? { ip: asset.assetId };
    case 'CERT':
      return docs.certs.get(asset.assetId) ?? { fingerprint_sha256: asset.assetId };
    case 'DOMAIN':
      return { name: asset.assetId, is_subdomain: false, subdomains: strings(d.subdomains) };
    case 'SUBDOMAIN': {
      const parent = typeof d.domain === 'string' ? d.domain : undefined;
      return { name: asset.assetId, is_subdomain: true, ...(parent ? { parent_domain: parent } : {}), resolved_ips: strings(d.resolvedHosts) };
    }
    case 'WEB_ENTITY':
      return {
        name: asset.assetId,
        ...(typeof d.name === 'string' ? { hostname: d.name } : {}),
        ...(typeof d.port === 'number' ? { port: d.port } : {}),
        ...(typeof d.scheme === 'string' ? { scheme: d.scheme } : {}),
        ips: strings(d.hosts),
      };
    case 'STORAGE_BUCKET': {
      let name: string | undefined;
      try {
        name = new URL(asset.assetId).hostname.split('.')[0] || undefined;
      } catch {
        name = undefined;
      }
      return {
        url: asset.assetId,
        ...(typeof d.bucket === 'string' ? { name: d.bucket } : name ? { name } : {}),
        ...(typeof d.provider === 'string' ? { provider: d.provider } : {}),
        ...(typeof d.accountId === 'string' ? { account_id: d.accountId } : {}),
        source: asset.source,
      };
    }
  }
}

function orderKey(asset: Asset): string {
  return asset.type === 'HOST' ? ipKey(asset.assetId) ?? asset.assetId : asset.assetId.toLowerCase();
}

async function openRisks(ctx: AsmContext, workspaceId: string): Promise<Map<string, RiskSummary[]>> {
  const out = new Map<string, RiskSummary[]>();
  for (const r of await ctx.store.asmRisks.listInstances(workspaceId, { status: 'open' })) {
    const t = riskTypeById(r.typeId);
    const key = `${r.assetType}\u0000${r.assetId}`;
    const list = out.get(key) ?? [];
    list.push({
      type: r.typeId,
      name: t?.name ?? r.typeId,
      severity: r.severityOverride ?? r.severity,
      categories: r.categories ?? t?.defaultCategories.flat() ?? [],
    });
    out.set(key, list);
  }
  return out;
}

/**
 * The evaluator finds the elements of a nested root as a top-level key of the document
 * (model/values-of.ts `elementsOf`), while field values are read by walking the path. Host
 * services are therefore also reachable under the literal key `host.services` (the same array),
 * which hits never show (`publicDocument`).
 */
export const NESTED_SERVICES = 'host.services';

/** The document as hits show it. */
export function publicDocument(doc: InventoryDocument): InventoryDocument {
  if (!(NESTED_SERVICES in doc)) return doc;
  const { [NESTED_SERVICES]: _, ...rest } = doc;
  return rest;
}

/** Every asset of the workspace as an inventory entry, in default hit order. */
export async function loadInventory(ctx: AsmContext, workspaceId: string): Promise<InventoryEntry[]> {
  const store = ctx.store;
  const assets: Asset[] = [];
  for (const f of FAMILIES) {
    assets.push(...(await store.asmAssets.list(workspaceId, f.type, { offset: 0, limit: MAX_PER_FAMILY })).items);
  }
  const hostIds = assets.filter((a) => a.type === 'HOST').map((a) => a.assetId);
  const certIds = assets.filter((a) => a.type === 'CERT').map((a) => a.assetId);
  const [hostDocs, certDocs, risks] = await Promise.all([
    store.documents.getMany('hosts', hostIds),
    store.documents.getMany('certificates', certIds),
    openRisks(ctx, workspaceId),
  ]);
  const docs = {
    hosts: new Map(hostDocs.map((d) => [d.id, d.doc])),
    certs: new Map(certDocs.map((d) => [d.id, d.doc])),
  };
  const tags = new Map<string, string[]>();
  for (const f of FAMILIES) {
    const ids = assets.filter((a) => a.type === f.type).map((a) => a.assetId);
    if (ids.length === 0) continue;
    for (const [id, list] of await store.asmAnnotations.tagsOf(workspaceId, f.type, ids)) {
      tags.set(`${f.type}\u0000${id}`, list.map((t) => t.label));
    }
  }
  const rank = new Map(FAMILIES.map((f) => [f.type, f]));
  const entries = assets.map((asset): InventoryEntry => {
    const fam = rank.get(asset.type)!;
    const id = `${asset.type}\u0000${asset.assetId}`;
    // Certificates and subdomains report risks under their asset type; subdomains have none of their own.
    const riskList = risks.get(id) ?? [];
    const doc: InventoryDocument = {
      type: fam.hit,
      asset_id: asset.assetId,
      source: asset.source,
      is_seed: asset.isSeed,
      associated_at: asset.associatedAt,
      ...(asset.cloud ? { cloud: asset.cloud } : {}),
      tags: tags.get(id) ?? [],
      risks: riskList,
      [FAMILY_PREFIX[fam.hit]]: payload(asset, docs),
    };
    const services = fam.hit === 'HOST' ? (doc.host as Record<string, unknown>).services : undefined;
    if (Array.isArray(services)) doc[NESTED_SERVICES] = services;
    return { key: `${fam.rank}:${orderKey(asset)}:${asset.type}`, type: fam.hit, asset, doc };
  });
  return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
