/**
 * Keeps risks in step with discovery: every AssetsChanged announcement re-evaluates exactly the
 * assets it names (upserted, touched) and resolves the risks of the removed ones.
 */
import type { Asset } from '../../model/asm-asset.ts';
import type { AsmContext } from '../asm-context.ts';
import type { AssetsChange } from '../assets-changed.ts';
import { EVALUATED_TYPES, evaluateAssets, type EvaluationCounts } from './evaluate-risks.ts';

export async function evaluateChange(ctx: AsmContext, change: AssetsChange): Promise<EvaluationCounts> {
  const assets: Asset[] = [...change.upserted];
  const have = new Set(assets.map((a) => `${a.type}\u0000${a.assetId}`));
  for (const type of EVALUATED_TYPES) {
    // Touched assets did not change their row; their current row is read to evaluate them.
    const ids = (change.touched ?? []).filter((t) => t.type === type && !have.has(`${t.type}\u0000${t.assetId}`)).map((t) => t.assetId);
    if (ids.length) assets.push(...(await ctx.store.asmAssets.getMany(change.workspaceId, type, ids)));
  }
  return evaluateAssets(ctx, change.workspaceId, { assets, removed: change.removed });
}

/** Subscribes risk evaluation to `ctx.assetsChanged`; the returned function unsubscribes. */
export function subscribeRiskEvaluation(ctx: AsmContext): () => void {
  return ctx.assetsChanged.subscribe(async (change) => {
    await evaluateChange(ctx, change);
  });
}
