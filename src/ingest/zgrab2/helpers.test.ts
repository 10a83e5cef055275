import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { htmlTags, htmlTitle } from './html.ts';
import { zgrabHeaders } from './http-result.ts';
import { jsonHead } from './read-lines.ts';
import { readLines } from '../../lib/read-lines.ts';
import { serverHeaderSoftware, sshSoftware, technologySoftware } from './software.ts';
import { tlsVersionName } from './tls-handshake.ts';
import { zgrab2Source } from './zgrab2-source.ts';

async function lines(chunks: (string | Buffer)[]): Promise<[number, string][]> {
  const out: [number, string][] = [];
  for await (const l of readLines(Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))))) out.push([l.number, l.text]);
  return out;
}

test('readLines: numbering over blank lines, CRLF, last line without newline', async () => {
  assert.deepEqual(await lines(['a\r\n\nb', 'c\n', '\r\nd']), [[1, 'a'], [3, 'bc'], [5, 'd']]);
  assert.deepEqual(await lines([]), []);
});

test('readLines: a UTF-8 character split across chunks stays whole', async () => {
  const bytes = Buffer.from('{"t":"héllo → ✓"}\n');
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 3) chunks.push(bytes.subarray(i, i + 3));
  assert.deepEqual(await lines(chunks), [[1, '{"t":"héllo → ✓"}']]);
});

test('jsonHead: complete first object, cut-off prefix, or nothing', () => {
  assert.deepEqual(jsonHead(Buffer.from('\n{"a":1}\n{"b"')), { complete: true, value: { a: 1 } });
  assert.deepEqual(jsonHead(Buffer.from('{"a":1,"b":')), { complete: false, prefix: '{"a":1,"b":' });
  assert.equal(jsonHead(Buffer.from('{"a":1,"b":\n')), undefined);
  assert.equal(jsonHead(Buffer.from('[{"a":1}]\n')), undefined);
});

test('zgrab headers → canonical Censys keys (underscores, capitalised words), unknown list merged', () => {
  assert.deepEqual(
    zgrabHeaders({ content_type: ['text/html'], 'x-frame-options': ['DENY'], WWW_AUTHENTICATE: ['Basic'], set_cookie: ['a=1', 'b=2'], unknown: [{ key: 'x-custom-thing', value: ['1'] }, { key: 'Set-Cookie', value: ['c=3'] }] }),
    { Content_Type: ['text/html'], X_Frame_Options: ['DENY'], Www_Authenticate: ['Basic'], Set_Cookie: ['a=1', 'b=2', 'c=3'], X_Custom_Thing: ['1'] },
  );
  assert.deepEqual(zgrabHeaders('nope'), {});
});

test('html title: entities decoded, whitespace collapsed, none when absent; tags listed', () => {
  assert.equal(htmlTitle('<html><head><TITLE lang="en">\n Caf&eacute; &amp; Bar &#8211; &#x41;  </TITLE>'), 'Caf&eacute; & Bar – A');
  assert.equal(htmlTitle('<title></title>'), undefined);
  assert.equal(htmlTitle('no html'), undefined);
  assert.deepEqual(htmlTags('<meta a="1"><title>x</title><p>'), ['<meta a="1">', '<title>x</title>']);
});

test('Server header software: products, versions, CPE only with a version, OS from comments', () => {
  assert.deepEqual(serverHeaderSoftware('Apache/2.4.57 (Debian) OpenSSL/3.0.11'), [
    { vendor: 'apache', product: 'http_server', part: 'a', version: '2.4.57', cpe: 'cpe:2.3:a:apache:http_server:2.4.57:*:*:*:*:*:*:*' },
    { vendor: 'debian', product: 'debian_linux', part: 'o' },
    { vendor: 'openssl', product: 'openssl', part: 'a', version: '3.0.11', cpe: 'cpe:2.3:a:openssl:openssl:3.0.11:*:*:*:*:*:*:*' },
  ]);
  assert.deepEqual(serverHeaderSoftware('Microsoft-IIS/8.5'), [
    { vendor: 'microsoft', product: 'internet_information_services', part: 'a', version: '8.5', cpe: 'cpe:2.3:a:microsoft:internet_information_services:8.5:*:*:*:*:*:*:*' },
  ]);
  assert.deepEqual(serverHeaderSoftware('nginx'), [{ vendor: 'f5', product: 'nginx', part: 'a' }]);
  assert.deepEqual(serverHeaderSoftware('gws'), [{ product: 'gws', part: 'a' }]);
  assert.deepEqual(serverHeaderSoftware('  '), []);
});

test('technology names and SSH software versions', () => {
  assert.equal(technologySoftware('Nginx:1.25.3')?.cpe, 'cpe:2.3:a:f5:nginx:1.25.3:*:*:*:*:*:*:*');
  assert.deepEqual(technologySoftware('Apache HTTP Server:2.4.41')?.product, 'http_server');
  assert.deepEqual(technologySoftware('Cloudflare'), { product: 'Cloudflare', part: 'a' });
  assert.equal(technologySoftware(''), undefined);
  assert.equal(sshSoftware('dropbear_2022.83')?.cpe, 'cpe:2.3:a:dropbear_ssh_project:dropbear_ssh:2022.83:*:*:*:*:*:*:*');
  assert.equal(sshSoftware('OpenSSH_7.4')?.cpe, 'cpe:2.3:a:openbsd:openssh:7.4:*:*:*:*:*:*:*');
  assert.deepEqual(sshSoftware('libssh_0.9.6'), { product: 'libssh', part: 'a', version: '0.9.6' });
});

test('TLS version spellings', () => {
  assert.deepEqual(['TLSv1.2', 'tls13', 'tls10', 'TLS 1.1', 'TLSv1', 'SSLv3', 'SSL 2.0', 'weird'].map(tlsVersionName), ['TLSv1_2', 'TLSv1_3', 'TLSv1_0', 'TLSv1_1', 'TLSv1_0', 'SSLv3', 'SSLv2', 'weird']);
});

test('unknown-error is an open UNKNOWN service; an unlisted status is too, labelled', async () => {
  const text = '{"ip":"192.0.2.7","data":{"ftp":{"status":"unknown-error","protocol":"ftp","result":{"banner":"220-"}},"smtp":{"status":"weird-status","protocol":"smtp","result":{}}}}\n';
  const recs: unknown[] = [];
  for await (const r of zgrab2Source.read(Readable.from([Buffer.from(text)]), { now: new Date(0) })) recs.push(r);
  const host = recs[0] as { host: { services: unknown[] } };
  assert.deepEqual(host.host.services, [
    { port: 21, transport: 'TCP', state: 'open', serviceName: 'UNKNOWN', banner: '220-' },
    { port: 25, transport: 'TCP', state: 'open', serviceName: 'UNKNOWN', labels: ['zgrab2-status:weird-status'] },
  ]);
});
