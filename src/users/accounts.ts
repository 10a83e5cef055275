import type { Store, User } from '../store/store.ts';
import { hashAsmKey, hashSecret, newApiId, newSecret, verifySecret } from './credentials.ts';

export interface IssuedCredentials {
  readonly user: User;
  readonly apiId: string;
  readonly apiSecret: string;
  readonly asmKey: string;
}

export const DEFAULT_QUOTA = 250_000;

export interface NewAccount {
  email: string;
  role?: 'admin' | 'user';
  /** Existing workspace id; a new workspace named after the email is created when absent. */
  workspaceId?: string;
  quota?: number;
  apiId?: string;
  apiSecret?: string;
  asmKey?: string;
}

export async function createAccount(store: Store, account: NewAccount): Promise<IssuedCredentials> {
  const workspaceId = account.workspaceId ?? (await store.users.createWorkspace(account.email)).id;
  const apiId = account.apiId ?? newApiId();
  const apiSecret = account.apiSecret ?? newSecret();
  const asmKey = account.asmKey ?? newSecret();
  const user = await store.users.create({
    email: account.email,
    workspaceId,
    role: account.role ?? 'user',
    apiId,
    apiSecretHash: hashSecret(apiSecret),
    asmKeyHash: hashAsmKey(asmKey),
    quotaAllowance: account.quota ?? DEFAULT_QUOTA,
  });
  return { user, apiId, apiSecret, asmKey };
}

/**
 * Verifies Basic credentials. Successful checks are remembered for a minute so a busy client
 * does not pay a store round trip per request; a changed secret takes effect within that time.
 */
export class Authenticator {
  private readonly cache = new Map<string, { user: User; secret: string; until: number }>();

  constructor(private readonly store: Store, private readonly ttlMs = 60_000) {}

  async basic(apiId: string, secret: string): Promise<User | undefined> {
    const hit = this.cache.get(apiId);
    const now = Date.now();
    if (hit && hit.until > now && hit.secret === secret) return hit.user;
    const user = await this.store.users.byApiId(apiId);
    if (!user || !verifySecret(secret, user.apiSecretHash)) return undefined;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(apiId, { user, secret, until: now + this.ttlMs });
    return user;
  }

  async asmKey(key: string): Promise<User | undefined> {
    return this.store.users.byAsmKeyHash(hashAsmKey(key));
  }

  forget(apiId?: string): void {
    if (apiId) this.cache.delete(apiId);
    else this.cache.clear();
  }
}
