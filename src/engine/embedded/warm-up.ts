/**
 * Builds ahead, in the background, the derived query structures (docs/ARCHITECTURE.md, "Engine
 * query structures") that the first query of a kind would otherwise build on the event loop
 * after a restart: at 1M hosts the first banner phrase spent 29 s tokenising every banner while
 * every other request waited. Each structure is advanced a bounded number of values per call,
 * in slices of about SLICE_MS separated by setImmediate, so requests interleave. A query
 * arriving first finishes the remaining build itself, as without warming: answers never depend
 * on how far the warm-up got.
 *
 * Only what the common queries read is warmed (memory is bounded by what queries touch): the
 * combined full-text term tables (bare terms), the typed view, sorted order and units in value
 * order of range fields (a CIDR on `ip`), and the token index with adjacent pairs and the value
 * → unit map of phrase fields (`services.banner`). Decoding a slot's block stays one call.
 */
import type { FieldCatalogue, IndexName } from '../../model/field-def.ts';
import type { IndexData } from './index-data.ts';
import { rangeUnits } from './range-units.ts';
import type { Slot } from './slot.ts';
import { ValueUnits } from './value-units.ts';

/** Advances one structure by at most `budget` values (steps that cannot be split ignore it); true when done. */
export type WarmStep = (budget: number) => boolean;

/**
 * Fields warmed per index, by what their queries need: ranges over mostly distinct values (CIDRs
 * on `ip` slice the units in value order), phrases over text (banner phrases).
 */
const HOT: Record<IndexName, { readonly ranges: readonly string[]; readonly phrases: readonly string[] }> = {
  hosts: { ranges: ['ip'], phrases: ['services.banner'] },
  certificates: { ranges: [], phrases: [] },
};

/** Time one slice aims at: short enough for a request not to notice, long enough to make progress. */
const SLICE_MS = 15;
const FIRST_BUDGET = 256;

function slotOf(data: IndexData, path: string): Slot | undefined {
  return data.slotAt(path)?.slot;
}

/**
 * The warm-up of one index. `data` is read at every step, since the engine may replace an index
 * (a rebuild after a damaged segment); a slot missing from it has nothing to warm.
 */
export function warmSteps(index: IndexName, catalogue: FieldCatalogue, data: () => IndexData): WarmStep[] {
  const steps: WarmStep[] = [
    (budget) => data().fulltext.tokens.load(budget),
    (budget) => data().fulltext.keywords.load(budget),
  ];
  for (const path of HOT[index].ranges) {
    const type = catalogue.get(path)?.type;
    if (type === undefined) continue;
    steps.push((budget) => slotOf(data(), path)?.warmView(type, budget) ?? true);
    steps.push(() => {
      const slot = slotOf(data(), path);
      if (slot) {
        const view = slot.view(type);
        view.groupRank();
        rangeUnits(slot, view).catchUp(slot);
      }
      return true;
    });
  }
  for (const path of HOT[index].phrases) {
    steps.push((budget) => slotOf(data(), path)?.warmTokens(budget) ?? true);
    steps.push(() => {
      const slot = slotOf(data(), path);
      if (slot) ValueUnits.forSlot(slot);
      return true;
    });
  }
  return steps;
}

/**
 * Runs `steps` in order, one call per turn of the event loop (never in the caller's turn), each
 * given the number of values that should take about SLICE_MS at the step's rate so far; stops
 * early when `stopped()`. `run` wraps each call (the engine's handling of damaged segments).
 */
export async function runWarmSteps(steps: readonly WarmStep[], stopped: () => boolean, run: (f: () => boolean) => boolean = (f) => f()): Promise<void> {
  for (const step of steps) {
    let budget = FIRST_BUDGET;
    /** Values per ms, averaged: single calls vary several-fold (a posting flush, a collection, a busy core). */
    let rate: number | undefined;
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (stopped()) return;
      const start = performance.now();
      const done = run(() => step(budget));
      const ms = performance.now() - start;
      if (done) break;
      const measured = budget / Math.max(ms, 0.1);
      rate = rate === undefined ? measured : (rate + measured) / 2;
      // Growing at most 2x per call: a fast call is not yet a rate.
      budget = Math.max(1, Math.min(budget * 2, Math.round(rate * SLICE_MS)));
    }
  }
}
