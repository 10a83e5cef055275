/**
 * A real Periscope (SQLite store, embedded engine, Fastify app) on a temporary data directory,
 * loaded with a small deterministic demo dataset, for HTTP and client tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DEFAULTS, type Config } from '../../src/main/config.ts';
import { openRuntime, type Runtime } from '../../src/main/runtime.ts';
import { loadDemo } from '../../src/main/load-demo.ts';
import { buildApp } from '../../src/api/app.ts';
import { createAccount, type IssuedCredentials } from '../../src/users/accounts.ts';

export interface TestServer {
  app: FastifyInstance;
  rt: Runtime;
  admin: IssuedCredentials;
  /** Same workspace rules, a separate workspace. */
  other: IssuedCredentials;
  /** A user whose quota allows 1 query. */
  low: IssuedCredentials;
  dataDir: string;
  basic(creds?: IssuedCredentials): string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  hosts?: number;
  certificates?: number;
  rateLimit?: { requests: number; windowSeconds: number };
  bodyLimit?: number;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'periscope-test-'));
  const config: Config = {
    ...DEFAULTS,
    dataDir,
    port: 0,
    logLevel: 'silent',
    rateLimit: options.rateLimit ?? { requests: 0, windowSeconds: 60 },
    bodyLimit: options.bodyLimit ?? DEFAULTS.bodyLimit,
  };
  const rt = await openRuntime(config);
  await loadDemo(rt.indexer, { hosts: options.hosts ?? 400, certificates: options.certificates ?? 120, quiet: true });
  const admin = await createAccount(rt.store, { email: 'admin@example.test', role: 'admin' });
  const other = await createAccount(rt.store, { email: 'other@example.test' });
  const low = await createAccount(rt.store, { email: 'low@example.test', quota: 1 });
  // ASM discovery follows the indexer, so tests get assets by adding seeds and putting documents.
  await rt.startDiscovery({ catchUp: false });
  const app = await buildApp({ ctx: rt.ctx, auth: rt.auth, rateLimit: config.rateLimit, bodyLimit: config.bodyLimit, logger: false, version: 'test', asm: rt.asm });
  return {
    app,
    rt,
    admin,
    other,
    low,
    dataDir,
    basic: (creds = admin) => `Basic ${Buffer.from(`${creds.apiId}:${creds.apiSecret}`).toString('base64')}`,
    async close() {
      await app.close();
      await rt.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
