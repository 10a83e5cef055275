import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import type { IngestRecord } from '../observation.ts';
import { assertLoopbackHost, opensslSha256 } from '../../../test/fixtures/nmap/loopback-expectations.ts';
import { bannerFromServiceFp, nmapXmlSource } from './index.ts';

const dir = new URL('../../../test/fixtures/nmap/', import.meta.url);
const ports = JSON.parse(readFileSync(new URL('ports.json', dir), 'utf8')) as Record<'http' | 'https' | 'ssh' | 'smtp' | 'mystery' | 'closed', number>;
const NOW = new Date('2030-01-01T00:00:00Z');

async function collect(input: Buffer | string | Readable): Promise<IngestRecord[]> {
  const stream = input instanceof Readable ? input : Readable.from([typeof input === 'string' ? Buffer.from(input) : input]);
  const out: IngestRecord[] = [];
  for await (const r of nmapXmlSource.read(stream, { now: NOW })) out.push(r);
  return out;
}

test('nmap -sV -O --script ssl-cert fixture (real nmap 7.93 output)', async () => {
  const records = await collect(readFileSync(new URL('loopback-sv.xml', dir)));
  assert.equal(records.length, 1);
  const [r] = records;
  assert.equal(r.kind, 'host');
  if (r.kind !== 'host') return;
  assert.match(r.position, /^byte \d+$/);
  const host = r.host;
  assertLoopbackHost(host, ports, opensslSha256(new URL('server-cert.pem', dir).pathname));
  assert.equal(host.services.length, 6);
  assert.equal(host.observedAt, '2026-11-22T05:30:21.000Z');
  assert.deepEqual(host.reverseDns, ['localhost']);
  assert.equal(host.names, undefined);
  assert.deepEqual(host.operatingSystem, {
    cpe: 'cpe:/o:linux:linux_kernel:5',
    part: 'o',
    vendor: 'Linux',
    product: 'Linux',
    other: { name: 'Linux 5.0 - 5.2', accuracy: '96', family: 'Linux', type: 'general purpose' },
  });
  const http = host.services.find((s) => s.port === ports.http);
  assert.deepEqual(http?.protocols, { http: { response: { headers: { Server: ['nginx/1.22.1'] } } } });
  const mystery = host.services.find((s) => s.port === ports.mystery);
  assert.deepEqual(mystery, { port: ports.mystery, transport: 'TCP', state: 'open', serviceName: 'UNKNOWN', banner: 'PERISCOPE-TEST ready <1>\r\n' });
});

test('host discovery fixtures: user and PTR names, IPv6, no ports, the run start as the time', async () => {
  const v4 = await collect(readFileSync(new URL('ping-localhost.xml', dir)));
  assert.deepEqual(v4.map((r) => r.kind), ['host']);
  assert.deepEqual(v4[0].kind === 'host' && v4[0].host, {
    ip: '127.0.0.1',
    observedAt: '2026-11-22T05:36:50.000Z',
    source: 'nmap',
    services: [],
    names: ['localhost'],
    reverseDns: ['localhost'],
  });
  const v6 = await collect(readFileSync(new URL('ping-localhost6.xml', dir)));
  assert.deepEqual(v6.map((r) => r.kind === 'host' && [r.host.ip, r.host.services.length, r.host.names]), [['::1', 0, undefined]]);
});

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE nmaprun>\n<nmaprun scanner="nmap" start="1700000000" version="7.93">\n';
const host = (body: string, attrs = ' starttime="1700000001" endtime="1700000002"') =>
  `<host${attrs}><status state="up" reason="syn-ack"/>\n<address addr="192.0.2.1" addrtype="ipv4"/><address addr="00:11:22:33:44:55" addrtype="mac"/>${body}</host>\n`;

