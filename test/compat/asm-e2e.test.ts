/**
 * Issue 5's "done when", as a new user runs it, with real processes: `periscope serve` on an empty
 * data directory; the real censys-python 2.1.9 (`/usr/bin/python3`) adds a CIDR seed through its
 * `censys asm add-seeds` command and a DOMAIN_NAME seed through AsmClient; crafted zgrab2 output
 * (test/fixtures/asm-e2e) is pushed to POST /api/admin/v1/ingest, then more is written with
 * `periscope ingest` and the server restarted; after each step the client reads the discovered
 * hosts, subdomains and certificates, their risks, the logbook and the inventory.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PYTHON, assertPython } from './run-python.ts';

const BIN = 'bin/periscope.js';
const FIXTURES = 'test/fixtures/asm-e2e';
const WWW_CERT = 'cd84ff67b32e552c6e45d517e541f3c5052aa9581728addac391d74831f6d958';
const VPN_CERT = '73750b6bdef0b889db3b3ff10684ffc032cf8009183aef5e6e79d1ddd179660a';
const CA_CERT = '7d0ee8a64f7252a059d0ef9f9af4f9250e555b25d8c9fdef2edcb1adf69f3eb5';
/**
 * The 2.1.9 CLI has no URL option (contract: it always builds its classes with app.censys.io), so
 * the README runs the unchanged command with the ASM classes' default URL pointed at Periscope.
 */
const CENSYS_CLI = 'import sys, censys.asm.api as a, censys.cli as c; a.CensysAsmAPI.DEFAULT_URL = sys.argv.pop(1); sys.argv[0] = "censys"; c.main()';

const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PERISCOPE_') && !k.startsWith('CENSYS_')));
const pyEnv = { ...clean, CENSYS_CONFIG_PATH: '/nonexistent/censys.cfg', PYTHONDONTWRITEBYTECODE: '1' };

interface Server {
  base: string;
  asmKey: string;
  stop(): Promise<void>;
}

