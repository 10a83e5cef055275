import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate, createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import type { HostObservation, IngestRecord, ServiceObservation } from '../observation.ts';
import { makeZgrab2Source, zgrab2Source } from './index.ts';

const FIXTURES = new URL('../../../test/fixtures/zgrab2/', import.meta.url).pathname;
const NOW = new Date('2025-06-01T00:00:00Z');

async function collect(records: AsyncIterable<IngestRecord>): Promise<IngestRecord[]> {
  const out: IngestRecord[] = [];
  for await (const r of records) out.push(r);
  return out;
}

async function readText(text: string, source = zgrab2Source): Promise<IngestRecord[]> {
  return collect(source.read(Readable.from([Buffer.from(text)]), { now: NOW }));
}

let fixtureRecords: Promise<IngestRecord[]> | undefined;
function fixture(): Promise<IngestRecord[]> {
  fixtureRecords ??= collect(zgrab2Source.read(createReadStream(`${FIXTURES}scan.jsonl`), { now: NOW }));
  return fixtureRecords;
}

async function hostAt(line: number, named = false): Promise<HostObservation> {
  const hosts = (await fixture()).filter((r) => r.kind === 'host' && r.position === `line ${line}` && (r.host.name !== undefined) === named);
  assert.equal(hosts.length, 1, `one ${named ? 'named ' : ''}host at line ${line}`);
  const r = hosts[0];
  assert.ok(r.kind === 'host');
  return r.host;
}

function servicePort(h: HostObservation, port: number): ServiceObservation {
  const s = h.services.find((x) => x.port === port);
  assert.ok(s, `service on ${port}`);
  return s;
}

function derOf(pemFile: string): Buffer {
  return execFileSync('openssl', ['x509', '-in', `${FIXTURES}${pemFile}`, '-outform', 'DER']);
}

test('fixture: record kinds and positions in order', async () => {
  const got = (await fixture()).map((r) => `${r.position}:${r.kind}`);
  assert.deepEqual(got, [
    'line 1:host', 'line 1:host', 'line 2:host', 'line 3:host', 'line 4:host', 'line 5:host', 'line 6:host',
    'line 8:host', 'line 9:rejected', 'line 10:rejected', 'line 11:rejected', 'line 12:host', 'line 13:host', 'line 14:rejected',
  ]);
});

test('http over TLS: Censys http object, canonical headers, title, hashes, HTTPS, software', async () => {
  const h = await hostAt(1);
  assert.equal(h.ip, '192.0.2.10');
  assert.equal(h.source, 'zgrab2');
  assert.equal(h.observedAt, '2024-01-15T10:00:01.000Z');
  assert.deepEqual(h.names, ['www.example.test']);
  const s = servicePort(h, 443);
  assert.equal(s.state, 'open');
  assert.equal(s.transport, 'TCP');
  assert.equal(s.serviceName, 'HTTP');
  assert.equal(s.extendedServiceName, 'HTTPS');
  const http = s.protocols?.http as { request: Record<string, unknown>; response: Record<string, unknown> };
  assert.equal(http.request.method, 'GET');
  assert.equal(http.request.uri, 'https://www.example.test/');
  assert.deepEqual(http.request.headers, { User_Agent: ['Mozilla/5.0 zgrab/0.x'], Accept: ['*/*'] });
  const res = http.response;
  assert.equal(res.status_code, 200);
  assert.equal(res.status_reason, 'OK');
  assert.equal(res.protocol, 'HTTP/1.1');
  assert.deepEqual(res.headers, {
    Server: ['nginx/1.18.0 (Ubuntu)'],
    Content_Type: ['text/html'],
    Date: ['Mon, 15 Jan 2024 10:00:00 GMT'],
    X_Frame_Options: ['SAMEORIGIN'],
    X_Backend_Node: ['web-3'],
  });
  assert.equal(res.html_title, 'Welcome to nginx!');
  assert.deepEqual(res.html_tags, ['<meta charset="utf-8">', '<title>Welcome to nginx!</title>', '<meta name="generator" content="fixture">']);
  const body = res.body as string;
  assert.equal(res.body_size, Buffer.byteLength(body));
  assert.equal(res.body_hash, `sha1:${createHash('sha1').update(body).digest('hex')}`);
  assert.deepEqual(res.body_hashes, [res.body_hash, `sha256:${createHash('sha256').update(body).digest('hex')}`]);
  assert.match(s.banner ?? '', /^HTTP\/1\.1 200 OK\r\nServer: nginx\/1\.18\.0 \(Ubuntu\)\r\n/);
  assert.deepEqual(s.software?.[0], { vendor: 'f5', product: 'nginx', part: 'a', version: '1.18.0', cpe: 'cpe:2.3:a:f5:nginx:1.18.0:*:*:*:*:*:*:*' });
  assert.equal(h.operatingSystem?.product, 'ubuntu_linux');
});

