import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable, WorkspacesTable } from './database.ts';
import type { NewUser, User, UserRepository, Workspace } from './store.ts';
import { isoTime, nowIso } from './iso-time.ts';

function toWorkspace(row: Selectable<WorkspacesTable>): Workspace {
  return { id: row.id, name: row.name, createdAt: row.created_at };
}

function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    email: row.email,
    workspaceId: row.workspace_id,
    role: row.role === 'admin' ? 'admin' : 'user',
    apiId: row.api_id,
    apiSecretHash: row.api_secret_hash,
    asmKeyHash: row.asm_key_hash,
    quotaAllowance: Number(row.quota_allowance),
    createdAt: row.created_at,
    firstLoginAt: row.first_login_at,
    lastLoginAt: row.last_login_at,
  };
}

/** Workspaces and users. Their ids are random UUIDs: nothing about them should be guessable or ordered. */
export class KyselyUserRepository implements UserRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async createWorkspace(name: string): Promise<Workspace> {
    const row = { id: randomUUID(), name, created_at: nowIso() };
    await this.#db.insertInto('workspaces').values(row).execute();
    return toWorkspace(row);
  }

  async listWorkspaces(): Promise<Workspace[]> {
    const rows = await this.#db.selectFrom('workspaces').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toWorkspace);
  }

  async getWorkspace(id: string): Promise<Workspace | undefined> {
    const row = await this.#db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toWorkspace(row);
  }

  /** Throws when the email, API id or ASM key is already taken, or the workspace does not exist. */
  async create(user: NewUser): Promise<User> {
    const row: Selectable<UsersTable> = {
      id: randomUUID(),
      email: user.email,
      workspace_id: user.workspaceId,
      role: user.role,
      api_id: user.apiId,
      api_secret_hash: user.apiSecretHash,
      asm_key_hash: user.asmKeyHash,
      quota_allowance: user.quotaAllowance,
      created_at: nowIso(),
      first_login_at: null,
      last_login_at: null,
    };
    await this.#db.insertInto('users').values({ ...row, quota_allowance: user.quotaAllowance }).execute();
    return toUser(row);
  }

  async #by(column: 'id' | 'api_id' | 'asm_key_hash' | 'email', value: string): Promise<User | undefined> {
    const row = await this.#db.selectFrom('users').selectAll().where(column, '=', value).executeTakeFirst();
    return row && toUser(row);
  }

  byApiId(apiId: string): Promise<User | undefined> {
    return this.#by('api_id', apiId);
  }

  byAsmKeyHash(hash: string): Promise<User | undefined> {
    return this.#by('asm_key_hash', hash);
  }

  byEmail(email: string): Promise<User | undefined> {
    return this.#by('email', email);
  }

  get(id: string): Promise<User | undefined> {
    return this.#by('id', id);
  }

  async list(): Promise<User[]> {
    const rows = await this.#db.selectFrom('users').selectAll().orderBy('created_at').orderBy('email').execute();
    return rows.map(toUser);
  }

  /** Also forgets the user's quota usage. */
  async remove(id: string): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom('quota_usage').where('user_id', '=', id).execute();
      const r = await trx.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    });
  }

  async updateCredentials(
    id: string,
    creds: { apiId?: string; apiSecretHash?: string; asmKeyHash?: string },
  ): Promise<void> {
    const set: { api_id?: string; api_secret_hash?: string; asm_key_hash?: string } = {};
    if (creds.apiId !== undefined) set.api_id = creds.apiId;
    if (creds.apiSecretHash !== undefined) set.api_secret_hash = creds.apiSecretHash;
    if (creds.asmKeyHash !== undefined) set.asm_key_hash = creds.asmKeyHash;
    if (Object.keys(set).length === 0) return;
    await this.#db.updateTable('users').set(set).where('id', '=', id).execute();
  }

  async touchLogin(id: string, at: string): Promise<void> {
    const when = isoTime(at);
    await this.#db
      .updateTable('users')
      .set((eb) => ({
        first_login_at: eb.fn.coalesce('first_login_at', eb.val(when)),
        last_login_at: when,
      }))
      .where('id', '=', id)
      .execute();
  }
}
