import { parseTimestamp, utcTime } from '../../lib/time.ts';

function digits(t: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = t.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/**
 * parseTimestamp for the form scanners write (`YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z`) read by position
 * instead of by its regular expression: almost every observation time is distinct, so caches do
 * not spare the parse, and the expression was most of it. Anything else (zones, missing seconds,
 * out-of-range fields) is left to parseTimestamp, so the answers are the same.
 */
export function parseUtcTime(t: string): number | undefined {
  const n = t.length;
  if (n >= 20 && n <= 30 && n !== 21 && t.charCodeAt(n - 1) === 90 /* Z */ && t.charCodeAt(4) === 45 && t.charCodeAt(7) === 45 && t.charCodeAt(10) === 84 && t.charCodeAt(13) === 58 && t.charCodeAt(16) === 58) {
    const y = digits(t, 0, 4);
    const mo = digits(t, 5, 7);
    const d = digits(t, 8, 10);
    const h = digits(t, 11, 13);
    const mi = digits(t, 14, 16);
    const s = digits(t, 17, 19);
    // A fraction is a dot and 1–9 digits; its first three are the milliseconds.
    const frac = n === 20 ? 0 : t.charCodeAt(19) === 46 ? digits(t, 20, n - 1) : -1;
    if (y >= 0 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && s >= 0 && s <= 60 && frac >= 0) {
      const ms = n === 20 ? 0 : digits((t.slice(20, n - 1) + '000').slice(0, 3), 0, 3);
      // Day 31 of a 30-day month (and so on) is refused, as parseTimestamp does.
      const ms1 = utcTime(y, mo, d, h, mi, s, ms);
      if (ms1 !== undefined && Number.isFinite(ms1)) return ms1;
    }
  }
  return parseTimestamp(t);
}
