/**
 * Logbook cursors (contract §2B.4). A cursor is base64url JSON in the shape Censys' own cursors
 * decode to — `{"filter":{"type":[...]},"start":<id>}` plus `dateFrom` when asked for — so it
 * carries everything the next page needs and the server keeps no state. Paging is by event id:
 * ids ascend in commit order (store/asm-logbook-repository.ts), so a reader that continues from
 * the id after the last one it saw never skips or repeats an event, whatever is written meanwhile.
 */
import type { LogbookEventType } from '../../model/asm-asset.ts';
import { fail, ok, type Result } from '../../lib/problem.ts';
import { parseTimestamp } from '../../lib/time.ts';

export const LOGBOOK_EVENT_TYPES: readonly LogbookEventType[] = [
  'CERT',
  'CERT_RISK',
  'DOMAIN',
  'DOMAIN_EXPIRATION_DATE',
  'DOMAIN_MAIL_EXCHANGE_SERVER',
  'DOMAIN_NAME_SERVER',
  'DOMAIN_REGISTRAR',
  'DOMAIN_RISK',
  'DOMAIN_SUBDOMAIN',
  'HOST',
  'HOST_CERT',
  'HOST_PORT',
  'HOST_PROTOCOL',
  'HOST_RISK',
  'HOST_SOFTWARE',
  'HOST_VULNERABILITY',
  'HOST_CDN',
  'OBJECT_STORAGE',
  'RISK_USER_CONFIG',
  'SUBDOMAIN',
  'WEB_ENTITY',
];

const KNOWN = new Set<string>(LOGBOOK_EVENT_TYPES);

/** Ids beyond this cannot be stored exactly, so no event has them. */
const MAX_ID = 999_999_999_999_999;

export interface LogbookCursor {
  /** Events with id >= start. */
  readonly start: number;
  readonly dateFrom?: string;
  readonly types?: readonly LogbookEventType[];
}

export function encodeCursor(c: LogbookCursor): string {
  const json = { filter: c.types && c.types.length > 0 ? { type: c.types } : {}, start: c.start, ...(c.dateFrom ? { dateFrom: c.dateFrom } : {}) };
  return Buffer.from(JSON.stringify(json)).toString('base64url');
}

const invalidCursor = <T>(): Result<T> => fail('invalid_cursor', 'Invalid logbook cursor.', { asmCode: 10040 });

/** Decodes a cursor this server issued; anything else is 10040. */
export function decodeCursor(text: string): Result<LogbookCursor> {
  if (!/^[A-Za-z0-9_+/-]+={0,2}$/.test(text) || text.length > 4096) return invalidCursor();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text.replace(/\+/g, '-').replace(/\//g, '_'), 'base64url').toString('utf8'));
  } catch {
    return invalidCursor();
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return invalidCursor();
  const v = value as Record<string, unknown>;
  if (Object.keys(v).some((k) => k !== 'filter' && k !== 'start' && k !== 'dateFrom')) return invalidCursor();
  if (typeof v.start !== 'number' || !Number.isSafeInteger(v.start) || v.start < 0 || v.start > MAX_ID + 1) return invalidCursor();
  const filter = v.filter ?? {};
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) return invalidCursor();
  const f = filter as Record<string, unknown>;
  if (Object.keys(f).some((k) => k !== 'type')) return invalidCursor();
  let types: LogbookEventType[] | undefined;
  if (f.type !== undefined) {
    if (!Array.isArray(f.type) || !f.type.every((t) => typeof t === 'string' && KNOWN.has(t))) return invalidCursor();
    types = f.type as LogbookEventType[];
  }
  let dateFrom: string | undefined;
  if (v.dateFrom !== undefined) {
    const ms = typeof v.dateFrom === 'string' ? parseTimestamp(v.dateFrom) : undefined;
    if (ms === undefined) return invalidCursor();
    dateFrom = new Date(ms).toISOString();
  }
  return ok({ start: v.start, ...(dateFrom ? { dateFrom } : {}), ...(types && types.length > 0 ? { types } : {}) });
}

const invalidRequest = <T>(message: string): Result<T> => fail('invalid_request', message, { asmCode: 10008 });

/**
 * The body of POST /v1/logbook-cursor: `{dateFrom}` and/or `{idFrom}` (both may be given: events
 * must then satisfy both), optional `filter.type`; absent or `{}` = every event from the start.
 */
export function cursorFromRequest(body: unknown): Result<LogbookCursor> {
  if (body === undefined || body === null) return ok({ start: 0 });
  if (typeof body !== 'object' || Array.isArray(body)) return invalidRequest('The request body must be a JSON object.');
  const b = body as Record<string, unknown>;
  let start = 0;
  if (b.idFrom !== undefined && b.idFrom !== null) {
    if (typeof b.idFrom !== 'number' || !Number.isInteger(b.idFrom) || b.idFrom < 0) {
      return invalidRequest("'idFrom' must be a non-negative integer event id.");
    }
    start = Math.min(b.idFrom, MAX_ID + 1);
  }
  let dateFrom: string | undefined;
  if (b.dateFrom !== undefined && b.dateFrom !== null) {
    const ms = typeof b.dateFrom === 'string' ? parseTimestamp(b.dateFrom) : undefined;
    if (ms === undefined) return invalidRequest("'dateFrom' must be an RFC 3339 date-time such as 2020-10-29T19:26:34.371Z.");
    dateFrom = new Date(ms).toISOString();
  }
  let types: LogbookEventType[] | undefined;
  if (b.filter !== undefined && b.filter !== null) {
    if (typeof b.filter !== 'object' || Array.isArray(b.filter)) return invalidRequest("'filter' must be an object such as {\"type\": [\"HOST\"]}.");
    const t = (b.filter as Record<string, unknown>).type;
    if (t !== undefined && t !== null) {
      if (!Array.isArray(t) || !t.every((x) => typeof x === 'string')) return invalidRequest("'filter.type' must be an array of event types.");
      const unknown = t.filter((x) => !KNOWN.has(x as string));
      if (unknown.length > 0) {
        return invalidRequest(`Unknown logbook event type(s): ${unknown.map((x) => JSON.stringify(x)).join(', ')}. Known types: ${LOGBOOK_EVENT_TYPES.join(', ')}.`);
      }
      types = [...new Set(t as LogbookEventType[])];
    }
  }
  return ok({ start, ...(dateFrom ? { dateFrom } : {}), ...(types && types.length > 0 ? { types } : {}) });
}
