/**
 * The open risks an asset shows in its `risks` array (contract §2B.3: HOST_RISK items carry port
 * and transportProtocol; CERT_RISK, DOMAIN_RISK and STORAGE_BUCKET_RISK items do not).
 *
 * TODO(asm-risks): read the workspace's open risk instances once src/asm/risks/ exports a lookup
 * by asset; until then every asset shows `risks: []`. This is the one place to change.
 */
import type { Asset } from '../../model/asm-asset.ts';
import type { AsmContext } from '../asm-context.ts';

export type AssetRiskView = Readonly<Record<string, unknown>>;

/** Open risks of each given asset, by assetId (assets without risks may be absent). */
export async function openRisksByAsset(_ctx: AsmContext, _workspaceId: string, _assets: readonly Asset[]): Promise<Map<string, AssetRiskView[]>> {
  return new Map();
}
