#!/usr/bin/env node
// Runs every *.test.ts under src/, test/ and bench/ with node's test runner through tsx. Node 20's
// `node --test` does not discover .ts files by itself, so the files are listed here.
// Usage: npm test [-- <substring filter>...]
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);
const files = [];
function walk(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.test.ts')) files.push(relative(root, p));
  }
}
for (const d of ['src', 'test', 'bench']) {
  try { walk(join(root, d)); } catch { /* folder absent */ }
}
files.sort();
const selected = filters.length ? files.filter((f) => filters.some((x) => f.includes(x))) : files;
if (selected.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
console.log(`running ${selected.length} test files`);
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...selected], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test' },
});
process.exit(r.status ?? 1);
