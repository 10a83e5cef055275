/**
 * The one table from problem codes to HTTP statuses, and the Censys error bodies per API family
 * (contract §1.9). Every error the server sends goes through here.
 */
import type { Problem, ProblemCode } from '../lib/problem.ts';

export const STATUS: Readonly<Record<ProblemCode, number>> = {
  invalid_query: 400,
  invalid_field: 400,
  invalid_request: 400,
  too_many_buckets: 400,
  invalid_cursor: 422,
  invalid_ip: 422,
  invalid_fingerprint: 422,
  invalid_time: 422,
  not_found: 404,
  conflict: 409,
  unauthorized: 401,
  forbidden: 403,
  quota_exceeded: 429,
  rate_limited: 429,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
};

const REASON: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export function reasonPhrase(status: number): string {
  return REASON[status] ?? 'Error';
}

/** Which error body shape a route answers with. */
export type ApiFamily = 'search' | 'search-v1';

export function problemBody(family: ApiFamily, problem: Problem, status = STATUS[problem.code]): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  if (problem.position !== undefined) details.position = problem.position;
  if (problem.suggestion !== undefined) details.suggestion = problem.suggestion;
  const extra = Object.keys(details).length > 0 ? { details } : {};
  if (family === 'search-v1') {
    if (problem.code === 'unauthorized') return { status: 'error', error_type: 'unauthorized', error: problem.message };
    if (problem.code === 'rate_limited' || problem.code === 'quota_exceeded') {
      return { status: 'error', error_type: 'rate_limit_exceeded', error: problem.message };
    }
    return { error_code: status, error: problem.message, ...extra };
  }
  return { code: status, status: reasonPhrase(status), error: problem.message, error_type: problem.code, ...extra };
}
