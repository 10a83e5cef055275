const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `7d`, `36h`, `90m`, `1w`, `3600s` (or plain seconds) → milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/i.exec(text);
  if (!m) return undefined;
  const ms = Number(m[1]) * UNITS[(m[2] ?? 's').toLowerCase()];
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}
