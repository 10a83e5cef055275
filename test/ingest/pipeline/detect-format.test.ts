/**
 * Format detection over real fixtures of every reader (plus small hand-written masscan inputs in
 * the shapes of masscan's documentation), plain and gzip-compressed, and one ingest of them all
 * into a store.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { detectFormat, ingestStream, openForIngest, SOURCES } from '../../../src/ingest/pipeline/index.ts';
import { deps, tempRuntime } from './helpers.ts';

const fixture = (p: string) => new URL(`../../fixtures/${p}`, import.meta.url);

const MASSCAN_LIST = '#masscan\nopen tcp 80 192.0.2.1 1700000000\nopen tcp 22 192.0.2.1 1700000001\n# end\n';
const MASSCAN_JSON = '[\n{   "ip": "192.0.2.2",   "timestamp": "1700000000", "ports": [ {"port": 80, "proto": "tcp", "status": "open", "reason": "syn-ack", "ttl": 64} ] }\n]\n';
const MASSCAN_XML =
  '<?xml version="1.0"?>\n<!-- masscan v1.0 scan -->\n<nmaprun scanner="masscan" start="1700000000" version="1.0-BETA" xmloutputversion="1.03">\n' +
  '<scaninfo type="syn" protocol="tcp" />\n<host endtime="1700000000"><address addr="192.0.2.3" addrtype="ipv4"/><ports><port protocol="tcp" portid="443">' +
  '<state state="open" reason="syn-ack" reason_ttl="64"/></port></ports></host>\n<runstats><finished time="1700000001" timestr="x" elapsed="1" /></runstats>\n</nmaprun>\n';

const CASES: { name: string; bytes: () => Buffer; format: string }[] = [
  { name: 'nmap/loopback-sv.xml', bytes: () => readFileSync(fixture('nmap/loopback-sv.xml')), format: 'nmap-xml' },
  { name: 'zgrab2/scan.jsonl', bytes: () => readFileSync(fixture('zgrab2/scan.jsonl')), format: 'zgrab2' },
  { name: 'projectdiscovery/httpx.jsonl', bytes: () => readFileSync(fixture('projectdiscovery/httpx.jsonl')), format: 'httpx' },
  { name: 'projectdiscovery/naabu.jsonl', bytes: () => readFileSync(fixture('projectdiscovery/naabu.jsonl')), format: 'naabu' },
  { name: 'projectdiscovery/tlsx.jsonl', bytes: () => readFileSync(fixture('projectdiscovery/tlsx.jsonl')), format: 'tlsx' },
  { name: 'ct/get-entries.json', bytes: () => readFileSync(fixture('ct/get-entries.json')), format: 'ct-entries' },
  { name: 'certificates/chain-with-text.pem', bytes: () => readFileSync(fixture('certificates/chain-with-text.pem')), format: 'pem' },
  { name: 'certificates/leaf.der', bytes: () => readFileSync(fixture('certificates/leaf.der')), format: 'der' },
  { name: 'certificates/chain.p7b', bytes: () => readFileSync(fixture('certificates/chain.p7b')), format: 'pkcs7' },
  { name: 'masscan/scan.json', bytes: () => readFileSync(fixture('masscan/scan.json')), format: 'masscan-json' },
  { name: 'masscan/scan.ndjson', bytes: () => readFileSync(fixture('masscan/scan.ndjson')), format: 'masscan-ndjson' },
  { name: 'masscan/scan.list', bytes: () => readFileSync(fixture('masscan/scan.list')), format: 'masscan-list' },
  { name: 'masscan/scan.xml', bytes: () => readFileSync(fixture('masscan/scan.xml')), format: 'masscan-xml' },
  { name: 'masscan -oL (hand-written)', bytes: () => Buffer.from(MASSCAN_LIST), format: 'masscan-list' },
  { name: 'masscan -oJ (hand-written)', bytes: () => Buffer.from(MASSCAN_JSON), format: 'masscan-json' },
  { name: 'masscan -oX (hand-written)', bytes: () => Buffer.from(MASSCAN_XML), format: 'masscan-xml' },
];

test('every format has a distinct name', () => {
  const names = SOURCES.map((s) => s.format);
  assert.equal(new Set(names).size, names.length);
});

for (const c of CASES) {
  test(`detects ${c.name} as ${c.format}, plain and gzip`, async (t) => {
    if (c.name.includes('/') && !existsSync(fixture(c.name))) return t.skip('fixture not present');
    const bytes = c.bytes();
    assert.equal(detectFormat(bytes)?.format, c.format);
    const plain = await openForIngest(Readable.from([bytes]));
    assert.equal(plain.gzip, false);
    assert.equal(detectFormat(plain.head)?.format, c.format);
    const gz = gzipSync(bytes);
    // Small chunks: detection must not depend on how the input arrives.
    const chunks: Buffer[] = [];
    for (let i = 0; i < gz.length; i += 7) chunks.push(gz.subarray(i, i + 7));
    const zipped = await openForIngest(Readable.from(chunks));
    assert.equal(zipped.gzip, true);
    assert.equal(detectFormat(zipped.head)?.format, c.format);
    const replayed: Buffer[] = [];
    for await (const chunk of zipped.stream) replayed.push(chunk as Buffer);
    assert.deepEqual(Buffer.concat(replayed), bytes, 'the reader sees the whole input from its first byte');
  });
}

test('nothing claims text that is not scanner output, or an empty input', () => {
  assert.equal(detectFormat(Buffer.from('hello, world\nthis is a note\n')), undefined);
  assert.equal(detectFormat(Buffer.alloc(0)), undefined);
});

test('every fixture ingests in one run', async () => {
  const t = await tempRuntime();
  try {
    const inputs = CASES.filter((c) => !c.name.includes('/') || existsSync(fixture(c.name))).map((c) => ({
      name: c.name,
      open: () => Readable.from([c.bytes()]),
    }));
    const r = await ingestStream(inputs, 'auto', deps(t.rt));
    assert.ok(r.ok);
    assert.deepEqual(r.value.formats.map((f) => f.format), CASES.filter((c) => inputs.some((i) => i.name === c.name)).map((c) => c.format));
    const s = r.value.summary;
    assert.ok(s.hosts.created >= 5, `hosts created: ${s.hosts.created}`);
    assert.ok(s.certificates.new >= 3, `certificates: ${s.certificates.new}`);
    assert.ok(await t.rt.store.documents.get('hosts', '192.0.2.1'), 'masscan list host');
    assert.ok(await t.rt.store.documents.get('hosts', '192.0.2.3'), 'masscan XML host');
    if (existsSync(fixture('masscan/scan.json'))) assert.ok(await t.rt.store.documents.get('hosts', '10.77.0.2'), 'real masscan host');
  } finally {
    await t.close();
  }
});
