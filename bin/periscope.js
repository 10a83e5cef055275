#!/usr/bin/env node
// Runs the TypeScript sources through tsx's loader, so the command works straight from a checkout.
import { spawn } from 'node:child_process';

/**
 * `ingest` allocates short-lived objects on its main thread faster than node's default young
 * generation absorbs them (garbage collection was a quarter of its CPU, docs/BENCHMARK.md). V8
 * sizes the young generation only when it starts (v8.setFlagsFromString comes too late), so the
 * command runs again in a node started with a larger one, unless the flag was given already.
 */
const YOUNG_GENERATION = '--max-semi-space-size=64';

function hasYoungGenerationFlag() {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return given.some((a) => a.startsWith('--max-semi-space-size'));
}

if (process.argv[2] === 'ingest' && !hasYoungGenerationFlag()) {
  const child = spawn(process.execPath, [...process.execArgv, YOUNG_GENERATION, ...process.argv.slice(1)], { stdio: 'inherit' });
  // Signals sent to this process alone (a timeout, a supervisor) reach the command too.
  const forward = (signal) => child.kill(signal);
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, forward);
  child.on('exit', (code, signal) => {
    for (const s of signals) process.off(s, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exitCode = code ?? 1;
  });
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main/cli.ts');
}
