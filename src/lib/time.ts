/** Timestamps: RFC 3339 in, RFC 3339 (UTC, milliseconds) out. */

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Epoch milliseconds of a UTC date and time (month 1-12), or undefined when the day is not in
 * that month. Date.UTC alone reads years 0-99 as 1900-1999.
 */
export function utcTime(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number | undefined {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  if (date.getUTCDate() !== d) return undefined;
  date.setUTCHours(h, mi, s, ms);
  return date.getTime();
}

/**
 * Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.f{1,9}]](Z|±HH:MM)` (clients send 6 fractional
 * digits; Censys allows 9) and the CLI's `YYYY-MM-DD HH:MM`. No zone means UTC. Returns epoch ms.
 */
export function parseTimestamp(text: string): number | undefined {
  const m = RFC3339.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const ms = Number((frac + '000').slice(0, 3));
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) {
    return undefined;
  }
  let t = utcTime(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s), ms);
  if (t === undefined) return undefined;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return Number.isFinite(t) ? t : undefined;
}

export function isoTime(ms: number | Date = Date.now()): string {
  return new Date(typeof ms === 'number' ? ms : ms.getTime()).toISOString();
}

/** `2021-01-01 01:00:00` — the account endpoint's form. */
export function accountTime(iso: string | null | undefined, micro = false): string {
  const d = iso ? new Date(iso) : new Date(0);
  const base = d.toISOString().replace('T', ' ').slice(0, 19);
  return micro ? `${base}.${String(d.getUTCMilliseconds()).padStart(3, '0')}000` : base;
}