/** `periscope serve` as a user starts it; resolves once it printed its banner. */
function serve(dataDir: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--no-demo', '--data-dir', dataDir, '--port', '0', '--log-level', 'silent'], { env: clean });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start:\n${out}\n${err}`));
    }, 120_000);
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      if (!out.includes('Try:')) return;
      clearTimeout(timer);
      const exited = new Promise<void>((res) => child.once('exit', () => res()));
      resolve({
        base: /serving (\S+)/.exec(out)![1],
        asmKey: /ASM key: +(\S+)/.exec(out)![1],
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${out}\n${err}`));
    });
  });
}

async function periscope(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [BIN, ...args], { env: clean, encoding: 'utf8', timeout: 120_000 });
}

async function python(args: string[], env: Record<string, string>): Promise<string> {
  const r = await promisify(execFile)(PYTHON, ['-W', 'ignore::DeprecationWarning', ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...pyEnv, ...env },
  });
  return r.stdout;
}

async function client(step: 'seed' | 'read', server: Server, extra: Record<string, string> = {}): Promise<Record<string, any>> {
  return JSON.parse(await python(['test/compat/asm_e2e_2_1_9.py', step], { PERISCOPE_URL: server.base, PERISCOPE_ASM_KEY: server.asmKey, ...extra }));
}

/** Polls the risk instances until every expected `asset type` pair is open (discovery and risk evaluation may trail the write). */
async function settled(server: Server, expected: readonly string[]): Promise<void> {
  let seen: string[] = [];
  for (let i = 0; i < 240; i++) {
    const res = await fetch(`${server.base}/v2/risk-instances`, { headers: { 'Censys-Api-Key': server.asmKey } });
    const body = (await res.json()) as { risks: { assetID: string; typeID: string; status: string }[] };
    seen = body.risks.filter((r) => r.status === 'open').map((r) => `${r.assetID} ${r.typeID}`);
    if (expected.every((e) => seen.includes(e))) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`risks never settled; open: ${seen.join(', ')}`);
}

const FIRST_RISKS = [
  '172.105.10.20 service.http.login_over_plaintext',
  '172.105.10.20 service.http.missing_security_headers',
  '45.33.40.2 service.http.missing_hsts',
  '45.33.40.2 service.http.missing_security_headers',
  '45.33.40.2 software.eol.nginx',
  '45.33.40.2 software.vulnerable.nginx_resolver',
  '45.33.40.2 tls.certificate.untrusted_chain',
  '45.33.40.3 service.database.redis_exposed',
  '45.33.40.3 service.database.redis_no_auth',
  '45.33.40.3 software.vulnerable.openssh_regresshion',
  '45.33.40.5 service.remote_access.telnet_exposed',
  '45.33.40.6 tls.certificate.self_signed',
  `${VPN_CERT} cert.self_signed`,
  `${WWW_CERT} cert.untrusted`,
];
const SECOND_RISKS = [...FIRST_RISKS, '45.33.40.9 service.database.mysql_exposed'].sort();

let dir: string;
let server: Server | undefined;
let cli: { stdout: string; stderr: string };
let seeded: Record<string, any>;
let pushed: Record<string, any>;
let first: Record<string, any>;
let ingested: { stdout: string; stderr: string };
let second: Record<string, any>;
let otherKey: string;
let api: Record<string, any>;

async function get(server: Server, path: string): Promise<any> {
  const res = await fetch(`${server.base}${path}`, { headers: { 'Censys-Api-Key': server.asmKey } });
  assert.equal(res.status, 200, path);
  return res.json();
}

before(async () => {
  assertPython();
  dir = mkdtempSync(join(tmpdir(), 'periscope-asm-e2e-'));
  const dataDir = join(dir, 'data');
  server = await serve(dataDir);

  // 1. Seeds: the CIDR through the censys CLI, the domain through AsmClient.
  cli = await promisify(execFile)(PYTHON, ['-c', CENSYS_CLI, server.base, 'asm', 'add-seeds', '--api-key', server.asmKey, '--default-type', 'CIDR', '--json', '["45.33.40.0/28"]'], {
    encoding: 'utf8',
    timeout: 120_000,
    env: pyEnv,
  });
  seeded = await client('seed', server);

  // 2. Scan data pushed to the running server with the ingest token from credentials.json.
  const token = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')).ingestToken as string;
  const res = await fetch(`${server.base}/admin/v1/ingest?format=auto`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: readFileSync(join(FIXTURES, 'scan-1.jsonl')),
  });
  assert.equal(res.status, 200);
  pushed = (await res.json()) as Record<string, any>;
  await settled(server, FIRST_RISKS);
  first = await client('read', server);

  // 3. More scan data written by `periscope ingest` while the server runs, and a second user; the
  //    server indexes store writes of other commands when it starts, so restart it.
  ingested = await periscope(['ingest', '--data-dir', dataDir, join(FIXTURES, 'scan-2.jsonl')]);
  otherKey = JSON.parse((await periscope(['users', 'create', '--data-dir', dataDir, '--email', 'other@acme-e2e.io', '--json'])).stdout).asm_api_key;
  await server.stop();
  server = await serve(dataDir);
  await settled(server, SECOND_RISKS);
  second = await client('read', server, { PERISCOPE_OTHER_ASM_KEY: otherKey });
  // The newest client's paths, straight over HTTP.
  api = {
    subdomains: (await get(server, '/v1/assets/subdomains')).subdomains.map((s: any) => s.subdomain),
    webEntities: (await get(server, '/v1/assets/web-entities')).assets.map((a: any) => a.assetId),
    risk: (await get(server, `/v2/risk-instances/${(await get(server, '/v2/risk-instances')).risks.find((r: any) => r.assetID === '45.33.40.9').id}`)).context,
  };
});

after(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('it is the 2.1.9 client', () => {
  assert.equal(first.client_version, '2.1.9');
});

test('the censys CLI adds the CIDR seed and AsmClient the domain seed', () => {
  assert.match(cli.stdout, /Added 1 seeds\./);
  assert.deepEqual(seeded.added, ['DOMAIN_NAME acme-e2e.io acme']);
  assert.deepEqual(seeded.skipped, []);
  assert.deepEqual(seeded.seeds, ['CIDR 45.33.40.0/28 ', 'DOMAIN_NAME acme-e2e.io acme']);
});

test('the ingest endpoint takes the zgrab2 push', () => {
  assert.equal(pushed.format, 'zgrab2');
  assert.equal(pushed.rejected.count, 0);
  // Six lines, three of them with a domain (also a virtual host); www's CA comes with its chain.
  assert.deepEqual({ records: pushed.records, created: pushed.hosts.created, certificates: pushed.certificates.new }, { records: 9, created: 9, certificates: 3 });
});

test('hosts: those in the CIDR and those the domain names resolve to, nothing else', () => {
  assert.deepEqual(first.hosts, ['172.105.10.20', '45.33.40.2', '45.33.40.3', '45.33.40.5', '45.33.40.6']);
  assert.deepEqual(first.host_sources, ['CENSYS_SCAN']);
  assert.deepEqual(first.host_trails['45.33.40.3'], ['CIDR 45.33.40.0/28']);
  assert.deepEqual(first.host_trails['172.105.10.20'], ['DOMAIN_NAME acme-e2e.io', 'DOMAIN_NAME api.acme-e2e.io']);
  assert.deepEqual(first.redis_ports, [
    [22, 'SSH'],
    [6379, 'REDIS'],
  ]);
  assert.deepEqual(first.host_risks['45.33.40.3'], ['Exposed Redis server', 'OpenSSH regreSSHion (CVE-2024-6387)', 'Redis without authentication']);
});

test('the domain and its subdomains, from DNS names and certificate names', () => {
  assert.deepEqual(first.domains, ['acme-e2e.io']);
  assert.deepEqual(first.domain_subdomains, ['api.acme-e2e.io', 'vpn.acme-e2e.io', 'www.acme-e2e.io']);
  // vpn is only named by the self-signed certificate, so it resolves to nothing.
  assert.deepEqual(first.subdomains, { 'api.acme-e2e.io': ['172.105.10.20'], 'vpn.acme-e2e.io': [], 'www.acme-e2e.io': ['45.33.40.2'] });
  for (const trail of Object.values(first.subdomain_trails)) assert.deepEqual(trail, ['DOMAIN_NAME acme-e2e.io']);
});

test('certificates: the two presented leaves, not the CA of the chain', () => {
  assert.deepEqual(Object.keys(first.certificates).sort(), [VPN_CERT, WWW_CERT]);
  assert.ok(!(CA_CERT in first.certificates));
  assert.deepEqual(first.certificates[WWW_CERT], {
    names: ['www.acme-e2e.io', 'acme-e2e.io'],
    selfSigned: false,
    valid: false,
    ownership: 'OWNED_BY',
    presentedBy: ['45.33.40.2'],
    risks: ['CERT_RISK'],
  });
  assert.deepEqual(first.certificates[VPN_CERT].presentedBy, ['45.33.40.6']);
  assert.equal(first.certificates[VPN_CERT].selfSigned, true);
  assert.deepEqual(first.certificate_trails[VPN_CERT], ['CIDR 45.33.40.0/28', 'IP_ADDRESS 45.33.40.6']);
});

test('risks: Risksv2 instances and the v1 rows', () => {
  assert.deepEqual(
    first.risk_instances,
    [...FIRST_RISKS].sort().map((r) => `${r} open`),
  );
  assert.ok(first.risk_display_names.includes('Exposed Telnet on 45.33.40.5:23'));
  assert.equal(first.risks_v1['service.http.missing_security_headers'], 2);
  assert.equal(first.risks_v1['service.database.redis_exposed'], 1);
  assert.equal(Object.keys(first.risks_v1).length, 13);
});

test('the logbook, paged to its end, holds the events that led there', () => {
  const ids = first.event_ids as number[];
  assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
  assert.equal(new Set(ids).size, ids.length);
  const events = first.events as string[];
  for (const ip of ['172.105.10.20', '45.33.40.2', '45.33.40.3', '45.33.40.5', '45.33.40.6']) {
    assert.ok(events.includes(`HOST ASSOCIATE {"ipAddress": "${ip}"}`), ip);
  }
  assert.ok(!events.some((e) => e.includes('172.105.10.99') || e.includes('unrelated')));
  for (const e of [
    'DOMAIN ASSOCIATE {"domain": "acme-e2e.io"}',
    'SUBDOMAIN ASSOCIATE {"domain": "acme-e2e.io", "subdomain": "vpn.acme-e2e.io"}',
    `CERT ASSOCIATE {"sha256": "${VPN_CERT}"}`,
    `CERT ASSOCIATE {"sha256": "${WWW_CERT}"}`,
  ]) {
    assert.ok(events.includes(e), e);
  }
  // The redis host: associated, its port added, then the risk opened on it.
  const at = (e: string) => events.indexOf(e);
  assert.ok(at('HOST ASSOCIATE {"ipAddress": "45.33.40.3"}') < at('HOST_PORT ADD {"ipAddress": "45.33.40.3"}'));
  assert.ok(at('HOST_PORT ADD {"ipAddress": "45.33.40.3"}') < at('HOST_RISK ADD {"ipAddress": "45.33.40.3"}'));
  assert.ok(first.risk_events.includes('HOST_RISK 45.33.40.3 service.database.redis_exposed'));
  assert.ok(first.risk_events.includes(`CERT_RISK ${VPN_CERT} cert.self_signed`));
});

test('inventory search', () => {
  assert.deepEqual(first.inventory_redis, ['45.33.40.3']);
  assert.deepEqual(first.inventory_self_signed, [VPN_CERT]);
  assert.deepEqual(first.inventory_mysql, []);
});

test('`periscope ingest` writes to the store and says a running server needs a restart', () => {
  assert.match(ingested.stdout, /hosts: 3 created/);
  assert.match(ingested.stdout, /A running server picks these up when it restarts/);
});

test('after the restart the CLI-ingested hosts are discovered, with their subdomain, risks and logbook events', () => {
  assert.deepEqual(second.hosts, ['172.105.10.20', '172.105.10.21', '45.33.40.2', '45.33.40.3', '45.33.40.5', '45.33.40.6', '45.33.40.9']);
  assert.deepEqual(second.host_trails['45.33.40.9'], ['CIDR 45.33.40.0/28']);
  assert.deepEqual(second.subdomains['dev.acme-e2e.io'], ['172.105.10.21']);
  assert.deepEqual(second.risk_instances, SECOND_RISKS.map((r) => `${r} open`));
  assert.deepEqual(second.inventory_mysql, ['45.33.40.9']);
  const events = second.events as string[];
  assert.ok(events.includes('HOST ASSOCIATE {"ipAddress": "45.33.40.9"}'));
  assert.ok(events.includes('HOST ASSOCIATE {"ipAddress": "172.105.10.21"}'));
  assert.ok(events.includes('SUBDOMAIN ASSOCIATE {"domain": "acme-e2e.io", "subdomain": "dev.acme-e2e.io"}'));
  assert.ok(second.risk_events.includes('HOST_RISK 45.33.40.9 service.database.mysql_exposed'));
  // The first session's events are kept, under the same ids, and nothing is associated twice.
  assert.deepEqual(second.event_ids.slice(0, first.event_ids.length), first.event_ids);
  assert.deepEqual(second.events.slice(0, first.events.length), first.events);
  const associations = events.filter((e) => e.startsWith('HOST ASSOCIATE'));
  assert.equal(new Set(associations).size, associations.length);
});

test('the newest paths over HTTP: subdomains, web entities, one risk instance', () => {
  assert.deepEqual(api.subdomains, ['api.acme-e2e.io', 'dev.acme-e2e.io', 'vpn.acme-e2e.io', 'www.acme-e2e.io']);
  for (const w of ['45.33.40.6:8443', 'api.acme-e2e.io:80', 'www.acme-e2e.io:443', 'dev.acme-e2e.io:80']) assert.ok(api.webEntities.includes(w), w);
  assert.equal(api.risk.cri, 'cri:service:45.33.40.9:3306/tcp');
});

test("another user's workspace sees none of it", () => {
  assert.deepEqual(second.other, { hosts: [], certificates: [], risks: [], events: [] });
});
