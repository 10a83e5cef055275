import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { LogbookEvent, LogbookEventType, NewLogbookEvent } from '../model/asm-asset.ts';
import { parseJson, type AsmLogbookTable, type Database, type Dialect } from './database.ts';
import type { AsmLogbookRepository, LogbookQuery } from './store.ts';
import { decodeNulFromPostgres, encodeNulForPostgres } from './pg-nul.ts';
import { isoTime } from './iso-time.ts';

/**
 * Any fixed key will do; every logbook writer of the database takes it. Held to the end of the
 * writing transaction, it makes "draw the next id" and "commit" one step: PostgreSQL hands out
 * identity values at insert time, so without it a writer that drew id 7 could commit after one
 * that drew 8, and a reader that already paged past 8 would never see 7.
 */
const LOGBOOK_LOCK = 7_305_218_431_001;

// Six columns a row keeps a chunk well under SQLite's bound-parameter limit.
const CHUNK = 500;

const MAX_ID = 999_999_999_999_999;

export function jsonIn(dialect: Dialect, value: unknown): string {
  const text = JSON.stringify(value);
  return dialect === 'postgres' ? encodeNulForPostgres(text) : text;
}

export function jsonOut(dialect: Dialect, value: unknown): unknown {
  const parsed = parseJson(value);
  return dialect === 'postgres' ? decodeNulFromPostgres(parsed) : parsed;
}

function toEvent(dialect: Dialect, row: Selectable<AsmLogbookTable>): LogbookEvent {
  const data = row.data === null || row.data === undefined ? undefined : (jsonOut(dialect, row.data) as Record<string, unknown>);
  return {
    id: Number(row.id),
    workspaceId: row.workspace_id,
    type: row.type as LogbookEventType,
    operation: row.operation as LogbookEvent['operation'],
    timestamp: row.timestamp,
    entity: jsonOut(dialect, row.entity) as Record<string, unknown>,
    ...(data !== undefined ? { data } : {}),
  };
}

/** Serialises logbook writers until `trx` ends (PostgreSQL; SQLite already has a single writer). */
export async function lockLogbook(trx: Transaction<Database>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${sql.lit(LOGBOOK_LOCK)})`.execute(trx);
}

/** Inserts events inside a transaction that already holds lockLogbook; returns them with ids, in input order. */
export async function insertEvents(
  trx: Transaction<Database>,
  dialect: Dialect,
  workspaceId: string,
  events: readonly NewLogbookEvent[],
): Promise<LogbookEvent[]> {
  const out: LogbookEvent[] = [];
  for (let i = 0; i < events.length; i += CHUNK) {
    const rows = await trx
      .insertInto('asm_logbook')
      .values(
        events.slice(i, i + CHUNK).map((e) => ({
          workspace_id: workspaceId,
          type: e.type,
          operation: e.operation,
          timestamp: isoTime(e.timestamp),
          entity: jsonIn(dialect, e.entity),
          data: e.data === undefined ? null : jsonIn(dialect, e.data),
        })),
      )
      .returningAll()
      .execute();
    // Multi-row inserts draw ids in VALUES order in both dialects; sorting makes that explicit.
    out.push(...rows.map((r) => toEvent(dialect, r)).sort((a, b) => a.id - b.id));
  }
  return out;
}

export class KyselyAsmLogbookRepository implements AsmLogbookRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async append(workspaceId: string, events: readonly NewLogbookEvent[]): Promise<LogbookEvent[]> {
    if (events.length === 0) return [];
    return this.#db.transaction().execute(async (trx) => {
      await lockLogbook(trx, this.#dialect);
      return insertEvents(trx, this.#dialect, workspaceId, events);
    });
  }

  async read(workspaceId: string, query: LogbookQuery): Promise<LogbookEvent[]> {
    if (query.limit <= 0 || (query.types !== undefined && query.types.length === 0)) return [];
    // No row can have an id a bigint or a JS number does not hold exactly.
    if (query.idFrom !== undefined && !(query.idFrom <= MAX_ID)) return [];
    let q = this.#db.selectFrom('asm_logbook').selectAll().where('workspace_id', '=', workspaceId);
    if (query.idFrom !== undefined) q = q.where('id', '>=', Math.max(0, Math.floor(query.idFrom)));
    if (query.dateFrom !== undefined) q = q.where('timestamp', '>=', isoTime(query.dateFrom));
    if (query.types !== undefined) q = q.where('type', 'in', [...query.types]);
    const rows = await q.orderBy('id').limit(Math.floor(query.limit)).execute();
    return rows.map((r) => toEvent(this.#dialect, r));
  }

  async lastId(workspaceId: string): Promise<number> {
    const row = await this.#db
      .selectFrom('asm_logbook')
      .select((eb) => eb.fn.max('id').as('last'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last);
  }
}
