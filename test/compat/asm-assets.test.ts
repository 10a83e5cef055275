/**
 * The real censys-python 2.1.9 AsmClient (Debian python3-censys) against a live server holding
 * the crafted assets of test/http/asm-assets-fixture.ts: hosts, certificates, domains and
 * subdomains with paging over several pages, comments, tags, and the exceptions the client picks
 * from ASM errorCodes. The Python side records what it saw; this side checks it.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { assertPython, listen, runPython } from './run-python.ts';
import { BULK_HOSTS, BUCKET, HOST_A, HOST_B, SHA_A, SHA_B, loadFixture } from '../http/asm-assets-fixture.ts';

let server: TestServer;
let out: Record<string, any>;
let base: string;

before(async () => {
  assertPython();
  server = await startTestServer({ hosts: 5, certificates: 3 });
  await server.rt.store.seeds.add(server.admin.user.workspaceId, [{ type: 'DOMAIN_NAME', value: 'example.com', label: 'fixture' }], 'API', '2026-10-01T00:00:00.000Z');
  await loadFixture(server.rt.store, server.admin.user.workspaceId);
  base = await listen(server);
  out = await runPython('test/compat/asm_assets_2_1_9.py', {
    PERISCOPE_URL: base,
    PERISCOPE_ASM_KEY: server.admin.asmKey,
    PERISCOPE_OTHER_ASM_KEY: server.other.asmKey,
    HOST_A,
    SHA_A,
    BUCKET,
  });
});

after(async () => {
  await server?.close();
});

const byteOrder = (ids: string[]) => [...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

test('it is the 2.1.9 client', () => {
  assert.equal(out.client_version, '2.1.9');
});

test('hosts: every host once over several pages, from a later page, with the trail', () => {
  const all = byteOrder([HOST_A, HOST_B, ...Array.from({ length: BULK_HOSTS }, (_, i) => `198.51.100.${i + 1}`)]);
  assert.deepEqual(out.hosts, all);
  assert.deepEqual(out.hosts_default_page, all);
  assert.deepEqual(out.hosts_from_page_3, all.slice(20));
  assert.deepEqual(out.hosts_trail, [{ type: 'CIDR', assetId: '198.51.100.0/24', isSeed: true, refUrl: null }]);
  assert.equal(out.host.assetId, HOST_A);
  assert.equal(out.host.data.ipAddress, HOST_A);
  assert.deepEqual(out.host.data.protocols.map((p: any) => p.port), [22, 443]);
  assert.equal(out.host.comments.refUrl, `${base}/v1/assets/hosts/${HOST_A}/comments`);
});

test('certificates and domains, paged one at a time', () => {
  assert.deepEqual(out.certificates, [SHA_A, SHA_B]);
  assert.equal(out.certificate.data.sha256, SHA_A);
  assert.equal(out.certificate.data.ownershipStatus, 'OWNED_BY');
  assert.deepEqual(out.domains, ['example.com', 'example.org']);
  assert.equal(out.domain.data.domain, 'example.com');
  assert.deepEqual(out.domain_subdomains, ['api.example.com', 'www.example.com']);
});

test('subdomains through the per-domain class: list, get, comments, tags', () => {
  assert.deepEqual(out.subdomains, ['api.example.com', 'www.example.com']);
  assert.equal(out.subdomain.data.subdomain, 'www.example.com');
  assert.equal(out.subdomain.data.domain, 'example.com');
  assert.deepEqual(out.subdomain_comments.map((c: any) => [c.type, c.subdomain, c.markdown]), [['SUBDOMAIN', 'www.example.com', 'subdomain note']]);
  assert.deepEqual(out.subdomain_tag, { name: 'web', color: '#00ff00' });
  assert.deepEqual(out.subdomain_tagged, [{ name: 'web', color: '#00ff00' }]);
  assert.deepEqual(out.subdomain_untag, {});
  assert.deepEqual(out.subdomain_comment_deleted, {});
});

test('comments: add, list over pages, get, delete', () => {
  assert.equal(out.comments_added.length, 5);
  for (const c of out.comments_added) {
    assert.deepEqual(Object.keys(c).sort(), ['commentId', 'createdBy', 'createdOn', 'markdown']);
    assert.equal(c.createdBy, 'admin@example.test');
  }
  assert.deepEqual(out.comments.map((c: any) => c.markdown), ['note 1', 'note 2', 'note 3', 'note 4', 'note 5']);
  assert.deepEqual(out.comment, { type: 'HOST', ipAddress: HOST_A, ...out.comments_added[1] });
  assert.deepEqual(out.comment_deleted, {});
  assert.deepEqual(out.comments_after_delete, out.comments_added.slice(1).map((c: any) => c.commentId));
  assert.equal(out.host_comment_count, 4);
});

test('tags: colours, names with spaces, tag filters, delete', () => {
  assert.deepEqual(out.tag_added, { name: 'compat', color: '#4287f5' });
  assert.deepEqual(out.tag_plain, { name: 'my tag', color: '#ffffff' });
  assert.deepEqual(out.host_tags, [
    { name: 'compat', color: '#4287f5' },
    { name: 'my tag', color: '#ffffff' },
  ]);
  assert.deepEqual(out.tagged_hosts, [HOST_A]);
  assert.equal(out.untagged_hosts_count, BULK_HOSTS + 1);
  assert.deepEqual(out.tag_deleted, {});
  assert.deepEqual(out.host_tags_after, [{ name: 'compat', color: '#4287f5' }]);
});

test('errors raise the client exception of their errorCode', () => {
  const expectations: [string, string, number, number][] = [
    ['err_host', 'CensysHostNotFoundException', 404, 10018],
    ['err_ipv4', 'CensysInvalidIPv4AddressException', 422, 10021],
    ['err_cert', 'CensysCertificateNotFoundException', 404, 10020],
    ['err_domain', 'CensysDomainNotFoundException', 404, 10019],
    ['err_domain_subdomains', 'CensysDomainNotFoundException', 404, 10019],
    ['err_subdomain', 'CensysSubdomainNotFoundException', 404, 10057],
    ['err_comment', 'CensysCommentNotFoundException', 404, 10055],
    ['err_comment_empty', 'CensysInvalidCommentException', 400, 10054],
    ['err_comment_html', 'CensysInvalidCommentHTMLException', 400, 10099],
    ['err_tag_space', 'CensysTagHasTrailingOrLeadingWhitespaceException', 400, 10025],
    ['err_tag_empty', 'CensysTagIsEmptyStringException', 400, 10026],
    ['err_tag_casing', 'CensysTagLabelsDifferOnlyInCasingException', 400, 10027],
    ['err_tag_long', 'CensysTagLabelTooLongException', 400, 10028],
    ['err_color_long', 'CensysTagColorTooLongException', 400, 10034],
    ['err_page_size', 'CensysInvalidPageSizeException', 400, 10050],
    ['err_page_number', 'CensysPageNumberOutOfRangeException', 400, 10051],
  ];
  for (const [key, raised, status, code] of expectations) {
    assert.equal(out[key].raised, raised, `${key}: ${JSON.stringify(out[key])}`);
    assert.equal(out[key].status, status, key);
    assert.equal(out[key].error_code, code, key);
  }
  assert.match(out.err_host.text, /^404 \(Error Code: 10018\), Host not Found\. /);
  assert.match(out.err_tag_casing.text, /'similarLabels': \['compat'\]/);
  // Checked by the client before sending.
  assert.equal(out.err_color_local.raised, 'CensysInvalidColorException');
});

test('another workspace sees none of it', () => {
  assert.deepEqual(out.other_hosts, []);
  assert.equal(out.other_subdomains.raised, 'CensysDomainNotFoundException');
  assert.equal(out.other_host.raised, 'CensysHostNotFoundException');
  assert.equal(out.other_comments.raised, 'CensysHostNotFoundException');
});
