import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createReadStream, readFileSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import type { HostObservation, IngestRecord, IngestSource } from '../observation.ts';
import { zgrab2Source } from '../zgrab2/index.ts';
import { httpxSource, naabuSource, tlsxSource } from './index.ts';

const FIXTURES = new URL('../../../test/fixtures/', import.meta.url).pathname;
const NOW = new Date('2025-06-01T00:00:00Z');

async function collect(records: AsyncIterable<IngestRecord>): Promise<IngestRecord[]> {
  const out: IngestRecord[] = [];
  for await (const r of records) out.push(r);
  return out;
}

const cache = new Map<string, Promise<IngestRecord[]>>();
function readFixture(source: IngestSource): Promise<IngestRecord[]> {
  let p = cache.get(source.format);
  if (!p) {
    p = collect(source.read(createReadStream(`${FIXTURES}projectdiscovery/${source.format}.jsonl`), { now: NOW }));
    cache.set(source.format, p);
  }
  return p;
}

function readText(source: IngestSource, text: string): Promise<IngestRecord[]> {
  return collect(source.read(Readable.from([Buffer.from(text)]), { now: NOW }));
}

function hosts(records: IngestRecord[], position: string): HostObservation[] {
  return records.flatMap((r) => (r.kind === 'host' && r.position === position ? [r.host] : []));
}

function rejections(records: IngestRecord[]): [string, string][] {
  return records.flatMap((r) => (r.kind === 'rejected' ? [[r.position, r.reason] as [string, string]] : []));
}

function derOf(pemFile: string): Buffer {
  return execFileSync('openssl', ['x509', '-in', `${FIXTURES}zgrab2/${pemFile}`, '-outform', 'DER']);
}

test('naabu: open ports, transport, names from host names, lenient port forms', async () => {
  const recs = await readFixture(naabuSource);
  const h1 = hosts(recs, 'line 1')[0];
  assert.deepEqual(h1, {
    ip: '192.0.2.30',
    observedAt: '2024-01-15T11:00:00.123Z',
    source: 'naabu',
    services: [{ port: 443, transport: 'TCP', state: 'open', tls: { chain: [] } }],
    names: ['www.example.test'],
  });
  const h2 = hosts(recs, 'line 2')[0];
  assert.equal(h2.names, undefined, 'an IP in "host" is not a name');
  assert.equal(h2.observedAt, '2024-01-15T10:00:01.000Z', 'zone offset applied');
  assert.deepEqual(hosts(recs, 'line 3')[0].services, [{ port: 53, transport: 'UDP', state: 'open' }]);
  assert.equal(hosts(recs, 'line 3')[0].ip, '2001:db8::31');
  assert.deepEqual(hosts(recs, 'line 4')[0].services, [{ port: 8080, transport: 'TCP', state: 'open' }]);
  assert.deepEqual(hosts(recs, 'line 5')[0].services, [{ port: 3306, transport: 'TCP', state: 'open' }]);
  assert.equal(hosts(recs, 'line 5')[0].observedAt, '2024-01-15T11:00:03.000Z');
  const rej = rejections(recs);
  assert.deepEqual(rej.map(([p]) => p), ['line 6', 'line 7', 'line 8']);
  assert.equal(rej[0][1], 'invalid port 70000');
  assert.equal(rej[1][1], 'no "ip"');
  assert.match(rej[2][1], /^invalid JSON/);
  const more = await readText(naabuSource, '{"ip":"192.0.2.300","port":80}\n{"ip":"192.0.2.1"}\n{"ip":"192.0.2.1","port":9,"protocol":1}\n');
  assert.deepEqual(rejections(more), [['line 1', 'invalid ip "192.0.2.300"'], ['line 2', 'invalid port null']]);
  assert.equal(hosts(more, 'line 3')[0].services[0].transport, 'UDP');
});

