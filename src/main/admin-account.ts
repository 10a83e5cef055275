/**
 * The admin account of an instance. Created on first start; its credentials are written to
 * `<dataDir>/credentials.json` (mode 0600) so later starts can print them again, since the store
 * keeps only hashes. PERISCOPE_ADMIN_API_ID / _API_SECRET / _ASM_KEY make them deterministic.
 * The ingest endpoint's token lives in the same file (`ingestToken`); PERISCOPE_INGEST_TOKEN sets it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../store/store.ts';
import { createAccount } from '../users/accounts.ts';
import { hashAsmKey, hashSecret, newApiId, newSecret } from '../users/credentials.ts';
import { INGEST_TOKEN_SETTING, ingestTokenHash } from '../api/routes/admin-ingest.ts';

export const ADMIN_EMAIL = 'admin@periscope.local';

export interface AdminCredentials {
  email: string;
  apiId: string;
  apiSecret?: string;
  asmKey?: string;
  created: boolean;
  /** The ingest endpoint's bearer token, when known (env or credentials file). */
  ingestToken?: string;
}

function credentialsFile(dataDir: string): string {
  return join(dataDir, 'credentials.json');
}

function readFile(dataDir: string): Record<string, unknown> {
  const file = credentialsFile(dataDir);
  if (!existsSync(file)) return {};
  try {
    const c = JSON.parse(readFileSync(file, 'utf8'));
    return c && typeof c === 'object' ? c : {};
  } catch {
    return {};
  }
}

function write(dataDir: string, content: Record<string, unknown>): void {
  mkdirSync(dataDir, { recursive: true });
  const file = credentialsFile(dataDir);
  writeFileSync(file, JSON.stringify(content, null, 2) + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** Writes the admin credentials, keeping the ingest token already in the file. */
function save(dataDir: string, creds: { email: string; apiId: string; apiSecret: string; asmKey: string }): void {
  const old = readFile(dataDir);
  write(dataDir, typeof old.ingestToken === 'string' ? { ...creds, ingestToken: old.ingestToken } : creds);
}

/**
 * The ingest endpoint's token: PERISCOPE_INGEST_TOKEN when set; otherwise the one in the
 * credentials file; otherwise a new one, written there. The store keeps only its SHA-256.
 */
export async function ensureIngestToken(store: Store, dataDir: string, env: NodeJS.ProcessEnv): Promise<{ token?: string; created: boolean }> {
  const fromEnv = env.PERISCOPE_INGEST_TOKEN || undefined;
  const stored = await store.settings.get(INGEST_TOKEN_SETTING);
  if (fromEnv) {
    if (stored !== ingestTokenHash(fromEnv)) await store.settings.set(INGEST_TOKEN_SETTING, ingestTokenHash(fromEnv));
    return { token: fromEnv, created: false };
  }
  const inFile = readFile(dataDir).ingestToken;
  if (typeof inFile === 'string' && inFile.length > 0) {
    if (stored !== ingestTokenHash(inFile)) await store.settings.set(INGEST_TOKEN_SETTING, ingestTokenHash(inFile));
    return { token: inFile, created: false };
  }
  if (stored) return { created: false };
  const token = newSecret();
  write(dataDir, { ...readFile(dataDir), ingestToken: token });
  await store.settings.set(INGEST_TOKEN_SETTING, ingestTokenHash(token));
  return { token, created: true };
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
  const admin = await ensureAdminAccount(store, dataDir, env);
  const ingest = await ensureIngestToken(store, dataDir, env);
  return ingest.token ? { ...admin, ingestToken: ingest.token } : admin;
}

async function ensureAdminAccount(store: Store, dataDir: string, env: NodeJS.ProcessEnv): Promise<AdminCredentials> {
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
