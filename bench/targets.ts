/** The targets at 1,000,000 hosts, checked against the figures of a run. */
import { geomean } from './timing.ts';

export interface TargetCheck {
  readonly target: string;
  readonly value: string;
  readonly met: boolean | null;
}

export interface TargetInputs {
  readonly queryP50: ReadonlyMap<string, number>;
  readonly queryGeomean: number;
  /** The same mix timed in the restarted process (bench/periscope-restart.ts), when it ran. */
  readonly restartedQueryP50?: ReadonlyMap<string, number>;
  readonly fastestQueryBaselineGeomean: number | undefined;
  readonly aggGeomean: number;
  readonly fastestAggBaselineGeomean: number | undefined;
  readonly rssBytes: number;
  /** Resident memory once the engine was reopened from its segments. */
  readonly rssAfterRestartBytes?: number;
  /** Resident memory in the loading process once its load was checkpointed and reopened (what a server does). */
  readonly rssAfterReopenBytes?: number;
  /** Time to open the segments (ready to serve). */
  readonly restartMs?: number;
  readonly docsPerSecond: number;
  /** Memory and scale targets only apply at 1,000,000 hosts or more. */
  readonly fullSize: boolean;
}

const ms = (x: number) => `${x.toFixed(3)} ms`;

export function checkTargets(t: TargetInputs): TargetCheck[] {
  const out: TargetCheck[] = [];
  out.push({ target: 'query mix: geometric mean of p50 <= 0.5 ms', value: ms(t.queryGeomean), met: t.queryGeomean <= 0.5 });
  const worst = [...t.queryP50.entries()].filter(([n]) => n !== 'banner-phrase').sort((a, b) => b[1] - a[1])[0];
  if (worst) out.push({ target: 'every query p50 < 5 ms (banner phrase excepted)', value: `worst ${worst[0]} ${ms(worst[1])}`, met: worst[1] < 5 });
  const banner = t.queryP50.get('banner-phrase');
  if (banner !== undefined) out.push({ target: 'banner phrase p50 < 10 ms', value: ms(banner), met: banner < 10 });
  if (t.restartedQueryP50 && t.restartedQueryP50.size > 0) {
    const g = geomean([...t.restartedQueryP50.values()]);
    out.push({ target: 'query mix timed in a restarted process: geometric mean of p50 <= 0.5 ms', value: ms(g), met: g <= 0.5 });
    const rb = t.restartedQueryP50.get('banner-phrase');
    if (rb !== undefined) out.push({ target: 'banner phrase p50 < 10 ms, in a restarted process', value: ms(rb), met: rb < 10 });
  }
  if (t.fastestQueryBaselineGeomean !== undefined) {
    const r = t.fastestQueryBaselineGeomean / t.queryGeomean;
    out.push({ target: 'query mix >= 50x faster than the fastest baseline (geomean p50)', value: `${r.toFixed(1)}x`, met: r >= 50 });
  }
  out.push({ target: 'aggregations: geometric mean of p50 <= 3 ms', value: ms(t.aggGeomean), met: t.aggGeomean <= 3 });
  if (t.fastestAggBaselineGeomean !== undefined) {
    const r = t.fastestAggBaselineGeomean / t.aggGeomean;
    out.push({ target: 'aggregations >= 5x faster than the fastest baseline (geomean p50)', value: `${r.toFixed(1)}x`, met: r >= 5 });
  }
  out.push({ target: 'resident memory after load < 2 GB (at 1M hosts)', value: `${(t.rssBytes / 2 ** 20).toFixed(0)} MB`, met: t.fullSize ? t.rssBytes < 2 * 2 ** 30 : null });
  if (t.rssAfterReopenBytes !== undefined) {
    out.push({ target: 'resident memory with 1M loaded, checkpointed and reopened in the loading process < 2 GB', value: `${(t.rssAfterReopenBytes / 2 ** 20).toFixed(0)} MB`, met: t.fullSize ? t.rssAfterReopenBytes < 2 * 2 ** 30 : null });
  }
  if (t.rssAfterRestartBytes !== undefined) {
    out.push({ target: 'resident memory after a restart < 2 GB (at 1M hosts)', value: `${(t.rssAfterRestartBytes / 2 ** 20).toFixed(0)} MB`, met: t.fullSize ? t.rssAfterRestartBytes < 2 * 2 ** 30 : null });
  }
  if (t.restartMs !== undefined) {
    out.push({ target: 'restart ready to serve < 5 s (at 1M hosts)', value: `${(t.restartMs / 1000).toFixed(2)} s`, met: t.fullSize ? t.restartMs < 5000 : null });
  }
  out.push({ target: 'ingest >= 30,000 docs/s (store + index; here: engine only)', value: `${t.docsPerSecond.toFixed(0)} docs/s`, met: t.docsPerSecond < 30_000 ? false : null });
  return out;
}
