import type { Kysely } from 'kysely';
import type { Database } from './database.ts';
import type { SettingsRepository } from './store.ts';

export class KyselySettingsRepository implements SettingsRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async get(key: string): Promise<string | undefined> {
    const row = await this.#db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  async set(key: string, value: string): Promise<void> {
    await this.#db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
      .execute();
  }
}
