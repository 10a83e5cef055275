/** The logbook use cases behind POST /v1/logbook-cursor and GET /v1/logbook (contract §2B.4). */
import type { LogbookEvent } from '../../model/asm-asset.ts';
import { ok, type Result } from '../../lib/problem.ts';
import type { AsmContext } from '../asm-context.ts';
import { cursorFromRequest, decodeCursor, encodeCursor, type LogbookCursor } from './logbook-cursor.ts';

/** Events per page. */
export const LOGBOOK_PAGE_SIZE = 500;

export interface LogbookPage {
  readonly events: readonly LogbookEvent[];
  /** Present on every page; on the last one it points just past it, for polling later. */
  readonly nextCursor: string;
  readonly endOfEvents: boolean;
}

export function createLogbookCursor(body: unknown): Result<string> {
  const c = cursorFromRequest(body);
  return c.ok ? ok(encodeCursor(c.value)) : c;
}

/** One page from `cursor` (absent or empty: from the first event). */
export async function readLogbook(ctx: AsmContext, workspaceId: string, cursor: string | undefined, pageSize = LOGBOOK_PAGE_SIZE): Promise<Result<LogbookPage>> {
  let from: LogbookCursor = { start: 0 };
  if (cursor !== undefined && cursor !== '') {
    const decoded = decodeCursor(cursor);
    if (!decoded.ok) return decoded;
    from = decoded.value;
  }
  // One more than a page tells whether another page exists without a second query.
  const rows = await ctx.store.asmLogbook.read(workspaceId, {
    idFrom: from.start,
    ...(from.dateFrom ? { dateFrom: from.dateFrom } : {}),
    ...(from.types ? { types: from.types } : {}),
    limit: pageSize + 1,
  });
  const events = rows.slice(0, pageSize);
  const endOfEvents = rows.length <= pageSize;
  const next: LogbookCursor = { ...from, start: events.length > 0 ? events[events.length - 1].id + 1 : from.start };
  return ok({ events, nextCursor: encodeCursor(next), endOfEvents });
}

/** The wire shape of an event: `{id, type, timestamp, operation, entity[, data]}`. */
export function presentLogbookEvent(e: LogbookEvent): Record<string, unknown> {
  return {
    id: e.id,
    type: e.type,
    timestamp: e.timestamp,
    operation: e.operation,
    entity: e.entity,
    ...(e.data !== undefined ? { data: e.data } : {}),
  };
}
