/**
 * The admin account of an instance. Created on first start; its credentials are written to
 * `<dataDir>/credentials.json` (mode 0600) so later starts can print them again, since the store
 * keeps only hashes. PERISCOPE_ADMIN_API_ID / _API_SECRET / _ASM_KEY make them deterministic.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../store/store.ts';
import { createAccount } from '../users/accounts.ts';
import { hashAsmKey, hashSecret, newApiId, newSecret } from '../users/credentials.ts';

export const ADMIN_EMAIL = 'admin@periscope.local';

export interface AdminCredentials {
  email: string;
  apiId: string;
  apiSecret?: string;
  asmKey?: string;
  created: boolean;
}

function credentialsFile(dataDir: string): string {
  return join(dataDir, 'credentials.json');
}

function save(dataDir: string, creds: { email: string; apiId: string; apiSecret: string; asmKey: string }): void {
  mkdirSync(dataDir, { recursive: true });
  const file = credentialsFile(dataDir);
  writeFileSync(file, JSON.stringify(creds, null, 2) + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
}

function load(dataDir: string, apiId: string): { apiSecret?: string; asmKey?: string } {
  const file = credentialsFile(dataDir);
  if (!existsSync(file)) return {};
  try {
    const c = JSON.parse(readFileSync(file, 'utf8'));
    return c.apiId === apiId ? { apiSecret: c.apiSecret, asmKey: c.asmKey } : {};
  } catch {
    return {};
  }
}

export async function ensureAdmin(store: Store, dataDir: string, env: NodeJS.ProcessEnv): Promise<AdminCredentials> {
  const wanted = {
    apiId: env.PERISCOPE_ADMIN_API_ID || undefined,
    apiSecret: env.PERISCOPE_ADMIN_API_SECRET || undefined,
    asmKey: env.PERISCOPE_ADMIN_ASM_KEY || undefined,
  };
  const existing = await store.users.byEmail(ADMIN_EMAIL);
  if (!existing) {
    const issued = await createAccount(store, {
      email: ADMIN_EMAIL,
      role: 'admin',
      apiId: wanted.apiId ?? newApiId(),
      apiSecret: wanted.apiSecret ?? newSecret(),
      asmKey: wanted.asmKey ?? newSecret(),
    });
    save(dataDir, { email: ADMIN_EMAIL, apiId: issued.apiId, apiSecret: issued.apiSecret, asmKey: issued.asmKey });
    return { email: ADMIN_EMAIL, apiId: issued.apiId, apiSecret: issued.apiSecret, asmKey: issued.asmKey, created: true };
  }
  const known = load(dataDir, existing.apiId);
  if (wanted.apiId || wanted.apiSecret || wanted.asmKey) {
    // The environment asks for specific credentials: make the stored ones match.
    const apiId = wanted.apiId ?? existing.apiId;
    const apiSecret = wanted.apiSecret ?? known.apiSecret ?? newSecret();
    const asmKey = wanted.asmKey ?? known.asmKey ?? newSecret();
    await store.users.updateCredentials(existing.id, { apiId, apiSecretHash: hashSecret(apiSecret), asmKeyHash: hashAsmKey(asmKey) });
    save(dataDir, { email: ADMIN_EMAIL, apiId, apiSecret, asmKey });
    return { email: ADMIN_EMAIL, apiId, apiSecret, asmKey, created: false };
  }
  return { email: ADMIN_EMAIL, apiId: existing.apiId, ...known, created: false };
}
