import { ProblemError } from '../../../lib/problem.ts';

/**
 * A boolean query parameter as clients spell it: Python's `True`/`False` (requests sends str()),
 * JSON's `true`/`false`, or 1/0. Absent or empty is false; anything else is an invalid request.
 */
export function queryFlag(name: string, raw: string | undefined): boolean {
  if (raw === undefined) return false;
  const v = raw.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0' || v === '') return false;
  throw new ProblemError({ code: 'invalid_request', message: `Query parameter '${name}' must be True or False, not ${JSON.stringify(raw)}.` });
}
