import { createHash } from 'node:crypto';
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
 * Verifies Basic credentials. Successful checks are remembered for a minute, keyed by a digest of
 * the id and secret (no secret is kept in memory), so a busy client pays neither a store round
 * trip nor a hash check per request; a changed secret takes effect within that time, at once in
 * this process through `forget`.
 */
export class Authenticator {
  private readonly cache = new Map<string, { user: User; until: number }>();

  constructor(private readonly store: Store, private readonly ttlMs = 60_000) {}

  async basic(apiId: string, secret: string): Promise<User | undefined> {
    const key = createHash('sha256').update(apiId).update('\0').update(secret).digest('base64');
    const hit = this.cache.get(key);
    const now = Date.now();
    if (hit && hit.until > now) return hit.user;
    const user = await this.store.users.byApiId(apiId);
    if (!user || !verifySecret(secret, user.apiSecretHash)) return undefined;
    if (this.cache.size >= 10_000) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { user, until: now + this.ttlMs });
    return user;
  }

  async asmKey(key: string): Promise<User | undefined> {
    return this.store.users.byAsmKeyHash(hashAsmKey(key));
  }

  forget(apiId?: string): void {
    if (apiId === undefined) this.cache.clear();
    else for (const [key, hit] of this.cache) if (hit.user.apiId === apiId) this.cache.delete(key);
  }
}
