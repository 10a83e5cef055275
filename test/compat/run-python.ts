/**
 * What the compat tests share: a test server listening on a real port, and one of the
 * test/compat/*_2_1_9.py scripts run with the real censys-python 2.1.9 client (Debian
 * python3-censys) against it; the script prints one JSON object, the test asserts on it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import type { TestServer } from '../support/test-server.ts';

export const PYTHON = '/usr/bin/python3';

export function assertPython(): void {
  assert.ok(existsSync(PYTHON), 'Debian python3 is required (apt-get install python3-censys)');
}

/** Starts the server on a free port; returns the base URL the clients are given. */
export async function listen(server: TestServer): Promise<string> {
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (server.app.server.address() as { port: number }).port;
  return `http://127.0.0.1:${port}/api`;
}

/** Runs `script` with `env` added to this process's environment and parses what it printed. */
export async function runPython(script: string, env: Record<string, string>): Promise<Record<string, any>> {
  // Asynchronous: the server answers from this same process while the client runs.
  const r = await promisify(execFile)(PYTHON, [script], {
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      // The Debian client must not pick up a user's own key or config.
      CENSYS_ASM_API_KEY: '',
      CENSYS_CONFIG_PATH: '/nonexistent/censys.cfg',
      // Importing asm_harness.py must not leave a __pycache__ in the tree.
      PYTHONDONTWRITEBYTECODE: '1',
      ...env,
    },
  });
  return JSON.parse(r.stdout);
}