test('http TLS handshake log: DER chain leaf first, version and cipher in Censys spelling', async () => {
  const s = servicePort(await hostAt(1), 443);
  assert.ok(s.tls);
  assert.equal(s.tls.chain.length, 2);
  assert.deepEqual(Buffer.from(s.tls.chain[0]), derOf('leaf.pem'));
  assert.deepEqual(Buffer.from(s.tls.chain[1]), derOf('ca.pem'));
  assert.equal(new X509Certificate(s.tls.chain[0]).subject, 'CN=www.example.test');
  assert.equal(s.tls.versionSelected, 'TLSv1_2');
  assert.equal(s.tls.cipherSelected, 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256');
});

test('a domain also yields the named virtual host with the same services', async () => {
  const plain = await hostAt(1);
  const named = await hostAt(1, true);
  assert.equal(named.name, 'www.example.test');
  assert.equal(named.ip, plain.ip);
  assert.deepEqual(named.services, plain.services);
});

test('ssh: endpoint id, kex init, algorithm selection, host key, HASSH, banner, OpenSSH CPE', async () => {
  const s = servicePort(await hostAt(2), 22);
  assert.equal(s.serviceName, 'SSH');
  assert.equal(s.banner, 'SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.6');
  const ssh = s.protocols?.ssh as Record<string, Record<string, unknown>>;
  assert.deepEqual(ssh.endpoint_id, { raw: 'SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.6', protocol_version: '2.0', software_version: 'OpenSSH_8.9p1', comment: 'Ubuntu-3ubuntu0.6' });
  assert.deepEqual(ssh.algorithm_selection, {
    kex_algorithm: 'curve25519-sha256@libssh.org',
    host_key_algorithm: 'ecdsa-sha2-nistp256',
    client_to_server_alg_group: { cipher: 'aes128-ctr', mac: 'hmac-sha2-256', compression: 'none' },
    server_to_client_alg_group: { cipher: 'aes128-ctr', mac: 'hmac-sha2-256', compression: 'none' },
  });
  assert.equal(ssh.server_host_key.fingerprint_sha256, '9f1c7bc1a36e56b4bc2a5e4d4f29e6d6e1b8b0e3c9c2a86e7a2b5e0c5f0b4d11');
  assert.deepEqual((ssh.server_host_key.ecdsa_public_key as { curve: string }).curve, 'P-256');
  assert.deepEqual(ssh.kex_init_message.host_key_algorithms, ['rsa-sha2-512', 'rsa-sha2-256', 'ecdsa-sha2-nistp256', 'ssh-ed25519']);
  const hasshInput = 'curve25519-sha256,curve25519-sha256@libssh.org,ecdh-sha2-nistp256,diffie-hellman-group14-sha256;chacha20-poly1305@openssh.com,aes128-ctr,aes256-gcm@openssh.com;umac-64-etm@openssh.com,hmac-sha2-256;none,zlib@openssh.com';
  assert.equal(ssh.hassh_fingerprint as unknown, createHash('md5').update(hasshInput).digest('hex'));
  assert.deepEqual(s.software?.[0], { vendor: 'openbsd', product: 'openssh', part: 'a', version: '8.9', cpe: 'cpe:2.3:a:openbsd:openssh:8.9:p1:*:*:*:*:*:*' });
  assert.equal(s.software?.[1]?.product, 'ubuntu_linux');
});

test('tls module: port from the scan name, chain, no service name (left to the port)', async () => {
  const s = servicePort(await hostAt(3), 8443);
  assert.equal(s.serviceName, undefined);
  assert.deepEqual(s.tls?.chain.map((d) => Buffer.from(d)), [derOf('leaf.pem'), derOf('ca.pem')]);
});

test('a certificate presented on several lines is one shared array (hashed once by the pipeline)', async () => {
  const http = servicePort(await hostAt(1), 443).tls?.chain;
  const tls = servicePort(await hostAt(3), 8443).tls?.chain;
  assert.ok(http && tls);
  assert.equal(http[0], tls[0]);
  assert.equal(http[1], tls[1]);
});

test('banner module: UNKNOWN service with banner and banner_grab', async () => {
  const s = servicePort(await hostAt(4), 2323);
  assert.equal(s.serviceName, 'UNKNOWN');
  assert.equal(s.banner, 'Welcome to the fixture router\r\nlogin: ');
  assert.deepEqual(s.protocols, { banner_grab: { banner: 'Welcome to the fixture router\r\nlogin: ' } });
});

test('other modules are kept under their protocol name with banner and Censys service name', async () => {
  const h = await hostAt(5);
  assert.deepEqual(h.services.map((s) => [s.port, s.serviceName]), [[21, 'FTP'], [25, 'SMTP'], [3306, 'MYSQL'], [6379, 'REDIS']]);
  assert.equal(servicePort(h, 21).banner, '220 (vsFTPd 3.0.5)\r\n');
  assert.equal(servicePort(h, 25).banner, '220 mail.example.test ESMTP Postfix (Ubuntu)\r\n');
  assert.equal((servicePort(h, 3306).protocols?.mysql as { server_version: string }).server_version, '8.0.35-0ubuntu0.22.04.1');
  assert.equal((servicePort(h, 6379).protocols?.redis as { version: string }).version, '7.0.15');
  assert.equal(h.observedAt, '2024-01-15T10:00:08.000Z', 'latest module time; the skipped timeout does not count');
  const h12 = await hostAt(12);
  assert.deepEqual(h12.services.map((s) => [s.port, s.serviceName, Object.keys(s.protocols ?? {})[0]]), [
    [5432, 'POSTGRES', 'postgres'],
    [27017, 'MONGODB', 'mongodb'],
    [23, 'TELNET', 'telnet'],
  ]);
  assert.equal(servicePort(h12, 23).banner, '\r\nUbuntu 22.04 LTS\r\nfixture login: ');
});

test('statuses: refused → closed, timeouts → nothing, protocol/application errors → UNKNOWN open', async () => {
  const refused = servicePort(await hostAt(6), 8080);
  assert.deepEqual(refused, { port: 8080, transport: 'TCP', state: 'closed' });
  assert.equal((await fixture()).filter((r) => r.position === 'line 7').length, 0, 'an all-timeout line gives no record');
  assert.ok(!(await hostAt(5)).services.some((s) => s.port === 22), 'the ssh timeout on line 5 is skipped');
  const errs = await hostAt(8);
  assert.deepEqual(servicePort(errs, 80), { port: 80, transport: 'TCP', state: 'open', serviceName: 'UNKNOWN' });
  assert.deepEqual(servicePort(errs, 22), { port: 22, transport: 'TCP', state: 'open', serviceName: 'UNKNOWN', banner: 'SSH-2.0-dropbear_2020.81' });
});

test('IPv6 http on a named port: Apache and PHP software, title, no HTTPS', async () => {
  const h = await hostAt(13);
  assert.equal(h.ip, '2001:db8::20');
  const s = servicePort(h, 8080);
  assert.equal(s.extendedServiceName, undefined);
  assert.equal(s.tls, undefined);
  const res = (s.protocols?.http as { response: Record<string, unknown> }).response;
  assert.equal(res.status_code, 404);
  assert.equal(res.status_reason, 'Not Found');
  assert.equal(res.html_title, '404 Not Found');
  assert.deepEqual(s.software?.map((x) => x.cpe ?? x.product), ['cpe:2.3:a:apache:http_server:2.4.41:*:*:*:*:*:*:*', 'ubuntu_linux', 'cpe:2.3:a:php:php:7.4.3:*:*:*:*:*:*:*']);
});

test('rejections carry the line and the reason', async () => {
  const rejected = (await fixture()).filter((r) => r.kind === 'rejected');
  assert.deepEqual(rejected.map((r) => r.position), ['line 9', 'line 10', 'line 11', 'line 14']);
  const reasons = rejected.map((r) => (r.kind === 'rejected' ? r.reason : ''));
  assert.match(reasons[0], /^invalid JSON/);
  assert.equal(reasons[1], 'no "ip"');
  assert.equal(reasons[2], 'invalid ip "999.1.2.3"');
  assert.match(reasons[3], /module "custom".*no port/);
  const more = await readText('[1,2]\n{"ip":"192.0.2.1"}\n{"ip":"1.2.3.4.5","data":{}}\n{"ip":"192.0.2.1","data":{"x":"str"}}\n');
  assert.deepEqual(more.map((r) => [r.position, r.kind === 'rejected' ? r.reason : r.kind]), [
    ['line 1', 'not a JSON object'],
    ['line 2', 'no "data" object'],
    ['line 3', 'invalid ip "1.2.3.4.5"'],
    ['line 4', 'module "x" is not an object'],
  ]);
});

test('ports: explicit port fields, configured scan names, URL ports, defaults', async () => {
  const line = (data: object, extra: object = {}): string => JSON.stringify({ ip: '192.0.2.99', ...extra, data }) + '\n';
  const ok = { status: 'success', result: {} };
  const text =
    line({ web: { ...ok, protocol: 'http' } }) +
    line({ web: { ...ok, protocol: 'http' } }, { port: 8000 }) +
    line({ redis: { ...ok, protocol: 'redis', result: { port: 6380 } } }) +
    line({ https: { status: 'success', protocol: 'http', result: { response: { status_code: 200, request: { url: { scheme: 'https', host: 'a.test', path: '/' } } } } } }) +
    line({ mgmt: { ...ok, protocol: 'http' } });
  const source = makeZgrab2Source({ modulePorts: { mgmt: 9090 } });
  const ports = (await readText(text, source)).map((r) => (r.kind === 'host' ? r.host.services[0].port : r.kind));
  assert.deepEqual(ports, [80, 8000, 6380, 443, 9090]);
});

test('observedAt falls back to now when the module has no timestamp', async () => {
  const recs = await readText('{"ip":"192.0.2.5","data":{"ssh":{"status":"success","protocol":"ssh","result":{}}}}\n');
  assert.ok(recs[0].kind === 'host');
  assert.equal(recs[0].host.observedAt, NOW.toISOString());
});

test('sniff claims zgrab2 lines, also when the first record is longer than the head', () => {
  const text = readFileSync(`${FIXTURES}scan.jsonl`);
  assert.equal(zgrab2Source.sniff(text), true);
  assert.equal(zgrab2Source.sniff(text.subarray(0, 300)), true, 'cut mid-record');
  assert.equal(zgrab2Source.sniff(Buffer.from('{"ip":"1.2.3.4","port":80}\n')), false);
  assert.equal(zgrab2Source.sniff(Buffer.from('{"ip":"1.2.3.4","data":{"x":{"nostatus":1}}}\n')), false);
  assert.equal(zgrab2Source.sniff(Buffer.from('<?xml version="1.0"?>\n<nmaprun>')), false);
  assert.equal(zgrab2Source.sniff(Buffer.from('')), false);
});

test('streaming: a 50,000-line input yields records before it ends', async () => {
  const total = 50_000;
  const input = new PassThrough();
  let written = 0;
  let writtenWhenFirstSeen = -1;
  const produce = (async () => {
    const batch = 500;
    while (written < total) {
      let chunk = '';
      for (let i = 0; i < batch; i++, written++) {
        chunk += `{"ip":"10.${(written >> 16) & 255}.${(written >> 8) & 255}.${written & 255}","data":{"http":{"status":"success","protocol":"http","result":{"response":{"status_code":200,"headers":{"server":["nginx"]},"body":"<title>t${written}</title>"}},"timestamp":"2024-01-01T00:00:00Z"}}}\n`;
      }
      if (!input.write(chunk)) await new Promise((r) => input.once('drain', r));
      await new Promise((r) => setImmediate(r));
    }
    input.end();
  })();
  let count = 0;
  let lastTitle = '';
  for await (const r of zgrab2Source.read(input, { now: NOW })) {
    if (count === 0) writtenWhenFirstSeen = written;
    assert.equal(r.kind, 'host');
    if (r.kind === 'host') lastTitle = (r.host.services[0].protocols?.http as { response: { html_title: string } }).response.html_title;
    count++;
  }
  await produce;
  assert.equal(count, total);
  assert.equal(lastTitle, `t${total - 1}`);
  assert.ok(writtenWhenFirstSeen > 0 && writtenWhenFirstSeen < total, `first record after ${writtenWhenFirstSeen} lines written`);
});

/** The fixture with bad lines, a blank line and CRLF around it, cut into chunks of `chunkSize` bytes. */
function chunkedInput(chunkSize: number): Readable {
  const scan = readFileSync(`${FIXTURES}scan.jsonl`);
  const text = Buffer.concat([scan, Buffer.from('not json\n\r\n{"ip":"192.0.2.77"}\r\n'), scan, Buffer.from('{"ip": "192.0.2.8", "data": {"x": 1}')]);
  const chunks: Buffer[] = [];
  for (let i = 0; i < text.length; i += chunkSize) chunks.push(text.subarray(i, i + chunkSize));
  return Readable.from(chunks);
}

/** The same input arriving slowly (a pipe, a network). */
function slowInput(chunkSize: number, delayMs: number): Readable {
  const all = chunkedInput(chunkSize);
  return Readable.from(
    (async function* () {
      for await (const chunk of all) {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        yield chunk;
      }
    })(),
  );
}

test('the same records, in order, whatever the chunking of the input', async () => {
  const read = (input: Readable) => collect(zgrab2Source.read(input, { now: NOW }));
  const whole = await read(chunkedInput(1 << 20));
  assert.ok(whole.length > 20);
  assert.ok(whole.some((r) => r.kind === 'rejected' && /invalid JSON/.test(r.reason)));
  assert.ok(whole.some((r) => r.kind === 'rejected' && r.position === 'line 17' && /no "data"/.test(r.reason)), 'positions count blank lines');
  for (const size of [1000, 333, 7, 1]) assert.deepEqual(await read(chunkedInput(size)), whole, `chunks of ${size} bytes`);
  for (const delay of [1, 3]) assert.deepEqual(await read(slowInput(97, delay)), whole, `slow input, ${delay} ms per chunk`);
});
