import type { Kysely } from 'kysely';
import type { Database } from './database.ts';
import type { QuotaRepository } from './store.ts';

export class KyselyQuotaRepository implements QuotaRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** One upsert, so concurrent requests of the same user never lose an increment. */
  async add(userId: string, period: string, n: number): Promise<number> {
    const row = await this.#db
      .insertInto('quota_usage')
      .values({ user_id: userId, period, used: n })
      .onConflict((oc) =>
        oc.columns(['user_id', 'period']).doUpdateSet((eb) => ({
          used: eb('quota_usage.used', '+', eb.ref('excluded.used')),
        })),
      )
      .returning('used')
      .executeTakeFirstOrThrow();
    return Number(row.used);
  }

  async used(userId: string, period: string): Promise<number> {
    const row = await this.#db
      .selectFrom('quota_usage')
      .select('used')
      .where('user_id', '=', userId)
      .where('period', '=', period)
      .executeTakeFirst();
    return row ? Number(row.used) : 0;
  }
}
