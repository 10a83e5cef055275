import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAMILIES, parseStorageId, parseWebEntityId } from './asset-families.ts';
import { pageInfo, parsePage } from './asset-page.ts';
import { checkCasing, checkTagInput } from './tag-rules.ts';
import { checkComment } from './comment-rules.ts';
import { parseCpe } from './cpe.ts';
import { isEndOfLife } from './software-eol.ts';
import { certId, ownedBy } from './present-assets.ts';

const code = (r: { ok: boolean; problem?: { asmCode?: number; code: string } }) => (r.ok ? 'ok' : (r.problem!.asmCode ?? r.problem!.code));

test('path ids become asset ids, or the family error', () => {
  assert.deepEqual(FAMILIES.hosts.parseId('2001:DB8::0:1'), { ok: true, value: '2001:db8::1' });
  assert.equal(code(FAMILIES.hosts.parseId('1.2.3')), 10021);
  assert.equal(code(FAMILIES.hosts.parseId('0x01020304')), 10021);
  assert.deepEqual(FAMILIES.certificates.parseId('AB'.repeat(32)), { ok: true, value: 'ab'.repeat(32) });
  assert.equal(code(FAMILIES.certificates.parseId('ab')), 10020);
  assert.deepEqual(FAMILIES.domains.parseId('Example.COM.'), { ok: true, value: 'example.com' });
  assert.equal(code(FAMILIES.domains.parseId('a b.com')), 10019);
  assert.equal(code(FAMILIES.subdomains.parseId('-bad-.example.com')), 10057);
  assert.equal(code(FAMILIES['object-storages'].parseId('bucket')), 10060);
  assert.equal(code(FAMILIES['web-entities'].parseId('www.example.com')), 10086);
});

test('web entity ids: name:port, IPv6 with or without brackets, as discovery names them', () => {
  assert.deepEqual(parseWebEntityId('WWW.Example.com:443'), { name: 'www.example.com', port: 443 });
  assert.deepEqual(parseWebEntityId('[2001:db8::1]:8443'), { name: '2001:db8::1', port: 8443 });
  assert.deepEqual(parseWebEntityId('2001:db8::1:443'), { name: '2001:db8::1', port: 443 });
  assert.deepEqual(FAMILIES['web-entities'].parseId('[2001:db8::1]:443'), { ok: true, value: '2001:db8::1:443' });
  for (const bad of ['example.com:0', 'example.com:65536', 'example.com:', ':443', 'a b:80']) assert.equal(parseWebEntityId(bad), undefined, bad);
});

test('bucket ids: URLs of the storage schemes, host lower-cased, path kept', () => {
  assert.equal(parseStorageId('https://My-Bucket.S3.amazonaws.com/'), 'https://my-bucket.s3.amazonaws.com/');
  assert.equal(parseStorageId('https://s3.amazonaws.com/MyBucket'), 'https://s3.amazonaws.com/MyBucket');
  assert.equal(parseStorageId('gs://bucket'), 'gs://bucket');
  for (const bad of ['', 'bucket', 'ftp://x/', 'https://', 'https://a b/']) assert.equal(parseStorageId(bad), undefined, bad);
});

test('paging: defaults, limits, and the page past the end', () => {
  assert.deepEqual(parsePage(undefined, undefined), { ok: true, value: { pageNumber: 1, pageSize: 500 } });
  assert.deepEqual(parsePage('3', '25'), { ok: true, value: { pageNumber: 3, pageSize: 25 } });
  assert.equal(code(parsePage('1', '0')), 10050);
  assert.equal(code(parsePage('1', '1001')), 10050);
  assert.equal(code(parsePage('0', '10')), 10051);
  assert.equal(code(parsePage('x', '10')), 'invalid_request');
  const req = { pageNumber: 1, pageSize: 10 };
  assert.deepEqual(pageInfo(req, 0), { ok: true, value: { pageNumber: 1, pageSize: 10, totalPages: 0, totalItems: 0 } });
  assert.deepEqual(pageInfo({ pageNumber: 3, pageSize: 10 }, 21), { ok: true, value: { pageNumber: 3, pageSize: 10, totalPages: 3, totalItems: 21 } });
  assert.equal(code(pageInfo({ pageNumber: 4, pageSize: 10 }, 21)), 10051);
  assert.equal(code(pageInfo({ pageNumber: 2, pageSize: 10 }, 0)), 10051);
});

