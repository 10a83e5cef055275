/**
 * `periscope ingest` as a user runs it, on hand-written zgrab2 lines: summary, rejected records
 * on stderr with their position, exit codes, gzip by content, stdin, dry runs, re-runs.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '../../../src/main/config.ts';
import { openRuntime } from '../../../src/main/runtime.ts';

const BIN = new URL('../../../bin/periscope.js', import.meta.url).pathname;
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'periscope-ingest-cli-'));
  dirs.push(d);
  return d;
}

const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PERISCOPE_')));

async function run(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { env: clean, encoding: 'utf8', timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (err as { code?: number }).code ?? 1 : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin!.end(input);
    else child.stdin!.end();
  });
}

const LINES = [
  JSON.stringify({
    ip: '192.0.2.50',
    data: {
      http: {
        status: 'success',
        protocol: 'http',
        timestamp: '2026-01-05T10:00:00Z',
        result: { response: { status_code: 200, protocol: { name: 'HTTP/1.1' }, headers: { server: ['nginx/1.18.0'] }, body: '<title>Hi</title>' } },
      },
      ssh: { status: 'connection-refused', protocol: 'ssh', timestamp: '2026-01-05T10:00:00Z' },
    },
  }),
  JSON.stringify({ ip: '192.0.2.51', data: { http: { status: 'success', protocol: 'http', timestamp: '2026-01-05T10:00:00Z', result: { response: { status_code: 404 } } } } }),
  '{"ip": "192.0.2.52", "data": {',
].join('\n') + '\n';

test('ingest a file: dry run writes nothing; summary on stdout, rejected lines on stderr, exit 3; a re-run changes nothing', async () => {
  const dir = tempDir();
  const file = join(dir, 'scan.jsonl');
  writeFileSync(file, LINES);
  const dry = await run(['ingest', '-d', join(dir, 'data'), '--dry-run', file]);
  assert.equal(dry.code, 3);
  assert.match(dry.stdout, /dry run \(nothing written\)/);
  assert.match(dry.stdout, /hosts: 2 created/);
  const r = await run(['ingest', '-d', join(dir, 'data'), file]);
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stdout, /scan\.jsonl: zgrab2/);
  assert.match(r.stdout, /3 records read \(2 host observations, 0 certificates\)/);
  assert.match(r.stdout, /hosts: 2 created, 0 updated, 0 unchanged/);
  assert.match(r.stdout, /services: 2 added, 0 changed, 0 removed/);
  assert.match(r.stdout, /rejected: 1/);
  assert.match(r.stderr, new RegExp(`${file.replace(/[.]/g, '\\.')}:line 3: rejected: `));

  const again = await run(['ingest', '-d', join(dir, 'data'), file]);
  assert.equal(again.code, 3);
  assert.match(again.stdout, /hosts: 0 created, 0 updated, 2 unchanged/);

  const rt = await openRuntime({ ...DEFAULTS, dataDir: join(dir, 'data'), logLevel: 'silent' });
  try {
    const h = await rt.store.documents.get('hosts', '192.0.2.50');
    assert.equal(h?.version, 1);
    const svc = (h?.doc.services as Record<string, unknown>[])[0];
    assert.equal(svc.port, 80);
    assert.equal(svc.service_name, 'HTTP');
    assert.equal(svc.perspective_id, 'PERSPECTIVE_ZGRAB2');
  } finally {
    await rt.close();
  }
});

test('gzip is recognised by content; stdin with a forced format; a clean input exits 0', async () => {
  const dir = tempDir();
  const good = LINES.split('\n').slice(0, 2).join('\n') + '\n';
  const gz = join(dir, 'scan-without-extension');
  writeFileSync(gz, gzipSync(good));
  const r = await run(['ingest', '-d', join(dir, 'data'), gz]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /hosts: 2 created/);
  const s = await run(['ingest', '-d', join(dir, 'data'), '--format', 'zgrab2', '-'], good);
  assert.equal(s.code, 0, s.stderr);
  assert.match(s.stdout, /stdin: zgrab2/);
  assert.match(s.stdout, /hosts: 0 created, 0 updated, 2 unchanged/);
});

test('usage errors exit 2', async () => {
  const dir = tempDir();
  const file = join(dir, 'scan.jsonl');
  writeFileSync(file, LINES);
  const unknown = await run(['ingest', '-d', join(dir, 'data'), '--format', 'nope', file]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown format 'nope'/);
});

test('an unrecognised input is reported, not guessed', async () => {
  const dir = tempDir();
  const file = join(dir, 'notes.txt');
  writeFileSync(file, 'hello, this is not scanner output\n');
  const r = await run(['ingest', '-d', join(dir, 'data'), file]);
  assert.equal(r.code, 3);
  assert.match(r.stdout, /notes\.txt: format not recognised/);
  assert.match(r.stderr, /notes\.txt:start: rejected: format not recognised/);
});

test('a folder of PEM certificates ingests with one command, recursively, in name order', async () => {
  const dir = tempDir();
  const certs = join(dir, 'certs');
  const nested = join(certs, 'more');
  const { mkdirSync, copyFileSync } = await import('node:fs');
  mkdirSync(nested, { recursive: true });
  const fixture = (name: string) => new URL(`../../fixtures/certificates/${name}`, import.meta.url).pathname;
  copyFileSync(fixture('leaf.pem'), join(certs, 'a-leaf.pem'));
  copyFileSync(fixture('intermediate.pem'), join(nested, 'b-intermediate.pem'));
  copyFileSync(fixture('root.pem'), join(nested, 'c-root.pem'));
  writeFileSync(join(certs, '.hidden.pem'), 'not read');
  const r = await run(['ingest', '--data-dir', join(dir, 'data'), certs]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /certificates: 3 new/);
  assert.match(r.stdout, /a-leaf\.pem: pem[\s\S]*b-intermediate\.pem: pem[\s\S]*c-root\.pem: pem/);
  assert.doesNotMatch(r.stdout, /hidden/);
});
