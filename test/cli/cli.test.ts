/**
 * The `periscope` command as a user runs it: help, exit codes, import reports, first start,
 * second start, configuration precedence.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = new URL('../../bin/periscope.js', import.meta.url).pathname;
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'periscope-cli-'));
  dirs.push(d);
  return d;
}

const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PERISCOPE_')));

async function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await promisify(execFile)(process.execPath, [BIN, ...args], { env: { ...clean, ...env }, encoding: 'utf8', timeout: 120_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** Starts `serve`, resolves with its banner once it listens, and a function that stops it. */
function serve(args: string[], env: Record<string, string> = {}): Promise<{ banner: string; stop: () => Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: { ...clean, ...env } });
    let out = '';
    let errText = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start:\n${out}\n${errText}`));
    }, 120_000);
    child.stderr.on('data', (d) => (errText += d));
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Try:')) {
        clearTimeout(timer);
        resolve({
          banner: out,
          stop: () =>
            new Promise((res) => {
              child.once('exit', (code) => res(code));
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${out}\n${errText}`));
    });
  });
}

test('help for every command, exit 0; a bad option exits 2', async () => {
  for (const args of [['--help'], ['serve', '--help'], ['import', '--help'], ['demo', '--help'], ['users', '--help'], ['users', 'create', '--help'], ['ingest', '--help'], ['ct-sync', '--help']]) {
    const r = await run(args);
    assert.equal(r.code, 0, args.join(' '));
    assert.match(r.stdout, /Usage: periscope/);
  }
  assert.equal((await run(['serve', '--bogus'])).code, 2);
  assert.equal((await run(['import', '--index', 'planets', '-', '--data-dir', tempDir()])).code, 2);
  const badPort = await run(['serve', '--port', 'eighty', '--data-dir', tempDir()]);
  assert.equal(badPort.code, 2);
  assert.match(badPort.stderr, /port must be an integer/);
});

test('import reports bad lines by number, keeps good ones, and a second import changes nothing', async () => {
  const dir = tempDir();
  const file = join(dir, 'hosts.jsonl');
  const good = (ip: string, port: number) => JSON.stringify({ ip, services: [{ port, service_name: 'SSH', transport_protocol: 'TCP' }], last_updated_at: '2024-01-02T03:04:05Z' });
  writeFileSync(file, [good('10.0.0.1', 22), '{not json', good('10.0.0.2', 2222), JSON.stringify({ ip: '999.1.1.1' }), '', JSON.stringify({ ip: '10.0.0.3', services: [{ port: 'x' }] })].join('\n') + '\n');
  const first = await run(['import', '--index', 'hosts', file, '--data-dir', join(dir, 'data')]);
  assert.equal(first.code, 3, first.stderr);
  assert.match(first.stdout, /5 read, 2 created, 0 updated, 0 unchanged, 3 rejected/);
  assert.match(first.stderr, /hosts\.jsonl:2: rejected: invalid JSON/);
  assert.match(first.stderr, /hosts\.jsonl:4: rejected: invalid ip/);
  assert.match(first.stderr, /hosts\.jsonl:6: rejected: services\[0\]\.port/);
  const second = await run(['import', '--index', 'hosts', file, '--data-dir', join(dir, 'data')]);
  assert.match(second.stdout, /5 read, 0 created, 0 updated, 2 unchanged, 3 rejected/);
});

test('first start creates the admin, second start reuses data and credentials; config precedence', async () => {
  const dir = tempDir();
  const env = { PERISCOPE_DEMO_HOSTS: '150', PERISCOPE_DEMO_CERTIFICATES: '40', PERISCOPE_LOG_LEVEL: 'silent' };
  const first = await serve(['--data-dir', dir], env);
  const id = /API id:\s+(\S+)/.exec(first.banner)![1];
  const secret = /API secret:\s+(\S+)/.exec(first.banner)![1];
  const base = /serving (\S+)/.exec(first.banner)![1];
  assert.match(first.banner, /15\d hosts, 40 certificates/);
  const res = await fetch(`${base}/v1/account`, { headers: { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` } });
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as { email: string }).email, 'admin@periscope.local');
  assert.equal(await first.stop(), 0);

  const second = await serve(['--data-dir', dir], env);
  assert.equal(/API secret:\s+(\S+)/.exec(second.banner)![1], secret);
  assert.match(second.banner, /15\d hosts, 40 certificates/);
  await second.stop();

  // Deterministic admin credentials from the environment.
  const third = await serve(['--data-dir', dir], { ...env, PERISCOPE_ADMIN_API_ID: 'fixed-id', PERISCOPE_ADMIN_API_SECRET: 'fixed-secret' });
  assert.match(third.banner, /API id:\s+fixed-id/);
  const b3 = /serving (\S+)/.exec(third.banner)![1];
  const ok = await fetch(`${b3}/v1/account`, { headers: { authorization: `Basic ${Buffer.from('fixed-id:fixed-secret').toString('base64')}` } });
  assert.equal(ok.status, 200);
  await third.stop();

  // flags > environment > config file
  const cfg = join(tempDir(), 'periscope.json');
  writeFileSync(cfg, JSON.stringify({ host: '127.0.0.2', dataDir: join(tempDir(), 'from-file'), demo: { enabled: false } }));
  const fromFile = await serve(['--config', cfg], { PERISCOPE_LOG_LEVEL: 'silent' });
  assert.match(fromFile.banner, /serving http:\/\/127\.0\.0\.2:\d+\/api/);
  assert.match(fromFile.banner, /from-file.*0 hosts, 0 certificates/);
  await fromFile.stop();
  const fromEnv = await serve(['--config', cfg], { PERISCOPE_LOG_LEVEL: 'silent', PERISCOPE_HOST: '127.0.0.3' });
  assert.match(fromEnv.banner, /serving http:\/\/127\.0\.0\.3:/);
  await fromEnv.stop();
  const fromFlag = await serve(['--config', cfg, '--host', '127.0.0.4'], { PERISCOPE_LOG_LEVEL: 'silent', PERISCOPE_HOST: '127.0.0.3' });
  assert.match(fromFlag.banner, /serving http:\/\/127\.0\.0\.4:/);
  await fromFlag.stop();
});

test('users create, list, rotate, delete', async () => {
  const dir = tempDir();
  const created = await run(['users', 'create', '--email', 'ana@example.test', '--quota', '10', '--json', '--data-dir', dir]);
  assert.equal(created.code, 0, created.stderr);
  const u = JSON.parse(created.stdout);
  assert.match(u.api_id, /^[0-9a-f-]{36}$/);
  assert.equal((await run(['users', 'create', '--email', 'ana@example.test', '--data-dir', dir])).code, 2);
  assert.equal((await run(['users', 'create', '--email', 'not-an-email', '--data-dir', dir])).code, 2);
  const list = JSON.parse((await run(['users', 'list', '--json', '--data-dir', dir])).stdout);
  assert.deepEqual(list.map((x: { email: string }) => x.email), ['ana@example.test']);
  const rotated = JSON.parse((await run(['users', 'rotate', 'ana@example.test', '--json', '--data-dir', dir])).stdout);
  assert.notEqual(rotated.api_secret, u.api_secret);
  assert.equal((await run(['users', 'delete', 'ana@example.test', '--data-dir', dir])).code, 0);
  assert.equal((await run(['users', 'delete', 'ana@example.test', '--data-dir', dir])).code, 2);
});
