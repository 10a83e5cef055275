#!/usr/bin/env node
// Runs the TypeScript sources through tsx's loader, so the command works straight from a checkout.
import { spawn } from 'node:child_process';
import { totalmem } from 'node:os';

/**
 * `ingest` allocates short-lived objects on its main thread faster than node's default young
 * generation absorbs them (garbage collection was a quarter of its CPU, docs/BENCHMARK.md). So
 * does `serve` when it indexes many documents (its first start, a reload, bulk pushes): at 1M
 * hosts each scavenge also walks the pointers from the engine's old dictionaries to new values,
 * and a load of the 1M-host corpus paused 6,869 times for 93 s with the default, 1,489 times for
 * 36 s with this (docs/BENCHMARK.md, "Load into store plus index, session 15"). V8 sizes the young
 * generation only when it starts (v8.setFlagsFromString comes too late), so the command runs
 * again in a node started with a larger one, unless the flag was given already.
 */
const YOUNG_GENERATION = '--max-semi-space-size=64';

/**
 * `serve` loads its index with large native buffers (typed arrays, roaring containers). Freeing
 * them raises glibc's dynamic mmap threshold, after which the allocator keeps what it frees: a
 * server that loaded 1M hosts held 2.5 GB instead of 1.0 GB (docs/BENCHMARK.md, session 7).
 * glibc reads the fixed threshold from the environment only when a process starts, so `serve`
 * runs again with it unless the operator set it (to any value, kept as given).
 *
 * A fixed mmap threshold also fixes the trim threshold at glibc's default, 128 KB: whenever that
 * much was free at the top of the heap it went back to the system, and the next query's bitmaps
 * (145 KB per part for a copy of the live set, freed as soon as the query is done) took fresh
 * pages, zeroed by the kernel: 14% of a term query's time over ten parts, and 20% more queries
 * per second with 64 MB kept (docs/BENCHMARK.md, "10 parts: the collector"). Set with it, unless
 * the operator set it.
 */
const MMAP_THRESHOLD = ['MALLOC_MMAP_THRESHOLD_', '131072'];
const TRIM_THRESHOLD = ['MALLOC_TRIM_THRESHOLD_', String(64 << 20)];

/**
 * `serve` builds its search index in node's heap one part at a time (about 2.3 GB for a part of
 * 1M documents), next to the ids of every part already built (about 0.1 GB per million) and what
 * queries derive: past a few million documents that nears node's default limit here (4.1 GB),
 * and reaching it kills the server. It runs with half the machine's memory as its limit instead
 * (never less than 4 GB), unless the operator gave one (docs/ARCHITECTURE.md, "Engine parts").
 */
const OLD_SPACE = `--max-old-space-size=${Math.max(4096, Math.floor(totalmem() / 2 / 2 ** 20))}`;

/** Set in the relaunched command, so it knows to stop when its launcher is gone. */
const LAUNCHED = 'PERISCOPE_LAUNCHED';

function hasFlag(name) {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return given.some((a) => a.startsWith(name));
}

function relaunchWith() {
  if (process.env[LAUNCHED] !== undefined) return undefined;
  const command = process.argv[2];
  const flags = (command === 'ingest' || command === 'serve') && !hasFlag('--max-semi-space-size') ? [YOUNG_GENERATION] : [];
  if (command === 'serve' && !hasFlag('--max-old-space-size')) flags.push(OLD_SPACE);
  const env = {};
  if (command === 'serve' && process.platform === 'linux' && process.env[MMAP_THRESHOLD[0]] === undefined) {
    env[MMAP_THRESHOLD[0]] = MMAP_THRESHOLD[1];
    if (process.env[TRIM_THRESHOLD[0]] === undefined) env[TRIM_THRESHOLD[0]] = TRIM_THRESHOLD[1];
  }
  if (flags.length === 0 && Object.keys(env).length === 0) return undefined;
  return { flags, env };
}

const relaunch = relaunchWith();
if (relaunch) {
  const child = spawn(process.execPath, [...process.execArgv, ...relaunch.flags, ...process.argv.slice(1)], {
    // The IPC channel closes when this process dies, however it dies (even SIGKILL), which is how
    // the command learns that it has lost its launcher.
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...relaunch.env, [LAUNCHED]: String(process.pid) },
  });
  // Signals sent to this process alone (a timeout, a supervisor) reach the command too.
  const forward = (signal) => child.kill(signal);
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, forward);
  child.on('exit', (code, signal) => {
    if (signal) {
      // Dies the way the command died, so its parent sees the same thing.
      for (const s of signals) process.off(s, forward);
      process.kill(process.pid, signal);
    } else {
      // At once, with the handlers in place: a signal arriving between the command's exit and
      // this one's (the other half of a Ctrl-C, say) must not replace the command's exit code.
      // Left to end by itself, this process closed its signal handlers while it tore down, and a
      // signal arriving then killed it (2 runs in 12 of the launcher test).
      process.exit(code ?? 1);
    }
  });
} else {
  if (process.env[LAUNCHED] !== undefined && process.channel) {
    // The channel must not keep the command alive, and its end means the launcher died without
    // forwarding a signal: the command stops as it would on SIGTERM, instead of running orphaned.
    process.channel.unref();
    process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  }
  // Children this command starts are not relaunched commands.
  delete process.env[LAUNCHED];
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main/cli.ts');
}
