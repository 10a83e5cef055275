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
  unavailable: 503,
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
  503: 'Service Unavailable',
};

export function reasonPhrase(status: number): string {
  return REASON[status] ?? 'Error';
}

/** Which error body shape a route answers with. */
export type ApiFamily = 'search' | 'search-v1' | 'asm' | 'asm-inventory';

/**
 * The Censys ASM error codes: HTTP status and the fixed `message` (contract §1.10; where the
 * spec attaches no status, the one that fits). A Problem names one through `asmCode`, or gets its code's default from ASM_CODE.
 * Codes below 10000 are not Censys codes: they are the HTTP status, used where Censys defines no
 * ASM code (an unknown route, a body too large), so clients fall back to their generic exception.
 */
export const ASM_ERRORS: Readonly<Record<number, { readonly status: number; readonly message: string }>> = {
  10000: { status: 400, message: 'API Key Missing' },
  10001: { status: 401, message: 'Invalid API Key' },
  10002: { status: 401, message: 'Invalid Auth Token' },
  10006: { status: 403, message: 'Unauthorized' },
  10007: { status: 400, message: 'Invalid Seed Data' },
  10008: { status: 400, message: 'Invalid Request' },
  10011: { status: 422, message: 'Unable to Remove Non-Seed Nodes' },
  10012: { status: 409, message: 'Unable to Remove Non-Existent Seeds' },
  10013: { status: 409, message: 'Need Confirmation to Remove Seeds with Children' },
  10014: { status: 404, message: 'Unable to Find Seed' },
  10015: { status: 422, message: 'Not a Seed' },
  10016: { status: 422, message: 'Too Many Input Nodes' },
  10017: { status: 422, message: 'Estimated Number of Associated Assets Within Warning Threshold' },
  10018: { status: 404, message: 'Host not Found' },
  10019: { status: 404, message: 'Domain not Found' },
  10020: { status: 404, message: 'Certificate not Found' },
  10021: { status: 422, message: 'Invalid IPv4 Address' },
  10022: { status: 404, message: 'Asset Excluded' },
  10025: { status: 400, message: 'Tag Must Not Have Trailing or Leading Whitespace' },
  10026: { status: 400, message: 'Tag Must Not Be An Empty String' },
  10027: { status: 400, message: 'Tag Labels May Not Differ Only In Casing' },
  10028: { status: 400, message: 'Tag Label Too Long' },
  10029: { status: 503, message: 'Application Temporarily Down for Maintenance' },
  10034: { status: 400, message: 'Tag Color Too Long' },
  10036: { status: 400, message: 'Tag Color Must Not Have Trailing or Leading Whitespace' },
  10037: { status: 400, message: 'Invalid Color Specification' },
  10038: { status: 400, message: 'Invalid Seed Type' },
  10039: { status: 429, message: 'Too Many Requests' },
  10040: { status: 400, message: 'Invalid Logbook Cursor' },
  10050: { status: 400, message: 'Page size invalid' },
  10051: { status: 400, message: 'Page number out of range' },
  10054: { status: 400, message: 'Invalid Comment' },
  10055: { status: 404, message: 'Comment not Found' },
  10057: { status: 404, message: 'Subdomain not Found' },
  10059: { status: 400, message: 'Invalid Cloud Asset Data' },
  10060: { status: 400, message: 'Invalid object storage asset identifier' },
  10061: { status: 404, message: 'Object storage asset not found' },
  10067: { status: 400, message: 'Bad JSON string in body' },
  10073: { status: 404, message: 'Risk not Found' },
  10078: { status: 400, message: 'Invalid Date' },
  10082: { status: 400, message: 'Invalid Cloud' },
  10084: { status: 400, message: 'Data Not Populated' },
  10086: { status: 404, message: 'Asset Not Found' },
  10088: { status: 400, message: 'Invalid Asset Type for Environment' },
  10091: { status: 400, message: 'Invalid keywords in body' },
  10096: { status: 504, message: 'Search API timeout' },
  10097: { status: 502, message: 'Search API error' },
  10098: { status: 500, message: 'Internal server error' },
  10099: { status: 400, message: 'Invalid Comment HTML' },
  404: { status: 404, message: 'Not Found' },
  409: { status: 409, message: 'Conflict' },
  413: { status: 413, message: 'Payload Too Large' },
  415: { status: 415, message: 'Unsupported Media Type' },
};

/** The ASM errorCode of each problem code when the problem names none. */
export const ASM_CODE: Readonly<Record<ProblemCode, number>> = {
  invalid_query: 10008,
  invalid_field: 10008,
  invalid_request: 10008,
  too_many_buckets: 10008,
  invalid_cursor: 10008,
  invalid_ip: 10008,
  invalid_fingerprint: 10008,
  invalid_time: 10008,
  not_found: 404,
  conflict: 409,
  unauthorized: 10001,
  forbidden: 10006,
  quota_exceeded: 10039,
  rate_limited: 10039,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unavailable: 10029,
  internal: 10098,
};

function asmError(problem: Problem): { errorCode: number; status: number; message: string } {
  const errorCode = problem.asmCode ?? ASM_CODE[problem.code];
  const known = ASM_ERRORS[errorCode];
  return known ? { errorCode, ...known } : { errorCode, status: STATUS[problem.code], message: problem.message };
}

/**
 * The inventory and saved-query shape `{"error", "statusCode", "details"}` (contract §1.10, second
 * shape): `details` is always a list, of structured items when the problem has them.
 */
function inventoryBody(problem: Problem, status: number): Record<string, unknown> {
  // The key check and rate limit are the same door for every ASM route, and clients map them by errorCode.
  if (problem.code === 'unauthorized' || problem.code === 'rate_limited') return asmBody(problem);
  const d = problem.details;
  const details = Array.isArray(d) ? d : d !== undefined && d !== null && typeof d === 'object' ? [d] : [{ details: typeof d === 'string' ? d : problem.message }];
  return { error: problem.message, statusCode: status, details };
}

/** The HTTP status a problem is answered with in a family. */
export function statusOf(family: ApiFamily, problem: Problem): number {
  if (family === 'asm-inventory') return asmError(problem).status;
  if (family === 'asm') return asmError(problem).status;
  if (family === 'search-v1' && problem.code === 'unauthorized') return 403;
  return STATUS[problem.code];
}

/** `{"message", "errorCode", "details"}`: all three keys always present (contract §1.10). */
function asmBody(problem: Problem): Record<string, unknown> {
  const { errorCode, message } = asmError(problem);
  return { message, errorCode, details: problem.details ?? problem.message };
}

export function problemBody(family: ApiFamily, problem: Problem, status = statusOf(family, problem)): Record<string, unknown> {
  if (family === 'asm-inventory') return inventoryBody(problem, status);
  if (family === 'asm') return asmBody(problem);
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
