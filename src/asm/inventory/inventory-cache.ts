/**
 * Inventory engines kept for the pages of a paging loop. A request without a cursor (a new
 * search, an aggregate) always builds from the store, so it sees everything written before it;
 * a request with a cursor continues on the engine its first page built, for up to a minute and
 * while the workspace's logbook has not moved (discovery changed nothing) — so a loop pages one
 * consistent snapshot quickly instead of re-reading thousands of documents per page. Cursors are
 * keyset positions, so a rebuilt engine still continues exactly after the last hit.
 */
import type { AsmContext } from '../asm-context.ts';
import { loadInventory } from './inventory-documents.ts';
import { InventoryEngine } from './inventory-engine.ts';

const MAX_AGE_MS = 60_000;
const MAX_WORKSPACES = 8;

interface Kept {
  readonly engine: InventoryEngine;
  readonly logbookId: number;
  readonly builtAt: number;
}

const byContext = new WeakMap<AsmContext, Map<string, Kept>>();

function keptOf(ctx: AsmContext): Map<string, Kept> {
  let m = byContext.get(ctx);
  if (!m) {
    const map = new Map<string, Kept>();
    // Discovery's changes end every loop's snapshot of that workspace.
    ctx.assetsChanged.subscribe((change) => {
      map.delete(change.workspaceId);
    });
    byContext.set(ctx, map);
    m = map;
  }
  return m;
}

export async function inventoryEngine(ctx: AsmContext, workspaceId: string, continuing: boolean): Promise<InventoryEngine> {
  const kept = keptOf(ctx);
  const logbookId = await ctx.store.asmLogbook.lastId(workspaceId);
  const now = performance.now();
  const k = kept.get(workspaceId);
  if (continuing && k && k.logbookId === logbookId && now - k.builtAt < MAX_AGE_MS) return k.engine;
  const engine = new InventoryEngine(await loadInventory(ctx, workspaceId));
  kept.delete(workspaceId);
  kept.set(workspaceId, { engine, logbookId, builtAt: now });
  // Oldest first in insertion order.
  while (kept.size > MAX_WORKSPACES) kept.delete(kept.keys().next().value as string);
  return engine;
}
