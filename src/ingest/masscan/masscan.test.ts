import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import type { HostObservation, IngestRecord, IngestSource, ServiceObservation } from '../observation.ts';
import { nmapXmlSource } from '../nmap/index.ts';
import { masscanJsonSource, masscanListSource, masscanNdjsonSource, masscanXmlSource } from './index.ts';

const fixtures = new URL('../../../test/fixtures/', import.meta.url);
const fixture = (name: string): Buffer => readFileSync(new URL(name, fixtures));
const NOW = new Date('2030-01-01T00:00:00Z');

async function collect(source: IngestSource, input: Buffer | string | Readable): Promise<IngestRecord[]> {
  const stream = input instanceof Readable ? input : Readable.from([typeof input === 'string' ? Buffer.from(input) : input]);
  const out: IngestRecord[] = [];
  for await (const r of source.read(stream, { now: NOW })) out.push(r);
  return out;
}

function hosts(records: IngestRecord[]): HostObservation[] {
  return records.flatMap((r) => (r.kind === 'host' ? [r.host] : []));
}

function services(records: IngestRecord[]): ServiceObservation[] {
  return hosts(records).flatMap((h) => h.services);
}

/** The same facts every masscan fixture holds: 4 open ports, 1 closed, banners on 22, 25, 80, 443. */
function assertScan(records: IngestRecord[]): void {
  assert.deepEqual(records.filter((r) => r.kind !== 'host'), []);
  for (const h of hosts(records)) {
    assert.equal(h.ip, '10.77.0.2');
    assert.equal(h.source, 'masscan');
    assert.match(h.observedAt, /^2026-11-22T05:3\d:\d\d\.000Z$/);
    assert.equal(h.services.length, 1);
  }
  const all = services(records);
  const status = all.filter((s) => s.serviceName === undefined && s.protocols === undefined);
  assert.deepEqual(
    status.map((s) => `${s.port}/${s.transport}/${s.state}`).sort(),
    ['22/TCP/open', '25/TCP/open', '443/TCP/open', '80/TCP/open', '8081/TCP/closed'],
  );
  const ssh = all.find((s) => s.port === 22 && s.serviceName);
  assert.deepEqual(ssh, { port: 22, transport: 'TCP', state: 'open', serviceName: 'SSH', banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2' });
  const smtp = all.find((s) => s.port === 25 && s.serviceName);
  assert.equal(smtp?.serviceName, 'SMTP');
  assert.equal(smtp?.banner, '220 mail.example.test ESMTP Postfix\n');
  const http = all.filter((s) => s.port === 80 && s.serviceName);
  assert.equal(http.length, 3);
  assert.ok(http.every((s) => s.serviceName === 'HTTP' && s.state === 'open'));
  assert.deepEqual(
    http.find((s) => s.protocols && 'http' in s.protocols && JSON.stringify(s.protocols).includes('html_title'))?.protocols,
    { http: { response: { html_title: 'Periscope test page' } } },
  );
  assert.deepEqual(http.find((s) => JSON.stringify(s.protocols ?? {}).includes('Server'))?.protocols, {
    http: { response: { headers: { Server: ['nginx/1.22.1'] } } },
  });
  const raw = http.find((s) => s.banner !== undefined)?.banner ?? '';
  assert.match(raw, /^HTTP\/1\.1 200 OK\r\nServer: nginx\/1\.22\.1\r\nContent-Type: text\/html\r\nDate: .* GMT\r\nConnection: close\r\n\r$/);
  const tls = all.find((s) => s.port === 443 && s.protocols);
  assert.deepEqual(tls, { port: 443, transport: 'TCP', state: 'open', protocols: { ssl: { summary: ' ALERT(0x0246) ' } } });
}

test('masscan -oJ fixture (real masscan 1.3.2 output with --banners)', async () => {
  const records = await collect(masscanJsonSource, fixture('masscan/scan.json'));
  assert.equal(records.length, 11);
  assert.equal(records[0].position, 'line 2');
  assertScan(records);
});

test('masscan -oD fixture', async () => {
  const records = await collect(masscanNdjsonSource, fixture('masscan/scan.ndjson'));
  assert.equal(records.length, 11);
  assert.equal(records[5].position, 'line 6');
  assertScan(records);
});

test('masscan -oL fixture: comment lines skipped, positions are lines', async () => {
  const records = await collect(masscanListSource, fixture('masscan/scan.list'));
  assert.equal(records.length, 11);
  assert.deepEqual(records.map((r) => r.position).slice(0, 2), ['line 2', 'line 3']);
  assertScan(records);
});

test('masscan -oX fixture', async () => {
  const records = await collect(masscanXmlSource, fixture('masscan/scan.xml'));
  assert.equal(records.length, 11);
  assert.match(records[0].position, /^byte \d+$/);
  assertScan(records);
});

test('timestamps are unix seconds turned into RFC 3339; a missing one falls back to now', async () => {
  const records = await collect(masscanNdjsonSource, [
    '{"ip":"192.0.2.1","timestamp":"1689000000","port":80,"proto":"tcp","rec_type":"status","data":{"status":"open","reason":"syn-ack","ttl":64}}',
    '{"ip":"192.0.2.1","port":81,"proto":"tcp","rec_type":"status","data":{"status":"open"}}',
  ].join('\n'));
  assert.deepEqual(hosts(records).map((h) => h.observedAt), ['2023-07-10T14:40:00.000Z', NOW.toISOString()]);
});

test('lenient -oJ: old trailing commas, a trailing comma inside a record, a missing ], the finish record', async () => {
  const old = [
    '[',
    '{ "ip": "192.0.2.1", "timestamp": "1689000000", "ports": [ {"port": 80, "proto": "tcp", "status": "open", "reason": "syn-ack", "ttl": 64} ] },',
    '{ "ip": "192.0.2.2", "timestamp": "1689000001", "ports": [ {"port": 22, "proto": "tcp", "status": "open", "reason": "syn-ack", "ttl": 64}, ] },',
    '{ "ip": "192.0.2.2", "timestamp": "1689000002", "ports": [ {"port": 22, "proto": "tcp", "service": {"name": "ssh", "banner": "SSH-2.0-x"} } ] },',
    '{"finished": 1}',
    ']',
  ].join('\n');
  const records = await collect(masscanJsonSource, old);
  assert.deepEqual(records.map((r) => r.kind), ['host', 'host', 'host']);
  assert.deepEqual(hosts(records).map((h) => h.ip), ['192.0.2.1', '192.0.2.2', '192.0.2.2']);
  assert.equal(services(records)[2].banner, 'SSH-2.0-x');

  const cut = old.split('\n').slice(0, 3).join('\n') + '\n';
  const cutRecords = await collect(masscanJsonSource, cut);
  assert.deepEqual(cutRecords.map((r) => r.kind), ['host', 'host']);
});

test('a record cut off at the end of the file is rejected with its line; earlier ones are kept', async () => {
  const text = '[\n{"ip": "192.0.2.1", "timestamp": "1", "ports": [{"port": 80, "proto": "tcp", "status": "open"}]}\n,\n{"ip": "192.0.2.2", "timestamp": "1", "ports": [{"po';
  const records = await collect(masscanJsonSource, text);
  assert.deepEqual(records.map((r) => [r.kind, r.position]), [['host', 'line 2'], ['rejected', 'line 4']]);
});

test('malformed JSON records are rejected with their line and reading continues', async () => {
  const text = [
    '[',
    '{"ip": "192.0.2.1", "timestamp": "1", "ports": [{"port": 80, "proto": "tcp", "status": "open"}]}',
    ',',
    '{"ip": "192.0.2.2", "timestamp": "1", "ports": [{"port": 80 "proto": "tcp"}]}',
    'garbage here',
    '{"timestamp": "1", "ports": []}',
    '{"ip": "192.0.2.3", "timestamp": "1", "ports": [{"port": 99999, "proto": "tcp", "status": "open"}]}',
    '{"ip": "192.0.2.4", "timestamp": "1", "ports": [{"port": 1, "proto": "tcp", "status": "weird"}]}',
    '{"ip": "192.0.2.5", "timestamp": "1", "ports": [{"port": 443, "proto": "tcp", "status": "closed"}]}',
    ']',
  ].join('\n');
  const records = await collect(masscanJsonSource, text);
  assert.deepEqual(
    records.map((r) => [r.kind, r.position]),
    [['host', 'line 2'], ['rejected', 'line 4'], ['rejected', 'line 5'], ['rejected', 'line 6'], ['rejected', 'line 7'], ['rejected', 'line 8'], ['host', 'line 9']],
  );
  const reasons = records.flatMap((r) => (r.kind === 'rejected' ? [r.reason] : []));
  assert.match(reasons[0], /invalid JSON/);
  assert.match(reasons[2], /without "ip"/);
  assert.equal(services(records)[1].state, 'closed');
});

test('icmp and arp records (host up, no port) produce hosts without services', async () => {
  const records = await collect(masscanJsonSource, '[\n{"ip": "192.0.2.9", "timestamp": "1", "ports": [{"port": 0, "proto": "icmp", "status": "open"}]}\n]\n');
  assert.deepEqual(hosts(records).map((h) => h.services.length), [0]);
});

test('list lines: comments, blank lines, escapes, unknown lines', async () => {
  const text = '#masscan\n\nopen udp 53 192.0.2.1 1689000000\nbanner tcp 21 192.0.2.1 1689000000 ftp 220 Hi\\x0d\\x0a\nbogus line\nbanner tcp 80 192.0.2.1 1689000000 title A \\x3cb\\x3e title\n# end\n';
  const records = await collect(masscanListSource, text);
  assert.deepEqual(records.map((r) => [r.kind, r.position]), [['host', 'line 3'], ['host', 'line 4'], ['rejected', 'line 5'], ['host', 'line 6']]);
  const s = services(records);
  assert.deepEqual(s[0], { port: 53, transport: 'UDP', state: 'open' });
  assert.deepEqual(s[1], { port: 21, transport: 'TCP', state: 'open', serviceName: 'FTP', banner: '220 Hi\r\n' });
  assert.deepEqual(s[2].protocols, { http: { response: { html_title: 'A <b> title' } } });
});

test('banner names map to Censys service names; vulnerability findings become labels', async () => {
  const lines = ['vnc', 'rdp', 'X509', 'heartbleed', 'somethingnew'].map((app) => `banner tcp 5900 192.0.2.1 1689000000 ${app} text`);
  const s = services(await collect(masscanListSource, lines.join('\n')));
  assert.equal(s[0].serviceName, 'VNC');
  assert.equal(s[1].serviceName, 'RDP');
  assert.deepEqual(s[2], { port: 5900, transport: 'TCP', state: 'open', protocols: { x509: { certificate: 'text' } } });
  assert.deepEqual(s[3].labels, ['heartbleed']);
  assert.equal(s[4].serviceName, undefined);
  assert.equal(s[4].banner, 'text');
});

test('malformed masscan XML: the broken host is rejected with a byte offset, the others are kept', async () => {
  const good = (port: number) =>
    `<host endtime="1689000000"><address addr="192.0.2.1" addrtype="ipv4"/><ports><port protocol="tcp" portid="${port}"><state state="open" reason="syn-ack" reason_ttl="64"/></port></ports></host>\r\n`;
  const head = '<?xml version="1.0"?>\r\n<nmaprun scanner="masscan" start="1689000000">\r\n';
  const broken = '<host endtime="1689000000"><address addr="192.0.2.2" addrtype="ipv4"/><ports><port protocol="tcp" portid="81"><state state="open" reason=syn-ack/></port></ports></host>\r\n';
  const text = head + good(80) + broken + good(82) + '</nmaprun>\r\n';
  const records = await collect(masscanXmlSource, text);
  assert.deepEqual(records.map((r) => r.kind), ['host', 'rejected', 'host']);
  const brokenAt = Buffer.byteLength(head + good(80)) + broken.indexOf('<state');
  assert.equal(records[1].position, `byte ${brokenAt}`);
  assert.deepEqual(services(records).map((s) => s.port), [80, 82]);
});

test('sniffing: each source claims its own fixture and none of the others', () => {
  const sources: [IngestSource, string][] = [
    [masscanJsonSource, 'masscan/scan.json'],
    [masscanNdjsonSource, 'masscan/scan.ndjson'],
    [masscanListSource, 'masscan/scan.list'],
    [masscanXmlSource, 'masscan/scan.xml'],
    [nmapXmlSource, 'nmap/loopback-sv.xml'],
  ];
  for (const [source, own] of sources) {
    for (const [, file] of sources) {
      const head = fixture(file).subarray(0, 64 * 1024);
      assert.equal(source.sniff(head), file === own, `${source.format} on ${file}`);
    }
  }
  // Heads cut mid-record still sniff.
  assert.ok(masscanJsonSource.sniff(fixture('masscan/scan.json').subarray(0, 120)));
  assert.ok(masscanListSource.sniff(fixture('masscan/scan.list').subarray(0, 30)));
  // Lookalikes are not claimed.
  assert.equal(masscanNdjsonSource.sniff(Buffer.from('{"host":"a.example","ip":"192.0.2.1","port":80,"timestamp":"2024-01-01T00:00:00Z"}\n')), false);
  assert.equal(masscanJsonSource.sniff(Buffer.from('[1, 2, 3]')), false);
  assert.equal(masscanListSource.sniff(Buffer.from('hello world\n')), false);
});

test('streaming: records come out before the input ends', async () => {
  for (const [source, first] of [
    [masscanJsonSource, '[\n{"ip": "192.0.2.1", "timestamp": "1", "ports": [{"port": 80, "proto": "tcp", "status": "open"}]}\n,\n'],
    [masscanNdjsonSource, '{"ip":"192.0.2.1","timestamp":"1","port":80,"proto":"tcp","rec_type":"status","data":{"status":"open"}}\n'],
    [masscanListSource, '#masscan\nopen tcp 80 192.0.2.1 1\n'],
    [masscanXmlSource, '<?xml version="1.0"?>\n<nmaprun scanner="masscan">\n<host endtime="1"><address addr="192.0.2.1" addrtype="ipv4"/><ports><port protocol="tcp" portid="80"><state state="open"/></port></ports></host>\n'],
  ] as const) {
    const input = new PassThrough();
    input.write(first);
    const it = source.read(input, { now: NOW })[Symbol.asyncIterator]();
    const r = await it.next();
    assert.equal(r.done, false, source.format);
    assert.equal(r.value.kind, 'host', source.format);
    input.end();
    for (let n = await it.next(); !n.done; n = await it.next()) assert.notEqual(n.value.kind, 'host');
  }
});

test('arbitrary bytes never make a reader throw; every record has a position', async () => {
  const fc = await import('fast-check');
  const sources = [masscanJsonSource, masscanNdjsonSource, masscanListSource, masscanXmlSource, nmapXmlSource];
  const prefixes = ['', '[\n{"ip": "', '<nmaprun scanner="masscan"><host>', '<nmaprun><host><ports>', '#masscan\n'];
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(...prefixes), fc.integer({ min: 1, max: 50 }), async (bytes, prefix, chunk) => {
      const all = Buffer.concat([Buffer.from(prefix), bytes]);
      for (const source of sources) {
        const parts: Buffer[] = [];
        for (let i = 0; i < all.length; i += chunk) parts.push(all.subarray(i, i + chunk));
        for (const r of await collect(source, Readable.from(parts))) assert.match(r.position, /^(line|byte) \d+$/);
      }
    }),
    { numRuns: 60 },
  );
});

