/**
 * `bin/periscope.js` runs some commands again in a node started differently: `ingest` with a
 * larger young generation, `serve` with glibc's mmap threshold fixed. The setting reaches the
 * command, a signal sent to the launcher alone (a timeout, a supervisor) stops it, and so does the
 * launcher's death (SIGKILL), so that no command is left running orphaned.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const BIN = new URL('../../bin/periscope.js', import.meta.url).pathname;
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PERISCOPE_') && !k.startsWith('MALLOC_') && k !== 'NODE_OPTIONS'));

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
  // Standard input left open: the command waits for records until it is stopped.
  const launcher = spawn(process.execPath, [BIN, 'ingest', '--data-dir', dir, '-'], { env: ENV, stdio: ['pipe', 'ignore', 'ignore'] });
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

function environOf(pid: number): Map<string, string> {
  const env = new Map<string, string>();
  for (const entry of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return env;
}

/** Starts `bin/periscope.js serve` on an empty data directory and waits for its banner. */
async function startServe(dir: string, env: NodeJS.ProcessEnv) {
  const launcher = spawn(process.execPath, [BIN, 'serve', '--no-demo', '--port', '0', '--data-dir', dir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  launcher.stdout.on('data', (d) => (out += d));
  launcher.stderr.on('data', (d) => (out += d));
  for (let i = 0; i < 1200 && !out.includes('Try:') && launcher.exitCode === null; i++) await sleep(50);
  assert.ok(out.includes('Try:'), `serve started:\n${out}`);
  return launcher;
}

test('serve runs with MALLOC_MMAP_THRESHOLD_ set, a larger young generation and heap, and stops when its launcher is killed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-relaunch-'));
  const launcher = await startServe(dir, ENV);
  const [child] = childrenOf(launcher.pid!);
  try {
    assert.ok(child !== undefined, 'the launcher started the server');
    const env = environOf(child);
    assert.equal(env.get('MALLOC_MMAP_THRESHOLD_'), '131072');
    assert.equal(env.get('MALLOC_TRIM_THRESHOLD_'), String(64 << 20));
    assert.equal(environOf(launcher.pid!).has('MALLOC_MMAP_THRESHOLD_'), false, 'the launcher itself runs without it');
    const cmdline = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
    assert.ok(cmdline.includes('--max-semi-space-size=64'), 'the server runs with --max-semi-space-size=64');
    const heap = cmdline.find((a) => a.startsWith('--max-old-space-size='));
    assert.equal(heap, `--max-old-space-size=${Math.max(4096, Math.floor(totalmem() / 2 / 2 ** 20))}`, 'the server\'s heap limit is half the machine\'s memory');
    // SIGKILL cannot be forwarded: the server notices its launcher is gone and stops.
    launcher.kill('SIGKILL');
    for (let i = 0; i < 400 && alive(child); i++) await sleep(50);
    assert.equal(alive(child), false, 'the server stopped with its launcher');
  } finally {
    launcher.kill('SIGKILL');
    // An orphan would hold this test's pipes open and hang the run instead of failing it.
    if (child !== undefined && alive(child)) process.kill(child, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('serve keeps an operator\'s MALLOC_MMAP_THRESHOLD_, young generation and heap limit, and is not relaunched for them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-relaunch-'));
  const launcher = await startServe(dir, { ...ENV, MALLOC_MMAP_THRESHOLD_: '262144', NODE_OPTIONS: '--max-semi-space-size=32 --max-old-space-size=3072' });
  try {
    assert.deepEqual(childrenOf(launcher.pid!), [], 'the server runs in the process started');
    assert.equal(environOf(launcher.pid!).get('MALLOC_MMAP_THRESHOLD_'), '262144');
    const exited = once(launcher, 'exit');
    launcher.kill('SIGTERM');
    assert.deepEqual(await exited, [0, null], 'SIGTERM stops the server cleanly');
  } finally {
    launcher.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a serve started through the launcher stops cleanly on SIGTERM, and on a signal sent to both', async () => {
  for (const both of [false, true]) {
    const dir = mkdtempSync(join(tmpdir(), 'periscope-relaunch-'));
    const launcher = await startServe(dir, ENV);
    try {
      const [child] = childrenOf(launcher.pid!);
      assert.ok(child !== undefined);
      const exited = once(launcher, 'exit');
      // A Ctrl-C on a terminal reaches both processes; the server also gets the forwarded one.
      // Apart, so that the kernel does not merge them into one.
      if (both) {
        process.kill(child, 'SIGINT');
        await sleep(30);
      }
      launcher.kill(both ? 'SIGINT' : 'SIGTERM');
      assert.deepEqual(await exited, [0, null], `exit code of the launcher (${both ? 'SIGINT to both' : 'SIGTERM to the launcher'})`);
      assert.equal(alive(child), false);
    } finally {
      launcher.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