test('tag rules in the order a person fixes them', () => {
  assert.deepEqual(checkTagInput({ name: 'prod' }), { ok: true, value: { name: 'prod', color: null } });
  assert.deepEqual(checkTagInput({ name: 'prod', color: '#ABCDEF' }), { ok: true, value: { name: 'prod', color: '#abcdef' } });
  assert.equal(code(checkTagInput({ name: '' })), 10026);
  assert.equal(code(checkTagInput({ name: ' a' })), 10025);
  assert.equal(code(checkTagInput({ name: 'é'.repeat(128) })), 'ok');
  assert.equal(code(checkTagInput({ name: 'é'.repeat(129) })), 10028);
  assert.equal(code(checkTagInput({ name: 'a', color: '#fff ' })), 10036);
  assert.equal(code(checkTagInput({ name: 'a', color: '#fffffff' })), 10034);
  assert.equal(code(checkTagInput({ name: 'a', color: '#ffff' })), 10037);
  assert.equal(code(checkTagInput(null)), 'invalid_request');
  assert.equal(code(checkCasing('Prod', ['prod', 'PROD', 'other'])), 10027);
  assert.equal(code(checkCasing('prod', ['prod', 'PROD'])), 'ok');
  assert.equal(code(checkCasing('new', ['prod'])), 'ok');
});

test('comment rules', () => {
  assert.deepEqual(checkComment({ markdown: 'fine' }), { ok: true, value: 'fine' });
  assert.equal(code(checkComment({ markdown: ' ' })), 10054);
  assert.equal(code(checkComment('text')), 10054);
  assert.equal(code(checkComment({ markdown: '<SCRIPT src=x>' })), 10099);
  assert.equal(code(checkComment({ markdown: '<div onclick = "x">' })), 10099);
  assert.equal(code(checkComment({ markdown: '![i](data:image/svg+xml;base64,xx)' })), 10099);
  assert.equal(code(checkComment({ markdown: 'a < b and c > d; JavaScript: the language' })), 'ok');
});

test('CPE fields, escaped colons, absent values', () => {
  assert.deepEqual(parseCpe('cpe:2.3:a:f5:nginx:1.18.0:*:*:*:*:*:*:*'), { part: 'a', vendor: 'f5', product: 'nginx', version: '1.18.0' });
  assert.deepEqual(parseCpe('cpe:2.3:o:microsoft:windows_server_2016:*:*:*:*:*:*:*:*'), { part: 'o', vendor: 'microsoft', product: 'windows_server_2016' });
  assert.deepEqual(parseCpe('cpe:2.3:a:x:y\\:z:-'), { part: 'a', vendor: 'x', product: 'y:z' });
  assert.deepEqual(parseCpe('not a cpe'), {});
});

test('end of life from the risk catalogue, at a date', () => {
  const now = new Date('2026-11-01T00:00:00Z');
  assert.equal(isEndOfLife('f5', 'nginx', '1.18.0', now), true);
  assert.equal(isEndOfLife('f5', 'nginx', '1.26.0', now), false);
  assert.equal(isEndOfLife('php', 'php', '8.2.1', now), false);
  assert.equal(isEndOfLife('php', 'php', '8.2.1', new Date('2027-01-02T00:00:00Z')), true);
  assert.equal(isEndOfLife(undefined, 'nginx', '1.18.0', now), false, 'vendor-bound rows need the vendor');
});

test('certificate ids and ownership', () => {
  assert.equal(certId('ff'.repeat(32)), 2 ** 48 - 1);
  assert.ok(Number.isSafeInteger(certId('ff'.repeat(32))));
  assert.equal(ownedBy(['*.example.com'], ['example.com']), true);
  assert.equal(ownedBy(['www.example.com'], ['example.com']), true);
  assert.equal(ownedBy(['notexample.com'], ['example.com']), false);
  assert.equal(ownedBy(['www.example.com'], []), false);
});
