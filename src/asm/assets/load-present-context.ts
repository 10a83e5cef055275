/**
 * Loads what a page of assets is presented with, in a few batched reads: tags, comment counts,
 * risks, and the host/certificate documents the family's shape draws on.
 */
import type { Asset, AssetType } from '../../model/asm-asset.ts';
import type { AsmContext } from '../asm-context.ts';
import { openRisksByAsset } from './asset-risks.ts';
import type { PresentContext } from './present-assets.ts';

type Json = Record<string, unknown>;

export interface PresentTarget {
  readonly baseUrl: string;
  readonly collectionUrl: string;
  readonly includeTrail: boolean;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** IPs whose host documents a family's shape reads. */
function hostIdsOf(type: AssetType, assets: readonly Asset[]): string[] {
  switch (type) {
    case 'HOST':
      return assets.map((a) => a.assetId);
    case 'CERT':
      return assets.flatMap((a) =>
        (Array.isArray(a.data.hosts) ? a.data.hosts : []).map((h) => (h && typeof h === 'object' ? (h as Json).ip : undefined)).filter((ip): ip is string => typeof ip === 'string'),
      );
    case 'SUBDOMAIN':
      return assets.flatMap((a) => strings(a.data.resolvedHosts));
    case 'WEB_ENTITY':
      return assets.flatMap((a) => strings(a.data.hosts));
    default:
      return [];
  }
}

async function documents(ctx: AsmContext, index: 'hosts' | 'certificates', ids: readonly string[]): Promise<Map<string, Json>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const docs = await ctx.store.documents.getMany(index, unique);
  return new Map(docs.map((d) => [d.id, d.doc]));
}

export async function loadPresentContext(
  ctx: AsmContext,
  workspaceId: string,
  type: AssetType,
  assets: readonly Asset[],
  target: PresentTarget,
  /** Host documents beyond the assets' own (web-entity instances of one page). */
  extraHostIds: readonly string[] = [],
): Promise<PresentContext> {
  const ids = assets.map((a) => a.assetId);
  const [tags, commentCounts, risks, hostDocs, certDocs, seeds] = await Promise.all([
    ctx.store.asmAnnotations.tagsOf(workspaceId, type, ids),
    ctx.store.asmAnnotations.commentCounts(workspaceId, type, ids),
    openRisksByAsset(ctx, workspaceId, assets),
    documents(ctx, 'hosts', [...hostIdsOf(type, assets), ...extraHostIds]),
    type === 'CERT' ? documents(ctx, 'certificates', ids) : Promise.resolve(new Map<string, Json>()),
    type === 'CERT' ? ctx.store.seeds.list(workspaceId, { type: 'DOMAIN_NAME' }) : Promise.resolve([]),
  ]);
  return {
    ...target,
    now: ctx.now(),
    tags,
    commentCounts,
    risks,
    hostDocs,
    certDocs,
    seedDomains: seeds.map((s) => s.value),
  };
}