test('many records across many small chunks all come out, in order', async () => {
  const n = 3000;
  const json = '[\n' + Array.from({ length: n }, (_, i) => `{ "ip": "10.0.${i >> 8}.${i & 255}", "timestamp": "1689000000", "ports": [ {"port": ${i % 65535}, "proto": "tcp", "status": "open", "reason": "syn-ack", "ttl": 64} ] }`).join('\n,\n') + '\n]\n';
  const xml =
    '<?xml version="1.0"?>\r\n<nmaprun scanner="masscan">\r\n' +
    Array.from({ length: n }, (_, i) => `<host endtime="1689000000"><address addr="10.0.${i >> 8}.${i & 255}" addrtype="ipv4"/><ports><port protocol="tcp" portid="${i}"><state state="open" reason="syn-ack" reason_ttl="64"/></port></ports></host>\r\n`).join('') +
    '</nmaprun>\r\n';
  for (const [source, text] of [[masscanJsonSource, json], [masscanXmlSource, xml]] as const) {
    const bytes = Buffer.from(text);
    const parts: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 777) parts.push(bytes.subarray(i, i + 777));
    const records = await collect(source, Readable.from(parts));
    assert.equal(records.length, n, source.format);
    assert.ok(records.every((r) => r.kind === 'host'));
    assert.equal(hosts(records)[n - 1].ip, `10.0.${(n - 1) >> 8}.${(n - 1) & 255}`);
  }
});
