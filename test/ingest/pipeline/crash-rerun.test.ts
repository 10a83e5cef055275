/**
 * An ingest killed at a random moment leaves whole batches, and running the same input again
 * ends with exactly the store a single clean run produces (current documents and history).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '../../../src/main/config.ts';
import { openRuntime } from '../../../src/main/runtime.ts';
import { dumpStore } from './helpers.ts';
import { BATCH, RECORDS } from './crash-child.ts';

const CHILD = new URL('./crash-child.ts', import.meta.url).pathname;

/** Runs the child; with `killAfter`, SIGKILLs it a random moment after that many batches. */
function runChild(dir: string, killAfter?: number): Promise<{ finished: boolean; batches: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let batches = 0;
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      batches = (out.match(/^batch /gm) ?? []).length;
      if (killAfter !== undefined && batches >= killAfter && !child.killed) {
        setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 15));
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal !== 'SIGKILL') reject(new Error(`child failed (${code}): ${err}`));
      else resolve({ finished: out.includes('done\n'), batches });
    });
  });
}

async function dump(dir: string): Promise<string> {
  const rt = await openRuntime({ ...DEFAULTS, dataDir: dir, logLevel: 'silent' });
  try {
    return await dumpStore(rt.store);
  } finally {
    await rt.close();
  }
}

test('killed mid-ingest, then re-run: the store equals a clean single run', { timeout: 120_000 }, async () => {
  const cleanDir = mkdtempSync(join(tmpdir(), 'periscope-clean-'));
  const crashDir = mkdtempSync(join(tmpdir(), 'periscope-crash-'));
  try {
    const clean = await runChild(cleanDir);
    assert.ok(clean.finished);
    assert.equal(clean.batches, RECORDS / BATCH);
    const expected = await dump(cleanDir);
    assert.ok(expected.length > 0);

    const killAfter = 1 + Math.floor(Math.random() * (RECORDS / BATCH - 3));
    const crashed = await runChild(crashDir, killAfter);
    assert.equal(crashed.finished, false, `killed after batch ${killAfter}`);
    const partial = await dump(crashDir);
    assert.notEqual(partial, expected, 'the first run was cut short');

    const rerun = await runChild(crashDir);
    assert.ok(rerun.finished);
    assert.equal(await dump(crashDir), expected);
  } finally {
    rmSync(cleanDir, { recursive: true, force: true });
    rmSync(crashDir, { recursive: true, force: true });
  }
});
