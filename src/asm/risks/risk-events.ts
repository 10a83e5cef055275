/**
 * `GET /v2/risk-events` (contract §2B.6): a workspace's risk events in id order, by time range,
 * after an id, and by cursor. The cursor is base64 JSON `{"afterID", "limit"[, "start", "end"]}`
 * — the form real cursors decode to — so a poller can keep the last `next` and resume later.
 */
import { fail, ok, type Result } from '../../lib/problem.ts';
import type { AsmContext } from '../asm-context.ts';
import { presentRiskEvent, type WireObject } from './present-risks.ts';

export const DEFAULT_EVENT_LIMIT = 100;
export const MAX_EVENT_LIMIT = 10_000;

export interface RiskEventsRequest {
  readonly start?: string;
  readonly end?: string;
  readonly afterID?: string;
  readonly limit?: string;
  readonly cursor?: string;
}

export interface RiskEventsPage {
  /** Events in the range after the page's starting id: this page and every later one. */
  readonly total: number;
  readonly next: string;
  readonly endOfEvents: boolean;
  readonly events: WireObject[];
}

interface Position {
  afterID: number;
  limit: number;
  start?: string;
  end?: string;
}

function invalid(message: string, asmCode?: number): Result<never> {
  return fail('invalid_request', message, asmCode ? { asmCode } : {});
}

/** RFC 3339 with a zone (the clients send `...Z` or an offset), normalised to UTC milliseconds. */
function time(name: string, raw: string): Result<string> {
  if (!/^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:?\d\d)?)?$/i.test(raw) || Number.isNaN(Date.parse(raw))) {
    return invalid(`'${name}' must be an RFC 3339 time such as 2024-05-01T00:00:00Z, not ${JSON.stringify(raw)}.`, 10078);
  }
  return ok(new Date(Date.parse(raw)).toISOString());
}

export function encodeRiskCursor(p: Position): string {
  return Buffer.from(JSON.stringify({ afterID: p.afterID, limit: p.limit, ...(p.start ? { start: p.start } : {}), ...(p.end ? { end: p.end } : {}) })).toString('base64');
}

function decodeCursor(raw: string): Result<Position> {
  const bad = invalid(`'cursor' ${JSON.stringify(raw.slice(0, 80))} is not a cursor this server issued; use the 'next' of an earlier response.`);
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)) return bad;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
  } catch {
    return bad;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return bad;
  const o = v as Record<string, unknown>;
  const afterID = o.afterID;
  const limit = o.limit ?? DEFAULT_EVENT_LIMIT;
  if (typeof afterID !== 'number' || !Number.isSafeInteger(afterID) || afterID < 0) return bad;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_EVENT_LIMIT) return bad;
  for (const k of ['start', 'end']) if (o[k] !== undefined && (typeof o[k] !== 'string' || Number.isNaN(Date.parse(o[k] as string)))) return bad;
  return ok({ afterID, limit, ...(o.start ? { start: o.start as string } : {}), ...(o.end ? { end: o.end as string } : {}) });
}

function position(req: RiskEventsRequest): Result<Position> {
  if (req.cursor) return decodeCursor(req.cursor);
  const p: Position = { afterID: 0, limit: DEFAULT_EVENT_LIMIT };
  if (req.afterID !== undefined && req.afterID !== '') {
    if (!/^\d{1,15}$/.test(req.afterID)) return invalid(`'afterID' must be a non-negative integer, not ${JSON.stringify(req.afterID)}.`);
    p.afterID = Number(req.afterID);
  }
  if (req.limit !== undefined && req.limit !== '') {
    if (!/^\d{1,6}$/.test(req.limit) || Number(req.limit) < 1 || Number(req.limit) > MAX_EVENT_LIMIT) {
      return invalid(`'limit' must be an integer from 1 to ${MAX_EVENT_LIMIT}, not ${JSON.stringify(req.limit)}.`);
    }
    p.limit = Number(req.limit);
  }
  for (const k of ['start', 'end'] as const) {
    const raw = req[k];
    if (raw === undefined || raw === '') continue;
    const t = time(k, raw);
    if (!t.ok) return t;
    p[k] = t.value;
  }
  if (p.start && p.end && p.start > p.end) return invalid(`'start' (${p.start}) is after 'end' (${p.end}).`, 10078);
  return ok(p);
}

export async function readRiskEvents(ctx: AsmContext, workspaceId: string, req: RiskEventsRequest): Promise<Result<RiskEventsPage>> {
  const pos = position(req);
  if (!pos.ok) return pos;
  const p = pos.value;
  const range = { afterId: p.afterID, ...(p.start ? { start: p.start } : {}), ...(p.end ? { end: p.end } : {}) };
  // One more than a page tells whether another page exists without a second query.
  const rows = await ctx.store.asmRisks.readEvents(workspaceId, { ...range, limit: p.limit + 1 });
  const page = rows.slice(0, p.limit);
  const endOfEvents = rows.length <= p.limit;
  const total = endOfEvents ? page.length : await ctx.store.asmRisks.countEvents(workspaceId, range);
  const last = page.length ? page[page.length - 1].id : p.afterID;
  return ok({ total, next: encodeRiskCursor({ ...p, afterID: last }), endOfEvents, events: page.map(presentRiskEvent) });
}
