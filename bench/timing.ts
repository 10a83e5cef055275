/** Repeated timing with warm-ups, a run count and a time budget, and the statistics reported. */
export interface Timing {
  readonly runs: number;
  readonly p50: number;
  readonly p99: number;
  readonly min: number;
  readonly max: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  // Nearest rank: with fewer than 100 runs p99 is the maximum, which is what a reader expects.
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export function summarize(samples: readonly number[]): Timing {
  const s = [...samples].sort((a, b) => a - b);
  return { runs: s.length, p50: percentile(s, 50), p99: percentile(s, 99), min: s[0] ?? NaN, max: s[s.length - 1] ?? NaN };
}

export function geomean(values: readonly number[]): number {
  const v = values.filter((x) => Number.isFinite(x) && x > 0);
  if (v.length === 0) return NaN;
  return Math.exp(v.reduce((s, x) => s + Math.log(x), 0) / v.length);
}

export interface TimeOptions {
  readonly warmups: number;
  readonly runs: number;
  readonly budgetMs: number;
}

const MIN_RUNS = 3;

/** Times `fn` (sync or async); warm-ups and runs both stop early once the budget is spent. */
export async function time(fn: () => unknown, o: TimeOptions): Promise<Timing> {
  const started = performance.now();
  for (let i = 0; i < o.warmups && performance.now() - started < o.budgetMs / 4; i++) await fn();
  const samples: number[] = [];
  const timedStart = performance.now();
  for (let i = 0; i < o.runs; i++) {
    if (i >= MIN_RUNS && performance.now() - timedStart > o.budgetMs) break;
    const t = performance.now();
    const r = fn();
    if (r instanceof Promise) await r;
    samples.push(performance.now() - t);
  }
  return summarize(samples);
}
