/**
 * Date values of queries, in epoch milliseconds (UTC).
 *
 *   2021, 2021-03, 2021-03-01                  a whole year / month / day
 *   2021-03-01T10:00[:00[.123456789]][Z|±hh:mm] an instant (no zone = UTC; precision 1 ms)
 *   now, now-24h, now+1d, now-1M/d             `now` with arithmetic and optional rounding
 *   2021-03-01||+1M                            arithmetic on an absolute date
 *
 * Units: y (years), M (months), w (weeks), d (days), h or H (hours), m (minutes), s (seconds).
 * A value that names a period (a bare day, or anything rounded with `/unit`) is returned as
 * [start, end) so that `field: 2021-03-01` matches the whole day and range bounds can include or
 * exclude the whole period.
 */
export interface DateValue {
  readonly start: number;
  /** Exclusive end when the value is a period; absent for an instant. */
  readonly end?: number;
}

type Unit = 'y' | 'M' | 'w' | 'd' | 'h' | 'm' | 's';

const ABSOLUTE =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function utc(year: number, month: number, day: number, h = 0, m = 0, s = 0, ms = 0): number {
  // Date.UTC maps years 0..99 to 1900..1999; set the full year explicitly.
  const d = new Date(Date.UTC(2000, month - 1, day, h, m, s, ms));
  d.setUTCFullYear(year);
  return d.getTime();
}

function parseAbsolute(text: string): { start: number; unit?: Unit } | undefined {
  const m = ABSOLUTE.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  if (m[2] === undefined) return { start: utc(year, 1, 1), unit: 'y' };
  const month = Number(m[2]);
  if (month < 1 || month > 12) return undefined;
  if (m[3] === undefined) return { start: utc(year, month, 1), unit: 'M' };
  const day = Number(m[3]);
  if (day < 1 || day > daysInMonth(year, month)) return undefined;
  if (m[4] === undefined) return { start: utc(year, month, day), unit: 'd' };
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0').slice(0, 3));
  let offset = 0;
  const zone = m[8];
  if (zone && zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const zh = Number(digits.slice(0, 2));
    const zm = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (zh > 23 || zm > 59) return undefined;
    offset = sign * (zh * 60 + zm) * 60_000;
  }
  return { start: utc(year, month, day, hour, minute, second, ms) - offset };
}

function add(t: number, amount: number, unit: Unit): number {
  const d = new Date(t);
  switch (unit) {
    case 'y':
      d.setUTCFullYear(d.getUTCFullYear() + amount);
      return d.getTime();
    case 'M':
      d.setUTCMonth(d.getUTCMonth() + amount);
      return d.getTime();
    case 'w':
      return t + amount * 7 * 86_400_000;
    case 'd':
      return t + amount * 86_400_000;
    case 'h':
      return t + amount * 3_600_000;
    case 'm':
      return t + amount * 60_000;
    case 's':
      return t + amount * 1000;
  }
}

function roundDown(t: number, unit: Unit): number {
  const d = new Date(t);
  switch (unit) {
    case 'y':
      return utc(d.getUTCFullYear(), 1, 1);
    case 'M':
      return utc(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    case 'w': {
      // Weeks start on Monday (ISO 8601).
      const day = utc(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
      return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
    }
    case 'd':
      return utc(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
    case 'h':
      return t - (((t % 3_600_000) + 3_600_000) % 3_600_000);
    case 'm':
      return t - (((t % 60_000) + 60_000) % 60_000);
    case 's':
      return t - (((t % 1000) + 1000) % 1000);
  }
}

function unitOf(c: string): Unit | undefined {
  if (c === 'H') return 'h';
  return 'yMwdhms'.includes(c) ? (c as Unit) : undefined;
}

const MATH_STEP = /^([+-])(\d{1,9})([yMwdhHms])/;
const MAX_TIME = 8.64e15;

/** The date a query value names, or undefined when it is not a date. */
export function parseDateValue(text: string, now: Date): DateValue | undefined {
  let anchor: { start: number; unit?: Unit };
  let rest: string;
  if (/^now/i.test(text)) {
    anchor = { start: now.getTime() };
    rest = text.slice(3);
  } else {
    const bar = text.indexOf('||');
    const abs = parseAbsolute(bar < 0 ? text : text.slice(0, bar));
    if (!abs) return undefined;
    anchor = abs;
    rest = bar < 0 ? '' : text.slice(bar + 2);
    if (bar >= 0 && rest === '') return undefined;
  }
  let start = anchor.start;
  let end = anchor.unit ? add(anchor.start, 1, anchor.unit) : undefined;
  while (rest !== '' && rest[0] !== '/') {
    const m = MATH_STEP.exec(rest);
    if (!m) return undefined;
    const amount = (m[1] === '-' ? -1 : 1) * Number(m[2]);
    const unit = unitOf(m[3]) as Unit;
    start = add(start, amount, unit);
    if (end !== undefined) end = add(end, amount, unit);
    rest = rest.slice(m[0].length);
  }
  if (rest !== '') {
    const unit = rest.length === 2 ? unitOf(rest[1]) : undefined;
    if (!unit) return undefined;
    start = roundDown(start, unit);
    end = add(start, 1, unit);
  }
  if (!Number.isFinite(start) || Math.abs(start) > MAX_TIME) return undefined;
  if (end !== undefined && (!Number.isFinite(end) || Math.abs(end) > MAX_TIME)) return undefined;
  return end === undefined ? { start } : { start, end };
}
