/**
 * Keeps risks in step with discovery: every AssetsChanged announcement re-evaluates exactly the
 * assets it names (upserted, touched) and resolves the risks of the removed ones. Some risks
 * change with time alone (a certificate expires with no new scan), so every workspace is also
 * re-evaluated periodically.
 */
import type { Asset } from '../../model/asm-asset.ts';
import type { AsmContext } from '../asm-context.ts';
import type { AssetsChange } from '../assets-changed.ts';
import { EVALUATED_TYPES, evaluateAssets, evaluateWorkspace, type EvaluationCounts } from './evaluate-risks.ts';

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

/** Re-evaluates every workspace that has hosts, certificates or buckets; returns how many. */
export async function evaluateAllWorkspaces(ctx: AsmContext): Promise<number> {
  let n = 0;
  for (const ws of await ctx.store.users.listWorkspaces()) {
    let any = false;
    for (const type of EVALUATED_TYPES) if (!any && (await ctx.store.asmAssets.count(ws.id, type)) > 0) any = true;
    if (!any && (await ctx.store.asmRisks.listInstances(ws.id, { status: 'open' })).length === 0) continue;
    await evaluateWorkspace(ctx, ws.id);
    n++;
  }
  return n;
}

export interface RiskEvaluationOptions {
  /** How often every workspace is re-evaluated, in ms; 0 never (default: hourly). */
  readonly refreshMs?: number;
}

const HOUR = 3_600_000;

/** Subscribes risk evaluation to `ctx.assetsChanged` and starts the periodic refresh; the returned function stops both. */
export function subscribeRiskEvaluation(ctx: AsmContext, options: RiskEvaluationOptions = {}): () => void {
  const unsubscribe = ctx.assetsChanged.subscribe(async (change) => {
    await evaluateChange(ctx, change);
  });
  const every = options.refreshMs ?? HOUR;
  let running = false;
  const timer =
    every > 0
      ? setInterval(() => {
          // A refresh still running when the next is due is not doubled.
          if (running) return;
          running = true;
          evaluateAllWorkspaces(ctx)
            .catch((err: unknown) => ctx.reportError?.(err))
            .finally(() => (running = false));
        }, every)
      : undefined;
  // The refresh never keeps a process alive on its own.
  timer?.unref();
  return () => {
    unsubscribe();
    if (timer) clearInterval(timer);
  };
}
