import { fail, ok, type Result } from '../../lib/problem.ts';

/**
 * A `since` day as the clouds paths carry it (`YYYY-MM-DD`, a real calendar day) → the instant it
 * starts in UTC. Anything else is 10078 Invalid Date.
 */
export function parseSinceDay(text: string): Result<string> {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  if (!m || !d || d.getUTCFullYear() !== Number(m[1]) || d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) {
    return fail('invalid_request', `Invalid date ${JSON.stringify(text)}: give a day as YYYY-MM-DD`, { asmCode: 10078 });
  }
  return ok(d.toISOString());
}

/** A day (`YYYY-MM-DD`) or an RFC 3339 time (beta counts accept both). */
export function parseSinceTime(text: string): Result<string> {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return parseSinceDay(text);
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) return fail('invalid_request', `Invalid date ${JSON.stringify(text)}: give YYYY-MM-DD or an RFC 3339 time`, { asmCode: 10078 });
  return ok(new Date(ms).toISOString());
}