test('hostnames, states, ipv6, down hosts, hosts without ports, times', async () => {
  const doc =
    HEAD +
    host(
      '<hostnames><hostname name="www.example.com" type="user"/><hostname name="host-1.example.net" type="PTR"/></hostnames>' +
        '<ports><extraports state="closed" count="995"><extrareasons reason="resets" count="995"/></extraports>' +
        '<port protocol="tcp" portid="22"><state state="filtered" reason="no-response"/></port>' +
        '<port protocol="udp" portid="53"><state state="open|filtered" reason="no-response"/></port>' +
        '<port protocol="udp" portid="161"><state state="open" reason="udp-response"/><service name="snmp" method="probed" conf="10"/></port>' +
        '<port protocol="tcp" portid="3389"><state state="open"/><service name="ms-wbt-server" method="table" conf="3"/></port>' +
        '<port protocol="tcp" portid="8443"><state state="open"/><service name="https-alt" tunnel="ssl" method="probed" conf="10"/></port>' +
        '<port protocol="tcp" portid="5432"><state state="open"/><service name="postgresql" product="PostgreSQL DB" version="9.6.0 or later"/></port>' +
        '<port protocol="sctp" portid="9"><state state="open"/></port>' +
        '</ports>',
    ) +
    '<host><status state="down" reason="no-response"/><address addr="192.0.2.2" addrtype="ipv4"/></host>\n' +
    '<host starttime="1700000003"><status state="up"/><address addr="2001:db8::1" addrtype="ipv6"/></host>\n' +
    '<host><status state="up"/><address addr="192.0.2.4" addrtype="ipv4"/></host>\n' +
    '<runstats><finished time="1700000100"/><hosts up="3" down="1" total="4"/></runstats>\n</nmaprun>\n';
  const records = await collect(doc);
  assert.deepEqual(records.map((r) => r.kind), ['host', 'host', 'host']);
  const [a, v6, noTime] = records.flatMap((r) => (r.kind === 'host' ? [r.host] : []));
  assert.deepEqual(a.names, ['www.example.com']);
  assert.deepEqual(a.reverseDns, ['host-1.example.net']);
  assert.equal(a.observedAt, '2023-11-14T22:13:22.000Z');
  assert.deepEqual(
    a.services.map((s) => [s.port, s.transport, s.state, s.serviceName, s.extendedServiceName]),
    [
      [22, 'TCP', 'closed', undefined, undefined],
      [161, 'UDP', 'open', 'SNMP', undefined],
      [3389, 'TCP', 'open', 'RDP', undefined],
      [8443, 'TCP', 'open', 'HTTP', 'HTTPS'],
      [5432, 'TCP', 'open', 'POSTGRES', undefined],
    ],
  );
  assert.deepEqual(a.services[3].tls, { chain: [] });
  assert.deepEqual(a.services[4].software, [{ product: 'PostgreSQL DB', version: '9.6.0 or later', part: 'a' }]);
  assert.equal(v6.ip, '2001:db8::1');
  assert.equal(v6.observedAt, '2023-11-14T22:13:23.000Z');
  assert.deepEqual(v6.services, []);
  // No host time: the run's start.
  assert.equal(noTime.observedAt, '2023-11-14T22:13:20.000Z');
});

test('ssl-cert without structured output: the PEM printed in `output` is used', async () => {
  const pem = readFileSync(new URL('server-cert.pem', dir), 'utf8');
  const escaped = ('Subject: commonName=www.example.test\n' + pem).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\n/g, '&#xa;');
  const doc = HEAD + host(`<ports><port protocol="tcp" portid="443"><state state="open"/><service name="https" method="table" conf="3"/><script id="ssl-cert" output="${escaped}"/></port></ports>`) + '</nmaprun>';
  const [r] = await collect(doc);
  const der = r.kind === 'host' ? r.host.services[0].tls?.chain[0] : undefined;
  assert.equal(createHash('sha256').update(der ?? new Uint8Array()).digest('hex'), opensslSha256(new URL('server-cert.pem', dir).pathname));
  assert.equal(r.kind === 'host' && r.host.services[0].extendedServiceName, 'HTTPS');
});

test('without any time the observation is stamped with options.now', async () => {
  const records = await collect('<nmaprun scanner="nmap"><host><status state="up"/><address addr="192.0.2.9" addrtype="ipv4"/></host></nmaprun>');
  assert.equal(records[0].kind === 'host' && records[0].host.observedAt, NOW.toISOString());
});

