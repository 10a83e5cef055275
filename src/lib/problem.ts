/**
 * The error catalogue: every expected failure the service reports is a Problem with one of these
 * codes. Use cases return problems as values; api/problem-status.ts maps each code to an HTTP
 * status and a Censys-shaped body in one table.
 */
export type ProblemCode =
  | 'invalid_query' // query text could not be parsed or names an unknown field
  | 'invalid_field' // aggregate/sort/fields names an unknown field
  | 'invalid_request' // a parameter or body is malformed
  | 'too_many_buckets'
  | 'invalid_cursor'
  | 'invalid_ip'
  | 'invalid_fingerprint'
  | 'invalid_time'
  | 'not_found'
  | 'conflict'
  | 'unauthorized' // missing or wrong credentials
  | 'forbidden' // authenticated, not allowed
  | 'quota_exceeded'
  | 'rate_limited'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unavailable' // temporarily unable to answer (the search index is being rebuilt); retry later
  | 'internal';

export interface Problem {
  readonly code: ProblemCode;
  readonly message: string;
  /** Character position in a query, when the problem is about one. */
  readonly position?: number;
  readonly suggestion?: string;
  /** Seconds a client should wait (rate limits). */
  readonly retryAfter?: number;
  /**
   * The Censys ASM errorCode when it is more specific than the code's default (e.g. 10014 for a
   * seed that is not found); other API families ignore it.
   */
  readonly asmCode?: number;
  /** Structured detail for the ASM `details` key (a string, object or array per errorCode). */
  readonly details?: unknown;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: Problem };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(code: ProblemCode, message: string, extra?: Partial<Problem>): Result<T> {
  return { ok: false, problem: { code, message, ...extra } };
}

/** Thrown only to carry a Problem through Fastify to the error handler; never for bugs. */
export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.message);
  }
}

export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new ProblemError(result.problem);
  return result.value;
}
