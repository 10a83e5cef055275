/**
 * The open risks of one asset, in the short form asset presenters embed (`risks` of a host,
 * certificate, domain or bucket asset): `HOST_RISK` entries carry the port they are on.
 */
import type { AsmContext } from '../asm-context.ts';
import { effectiveTypes } from './effective-types.ts';
import { effectiveSeverity } from './present-risks.ts';

export interface AssetRisk {
  readonly type: 'HOST_RISK' | 'CERT_RISK' | 'DOMAIN_RISK' | 'STORAGE_BUCKET_RISK';
  readonly port?: number;
  readonly transportProtocol?: string;
  /** The risk type's name. */
  readonly name: string;
  /** The instance's title, naming the place (`Exposed RDP on 1.2.3.4:3389`). */
  readonly title: string;
  readonly severity: string;
  readonly categories: readonly string[];
  /** The instance (GET /v2/risk-instances/{id}) and its type. */
  readonly id: number;
  readonly riskType: string;
}

const KIND: Readonly<Record<string, AssetRisk['type']>> = {
  HOST: 'HOST_RISK',
  CERT: 'CERT_RISK',
  DOMAIN: 'DOMAIN_RISK',
  STORAGE_BUCKET: 'STORAGE_BUCKET_RISK',
};

export async function openRisksOf(ctx: AsmContext, workspaceId: string, assetType: string, assetId: string): Promise<AssetRisk[]> {
  return (await openRisksOfMany(ctx, workspaceId, assetType, [assetId])).get(assetId) ?? [];
}

/** The open risks of many assets of one family in two queries, by asset id (assets without risks are absent). */
export async function openRisksOfMany(ctx: AsmContext, workspaceId: string, assetType: string, assetIds: readonly string[]): Promise<Map<string, AssetRisk[]>> {
  const out = new Map<string, AssetRisk[]>();
  const kind = KIND[assetType];
  if (!kind || assetIds.length === 0) return out;
  const instances = await ctx.store.asmRisks.listInstances(workspaceId, { assetType, assetIds, status: 'open' });
  if (instances.length === 0) return out;
  const types = effectiveTypes(await ctx.store.asmRisks.typeSettings(workspaceId));
  for (const i of instances) {
    const t = types.get(i.typeId);
    const port = i.context.port;
    const list = out.get(i.assetId) ?? [];
    list.push({
      type: kind,
      ...(typeof port === 'number' ? { port, transportProtocol: typeof i.context.transportProtocol === 'string' ? i.context.transportProtocol : 'TCP' } : {}),
      name: t?.catalogue.name ?? i.typeId,
      title: i.title,
      severity: effectiveSeverity(i),
      categories: i.categories ?? t?.categories ?? [],
      id: i.id,
      riskType: i.typeId,
    });
    out.set(i.assetId, list);
  }
  return out;
}
