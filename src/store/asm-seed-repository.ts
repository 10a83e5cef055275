import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AsmSeedsTable, Database } from './database.ts';
import type { NewSeed, Seed, SeedFilter, SeedRepository } from './store.ts';

function toSeed(row: Selectable<AsmSeedsTable>): Seed {
  return {
    id: Number(row.id),
    workspaceId: row.workspace_id,
    type: row.type as Seed['type'],
    value: row.value,
    label: row.label,
    source: row.source as Seed['source'],
    createdOn: row.created_on,
  };
}

const key = (s: { type: string; value: string }) => `${s.type}\u0000${s.value}`;

// Seven columns a row keeps a chunk well under SQLite's bound-parameter limit.
const CHUNK = 500;

function unique(seeds: readonly NewSeed[]): NewSeed[] {
  const seen = new Set<string>();
  return seeds.filter((s) => {
    const k = key(s);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Ids beyond this are not integers a JS number holds exactly, so no row can have them. */
const MAX_ID = 999_999_999_999_999;

function validId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 0 && id <= MAX_ID;
}

export class KyselySeedRepository implements SeedRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async list(workspaceId: string, filter: SeedFilter = {}): Promise<Seed[]> {
    let q = this.#db.selectFrom('asm_seeds').selectAll().where('workspace_id', '=', workspaceId);
    if (filter.type !== undefined) q = q.where('type', '=', filter.type);
    if (filter.label !== undefined) q = q.where('label', '=', filter.label);
    return (await q.orderBy('id').execute()).map(toSeed);
  }

  async get(workspaceId: string, id: number): Promise<Seed | undefined> {
    if (!validId(id)) return undefined;
    const row = await this.#db
      .selectFrom('asm_seeds')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toSeed(row);
  }

  async add(workspaceId: string, seeds: readonly NewSeed[], source: Seed['source'], createdOn: string): Promise<Seed[]> {
    return this.#db.transaction().execute((trx) => insertNew(trx, workspaceId, unique(seeds), source, createdOn));
  }

  async replaceLabel(
    workspaceId: string,
    label: string,
    seeds: readonly NewSeed[],
    source: Seed['source'],
    createdOn: string,
  ): Promise<{ added: Seed[]; removed: Seed[] }> {
    const wanted = unique(seeds);
    const keep = new Set(wanted.map(key));
    return this.#db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('asm_seeds')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('label', '=', label)
        .orderBy('id')
        .execute();
      const removed = current.filter((r) => !keep.has(key(r))).map(toSeed);
      for (let i = 0; i < removed.length; i += CHUNK) {
        const ids = removed.slice(i, i + CHUNK).map((s) => s.id);
        await trx.deleteFrom('asm_seeds').where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
      }
      const added = await insertNew(
        trx,
        workspaceId,
        wanted.map((s) => ({ ...s, label })),
        source,
        createdOn,
      );
      return { added, removed };
    });
  }

  async removeByLabel(workspaceId: string, label: string): Promise<Seed[]> {
    const rows = await this.#db
      .deleteFrom('asm_seeds')
      .where('workspace_id', '=', workspaceId)
      .where('label', '=', label)
      .returningAll()
      .execute();
    return rows.map(toSeed).sort((a, b) => a.id - b.id);
  }

  async remove(workspaceId: string, id: number): Promise<Seed | undefined> {
    if (!validId(id)) return undefined;
    const row = await this.#db
      .deleteFrom('asm_seeds')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toSeed(row);
  }
}

/** Inserts rows absent by (type, value); the inserted ones come back in input order. */
async function insertNew(
  trx: Transaction<Database>,
  workspaceId: string,
  seeds: readonly NewSeed[],
  source: Seed['source'],
  createdOn: string,
): Promise<Seed[]> {
  const inserted = new Map<string, Seed>();
  for (let i = 0; i < seeds.length; i += CHUNK) {
    const rows = await trx
      .insertInto('asm_seeds')
      .values(
        seeds.slice(i, i + CHUNK).map((s) => ({
          workspace_id: workspaceId,
          type: s.type,
          value: s.value,
          label: s.label,
          source,
          created_on: createdOn,
        })),
      )
      .onConflict((oc) => oc.columns(['workspace_id', 'type', 'value']).doNothing())
      .returningAll()
      .execute();
    for (const r of rows) inserted.set(key(r), toSeed(r));
  }
  return seeds.flatMap((s) => inserted.get(key(s)) ?? []);
}
