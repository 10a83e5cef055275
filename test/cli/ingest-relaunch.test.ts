/**
 * `bin/periscope.js ingest` runs the command again in a node with a larger young generation:
 * the flag reaches it, and a signal sent to the launcher alone (a timeout, a supervisor) stops it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const BIN = new URL('../../bin/periscope.js', import.meta.url).pathname;

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    for (const c of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) if (c.trim()) out.push(Number(c));
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

test('ingest runs in a relaunched node with --max-semi-space-size, which stops with its launcher', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-relaunch-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PERISCOPE_') && k !== 'NODE_OPTIONS'));
  // Standard input left open: the command waits for records until it is stopped.
  const launcher = spawn(process.execPath, [BIN, 'ingest', '--data-dir', dir, '-'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
  try {
    let child: number | undefined;
    for (let i = 0; i < 600 && child === undefined; i++) {
      child = childrenOf(launcher.pid!)[0];
      if (child === undefined) await sleep(50);
    }
    assert.ok(child !== undefined, 'the launcher started the command');
    // Between fork and exec the child still shows the launcher's command line: wait for the exec.
    const relaunched = (): boolean => readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').includes('--max-semi-space-size=64');
    for (let i = 0; i < 600 && !relaunched(); i++) await sleep(50);
    assert.ok(relaunched(), 'the command runs with --max-semi-space-size=64');
    const exited = once(launcher, 'exit');
    launcher.kill('SIGTERM');
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    assert.deepEqual([code, signal], [null, 'SIGTERM']);
    for (let i = 0; i < 100 && alive(child); i++) await sleep(50);
    assert.equal(alive(child), false, 'the command stopped too');
  } finally {
    launcher.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