test('banner from a service fingerprint: the NULL probe first, escapes undone', () => {
  const fp = 'SF-Port1-TCP:V=7.93%I=7%r(GetRequest,5,"GET\\x20x")%r(NULL,1C,"220\\x20ready\\.\\r\\n\nSF:\\x20\\"q\\"\\\\")';
  assert.equal(bannerFromServiceFp(fp), '220 ready.\r\n "q"\\');
  assert.equal(bannerFromServiceFp('SF-Port1-TCP:V=7.93%r(GetRequest,3,"a\\x20b")'), 'a b');
  assert.equal(bannerFromServiceFp('nothing here'), undefined);
});

test('malformed XML: the broken host is rejected at its byte offset; hosts before and after are kept', async () => {
  const good = host('<ports><port protocol="tcp" portid="80"><state state="open"/></port></ports>');
  const broken = host('<ports><port protocol="tcp" portid="81"><state state="open"></port></ports>');
  const cut = '<host starttime="1"><status state="up"/><address addr="192.0.2.7" addrtype="ipv4"/><ports><port protocol="tcp" portid="82">';
  const doc = HEAD + good + broken + good + cut + good + '</nmaprun>\n';
  const records = await collect(doc);
  assert.deepEqual(records.map((r) => r.kind), ['host', 'rejected', 'host', 'rejected', 'host']);
  const brokenStart = Buffer.byteLength(HEAD + good);
  assert.equal(records[1].position, `byte ${brokenStart + broken.indexOf('</port>')}`);
  assert.match(records[1].kind === 'rejected' ? records[1].reason : '', /malformed XML: <host> dropped: <\/port> found where <\/state> was expected/);
  const secondGood = Buffer.byteLength(HEAD + good + broken + good + cut);
  assert.equal(records[3].position, `byte ${secondGood}`);
  assert.equal(records[4].position, `byte ${secondGood}`);

  const truncated = await collect(HEAD + good + good.slice(0, 60));
  assert.deepEqual(truncated.map((r) => r.kind), ['host', 'rejected']);
  // Cut inside a tag: the first error is that unterminated tag.
  assert.equal(truncated[1].position, `byte ${Buffer.byteLength(HEAD + good) + good.slice(0, 60).lastIndexOf('<')}`);
  const cutAfterTag = await collect(HEAD + good + good.slice(0, good.indexOf('<ports>')));
  assert.equal(cutAfterTag[1].position, `byte ${Buffer.byteLength(HEAD + good + good.slice(0, good.indexOf('<ports>')))}`);
});

test('a bad port number rejects the host; a non-nmaprun root is refused', async () => {
  const records = await collect(HEAD + host('<ports><port protocol="tcp" portid="70000"><state state="open"/></port></ports>') + '</nmaprun>');
  assert.equal(records[0].kind, 'rejected');
  assert.match(records[0].kind === 'rejected' ? records[0].reason : '', /bad portid/);
  const other = await collect('<?xml version="1.0"?><svg><host/></svg>');
  assert.deepEqual(other.map((r) => [r.kind, r.position]), [['rejected', 'byte 21']]);
});

test('sniffing nmap XML (and not masscan XML)', () => {
  assert.ok(nmapXmlSource.sniff(Buffer.from(HEAD)));
  assert.ok(nmapXmlSource.sniff(Buffer.from('<?xml version="1.0"?>\n<nmaprun start="1">')));
  assert.equal(nmapXmlSource.sniff(Buffer.from('<?xml version="1.0"?>\r\n<nmaprun scanner="masscan" start="1">')), false);
  assert.equal(nmapXmlSource.sniff(Buffer.from('<?xml version="1.0"?><svg/>')), false);
  assert.equal(nmapXmlSource.sniff(Buffer.from('[{"ip": "1.2.3.4"}]')), false);
});

test('streaming: a host comes out before the input ends', async () => {
  const input = new PassThrough();
  input.write(HEAD + host('<ports><port protocol="tcp" portid="80"><state state="open"/></port></ports>'));
  const it = nmapXmlSource.read(input, { now: NOW })[Symbol.asyncIterator]();
  const first = await it.next();
  assert.equal(first.done, false);
  assert.equal(first.value.kind, 'host');
  input.end('</nmaprun>\n');
  assert.equal((await it.next()).done, true);
});
