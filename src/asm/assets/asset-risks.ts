/**
 * The open risks an asset shows in its `risks` array (contract §2B.3): the shape asm-risks gives
 * (`openRisksOf`), cut to the spec's keys — `HOST_RISK` items carry port and transportProtocol;
 * `CERT_RISK`, `DOMAIN_RISK` and `STORAGE_BUCKET_RISK` items do not.
 */
import type { Asset } from '../../model/asm-asset.ts';
import type { AsmContext } from '../asm-context.ts';
import { openRisksOf, type AssetRisk } from '../risks/index.ts';

export type AssetRiskView = Readonly<Record<string, unknown>>;

/** Families risk evaluation covers (subdomains and web entities carry no risks of their own). */
const RISKY = new Set(['HOST', 'CERT', 'DOMAIN', 'STORAGE_BUCKET']);

export function presentAssetRisk(r: AssetRisk): AssetRiskView {
  return {
    type: r.type,
    ...(r.port !== undefined ? { port: r.port, transportProtocol: r.transportProtocol ?? 'TCP' } : {}),
    name: r.name,
    title: r.title,
    severity: r.severity,
    categories: [...r.categories],
  };
}

/**
 * Open risks of each given asset, by assetId (assets without risks are absent). One query finds
 * which assets of the page have any; only those are read in full.
 */
export async function openRisksByAsset(ctx: AsmContext, workspaceId: string, assets: readonly Asset[]): Promise<Map<string, AssetRiskView[]>> {
  const out = new Map<string, AssetRiskView[]>();
  if (assets.length === 0) return out;
  const type = assets[0]!.type;
  if (!RISKY.has(type)) return out;
  const open = await ctx.store.asmRisks.listInstances(workspaceId, { assetType: type, assetIds: assets.map((a) => a.assetId), status: 'open' });
  const withRisks = [...new Set(open.map((i) => i.assetId))];
  const lists = await Promise.all(withRisks.map((id) => openRisksOf(ctx, workspaceId, type, id)));
  withRisks.forEach((id, i) => {
    const risks = lists[i]!;
    if (risks.length > 0) out.set(id, risks.map(presentAssetRisk));
  });
  return out;
}