test('httpx: one observation per resolved IP plus the virtual host, Censys http fields', async () => {
  const recs = await readFixture(httpxSource);
  const line1 = hosts(recs, 'line 1');
  assert.deepEqual(line1.map((h) => [h.ip, h.name ?? null]), [
    ['192.0.2.40', null], ['192.0.2.40', 'www.example.test'],
    ['192.0.2.41', null], ['192.0.2.41', 'www.example.test'],
    ['2001:db8::40', null], ['2001:db8::40', 'www.example.test'],
  ]);
  const h = line1[0];
  assert.deepEqual(h.names, ['www.example.test']);
  assert.equal(h.source, 'httpx');
  assert.equal(h.observedAt, '2024-01-15T12:00:00.500Z');
  const s = h.services[0];
  assert.equal(s.port, 443);
  assert.equal(s.serviceName, 'HTTP');
  assert.equal(s.extendedServiceName, 'HTTPS');
  assert.deepEqual(s.protocols, {
    http: {
      request: { method: 'GET', uri: 'https://www.example.test' },
      response: {
        headers: { Server: ['nginx/1.18.0 (Ubuntu)'], Content_Type: ['text/html'] },
        status_code: 200,
        html_title: 'Welcome to nginx!',
        body_size: 612,
        body_hashes: ['sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
      },
    },
  });
  assert.deepEqual(s.software?.map((x) => x.cpe ?? `${x.vendor}:${x.product}`), [
    'cpe:2.3:a:f5:nginx:1.18.0:*:*:*:*:*:*:*',
    'canonical:ubuntu_linux',
    'cpe:2.3:a:php:php:8.1.2:*:*:*:*:*:*:*',
  ], 'webserver and tech merged, one entry per product');
  assert.ok(s.tls);
  assert.equal(s.tls.versionSelected, 'TLSv1_2');
  assert.equal(s.tls.cipherSelected, 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256');
  assert.deepEqual(s.tls.chain.map((d) => Buffer.from(d)), [derOf('leaf.pem')]);
});

test('httpx: plain http by IP, response headers from -irh, IIS, failed probes skipped, rejections', async () => {
  const recs = await readFixture(httpxSource);
  const line2 = hosts(recs, 'line 2');
  assert.equal(line2.length, 1, 'an IP input has no virtual host');
  const s = line2[0].services[0];
  assert.equal(s.port, 8080);
  assert.equal(s.extendedServiceName, undefined);
  assert.equal(s.tls, undefined);
  const res = (s.protocols?.http as { response: { headers: Record<string, string[]>; status_code: number } }).response;
  assert.deepEqual(res.headers, { Server: ['Microsoft-IIS/10.0'], X_Powered_By: ['ASP.NET'], Location: ['/login'], Content_Type: ['text/html; charset=utf-8'] });
  assert.equal(res.status_code, 302);
  assert.equal(s.software?.[0]?.cpe, 'cpe:2.3:a:microsoft:internet_information_services:10.0:*:*:*:*:*:*:*');
  assert.equal(recs.filter((r) => r.position === 'line 3').length, 0, 'failed probe gives nothing');
  const rej = rejections(recs);
  assert.deepEqual(rej.map(([p]) => p), ['line 4', 'line 5', 'line 6']);
  assert.match(rej[0][1], /^no ip/);
  assert.equal(rej[1][1], 'invalid ip "300.1.1.1"');
  assert.match(rej[2][1], /^invalid JSON/);
});

test('tlsx: TLS service without a service name, DER chain, certificate observations', async () => {
  const recs = await readFixture(tlsxSource);
  const line1 = recs.filter((r) => r.position === 'line 1');
  assert.deepEqual(line1.map((r) => r.kind), ['host', 'host', 'certificate', 'certificate']);
  const [plain, named] = hosts(recs, 'line 1');
  assert.equal(plain.ip, '192.0.2.50');
  assert.deepEqual(plain.names, ['www.example.test']);
  assert.equal(named.name, 'www.example.test');
  assert.equal(plain.observedAt, '2024-01-15T13:00:00.987Z');
  const s = plain.services[0];
  assert.equal(s.port, 443);
  assert.equal(s.serviceName, undefined);
  assert.deepEqual({ ...s.tls, chain: s.tls?.chain.map((d) => Buffer.from(d)) }, {
    chain: [derOf('leaf.pem'), derOf('ca.pem')],
    versionSelected: 'TLSv1_3',
    cipherSelected: 'TLS_AES_128_GCM_SHA256',
    ja3s: '15af977ce25de452b96affa2addb1036',
  });
  const certs = line1.flatMap((r) => (r.kind === 'certificate' ? [r.certificate] : []));
  assert.deepEqual(Buffer.from(certs[0].der), derOf('leaf.pem'));
  assert.deepEqual(certs[0].chain?.map((d) => Buffer.from(d)), [derOf('ca.pem')]);
  assert.deepEqual(Buffer.from(certs[1].der), derOf('ca.pem'));
  assert.equal(certs[0].source, 'tlsx');
  const h2 = hosts(recs, 'line 2')[0];
  assert.deepEqual(h2.services, [{ port: 8443, transport: 'TCP', state: 'open', tls: { chain: [], versionSelected: 'TLSv1_2', cipherSelected: 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384' } }]);
  assert.equal(recs.filter((r) => r.position === 'line 3').length, 0, 'probe_status false gives nothing');
  const rej = rejections(recs);
  assert.deepEqual(rej.map(([p]) => p), ['line 4', 'line 5']);
  assert.equal(rej[0][1], 'no "ip"');
  assert.match(rej[1][1], /^certificate: PEM block at line 1 is not valid base64/);
  assert.equal(hosts(recs, 'line 5').length, 1, 'a bad PEM still leaves the TLS observation');
});

test('sniffing: each source claims its own fixture and no other', () => {
  const files: Record<string, Buffer> = {
    zgrab2: readFileSync(`${FIXTURES}zgrab2/scan.jsonl`),
    naabu: readFileSync(`${FIXTURES}projectdiscovery/naabu.jsonl`),
    httpx: readFileSync(`${FIXTURES}projectdiscovery/httpx.jsonl`),
    tlsx: readFileSync(`${FIXTURES}projectdiscovery/tlsx.jsonl`),
  };
  const sources = [zgrab2Source, naabuSource, httpxSource, tlsxSource];
  for (const [format, head] of Object.entries(files)) {
    for (const s of sources) {
      assert.equal(s.sniff(head), s.format === format, `${s.format} on ${format}`);
      // A head cut inside the first record (a long line) is still told apart.
      const firstLineLength = head.indexOf(10);
      const cut = head.subarray(0, Math.min(firstLineLength - 1, 400));
      assert.equal(s.sniff(cut), s.format === format, `${s.format} on cut ${format}`);
    }
  }
  for (const s of sources) {
    assert.equal(s.sniff(Buffer.from('<?xml version="1.0"?><nmaprun/>')), false);
    assert.equal(s.sniff(Buffer.from('-----BEGIN CERTIFICATE-----\n')), false);
    assert.equal(s.sniff(Buffer.from('{"ip":"1.2.3.4","timestamp":"1","ports":[{"port":80}]}\n')), false, `${s.format} on masscan -oJ`);
    assert.equal(s.sniff(Buffer.from('{"ip":"1.2.3.4","timestamp":"1","ports":[{"port":80')), false, `${s.format} on a cut masscan line`);
  }
});

test('streaming: httpx records arrive while the input is still being written', async () => {
  const input = new PassThrough();
  const total = 50_000;
  let written = 0;
  let writtenWhenFirstSeen = -1;
  const produce = (async () => {
    while (written < total) {
      let chunk = '';
      for (let i = 0; i < 500; i++, written++) {
        chunk += `{"timestamp":"2024-01-01T00:00:00Z","port":"80","url":"http://10.0.${(written >> 8) & 255}.${written & 255}","input":"10.0.${(written >> 8) & 255}.${written & 255}","host":"10.${written >> 16}.${(written >> 8) & 255}.${written & 255}","status_code":200,"webserver":"nginx/1.24.0","tech":["Nginx:1.24.0"],"title":"t"}\n`;
      }
      if (!input.write(chunk)) await new Promise((r) => input.once('drain', r));
      await new Promise((r) => setImmediate(r));
    }
    input.end();
  })();
  let count = 0;
  for await (const r of httpxSource.read(input, { now: NOW })) {
    if (count === 0) writtenWhenFirstSeen = written;
    assert.equal(r.kind, 'host');
    count++;
  }
  await produce;
  assert.equal(count, total);
  assert.ok(writtenWhenFirstSeen > 0 && writtenWhenFirstSeen < total, `first record after ${writtenWhenFirstSeen} lines written`);
});
