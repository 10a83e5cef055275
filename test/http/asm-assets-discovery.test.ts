/**
 * From seeds to assets end to end: seeds added through the API, scan data put through the
 * Indexer, discovery writes the assets, and the asset API shows them in their §2B.3 shapes.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { asmCaller } from './asm-support.ts';

let s: TestServer;
const asm = asmCaller(() => s);
const FP = 'd1'.repeat(32);
const OBSERVED = '2026-10-30T12:00:00.000Z';

before(async () => {
  s = await startTestServer({ hosts: 5, certificates: 3 });
  await s.rt.indexer.put('certificates', [
    {
      id: FP,
      doc: {
        fingerprint_sha256: FP,
        names: ['disco-periscope.net', 'www.disco-periscope.net'],
        parsed: {
          issuer: { organization: ['Disco CA'] },
          subject_dn: 'CN=www.disco-periscope.net',
          validity_period: { not_before: '2026-01-01T00:00:00Z', not_after: '2027-01-01T00:00:00Z' },
          subject_key_info: { key_algorithm: { name: 'ECDSA' }, ecdsa: { length: 256, curve: 'P-256' } },
        },
      },
      observedAt: OBSERVED,
    },
  ]);
  await s.rt.indexer.put('hosts', [
    {
      id: '11.22.33.5',
      doc: {
        ip: '11.22.33.5',
        dns: { names: ['www.disco-periscope.net'], records: { 'www.disco-periscope.net': { record_type: 'A', resolved_at: OBSERVED } } },
        services: [
          { port: 443, service_name: 'HTTP', extended_service_name: 'HTTPS', transport_protocol: 'TCP', certificate: FP, observed_at: OBSERVED },
          {
            port: 80,
            service_name: 'HTTP',
            transport_protocol: 'TCP',
            observed_at: OBSERVED,
            software: [{ uniform_resource_identifier: 'cpe:2.3:a:f5:nginx:1.25.3:*:*:*:*:*:*:*', part: 'a', vendor: 'f5', product: 'nginx', version: '1.25.3' }],
          },
        ],
      },
      observedAt: OBSERVED,
    },
    {
      id: '11.22.33.6',
      doc: {
        ip: '11.22.33.6',
        services: [
          { port: 22, service_name: 'SSH', transport_protocol: 'TCP', observed_at: OBSERVED },
          { port: 3389, service_name: 'RDP', transport_protocol: 'TCP', observed_at: OBSERVED },
        ],
      },
      observedAt: OBSERVED,
    },
    { id: '11.22.99.1', doc: { ip: '11.22.99.1', services: [{ port: 22, service_name: 'SSH', transport_protocol: 'TCP' }] }, observedAt: OBSERVED },
  ]);
  const added = await asm('POST', '/api/v1/seeds', {
    body: {
      seeds: [
        { type: 'DOMAIN_NAME', value: 'disco-periscope.net', label: 'disco' },
        { type: 'CIDR', value: '11.22.33.0/24', label: 'disco' },
      ],
    },
  });
  assert.equal(added.json.addedSeeds.length, 2, added.body);
  // Joins (or follows) the run the seed change started.
  await s.rt.discovery.evaluate(s.admin.user.workspaceId);
});
after(async () => {
  await s?.close();
});

test('hosts of the CIDR seed, with what their documents say', async () => {
  const list = await asm('GET', '/api/v1/assets/hosts?discoveryTrail=True');
  assert.deepEqual(list.json.assets.map((a: any) => a.assetId), ['11.22.33.5', '11.22.33.6']);
  const host = list.json.assets[0];
  assert.equal(host.discoveryTrail[0].type, 'CIDR');
  assert.equal(host.discoveryTrail[0].assetId, '11.22.33.0/24');
  assert.deepEqual(host.data.names.forwardDns, [{ name: 'www.disco-periscope.net', resolvedAt: OBSERVED }]);
  assert.deepEqual(host.data.protocols.map((p: any) => [p.port, p.protocol, p.certificates.map((c: any) => c.sha256)]), [
    [80, 'HTTP', []],
    [443, 'HTTPS', [FP]],
  ]);
  assert.deepEqual(host.data.protocols[0].software.map((x: any) => [x.product, x.version, x.isEol]), [['nginx', '1.25.3', false]]);
});

test('open risks are embedded in the HOST_RISK shape', async () => {
  const host = await asm('GET', '/api/v1/assets/hosts/11.22.33.6');
  const rdp = host.json.risks.find((r: any) => r.port === 3389);
  assert.ok(rdp, JSON.stringify(host.json.risks));
  assert.deepEqual(Object.keys(rdp).sort(), ['categories', 'name', 'port', 'severity', 'title', 'transportProtocol', 'type']);
  assert.equal(rdp.type, 'HOST_RISK');
  assert.equal(rdp.transportProtocol, 'TCP');
  assert.ok(['low', 'medium', 'high', 'critical'].includes(rdp.severity));
  assert.ok(Array.isArray(rdp.categories));
  const list = await asm('GET', '/api/v1/assets/hosts');
  assert.deepEqual(list.json.assets.find((a: any) => a.assetId === '11.22.33.6').risks, host.json.risks);
});

test('the certificate they present, owned through the domain seed', async () => {
  const r = await asm('GET', `/api/v1/assets/certificates/${FP}`);
  assert.equal(r.status, 200, r.body);
  assert.equal(r.json.data.ownershipStatus, 'OWNED_BY');
  assert.equal(r.json.data.issuerName, 'Disco CA');
  assert.deepEqual(r.json.data.publicKey, { algorithmName: 'ECDSA', length: 256, exponent: 0, curve: 'P-256' });
  assert.deepEqual(r.json.data.hostsPresentingCert.map((h: any) => [h.assetId, h.port, h.lastSeenAt]), [['11.22.33.5', 443, OBSERVED]]);
});

test('the domain seed, its subdomains through both paths, and the web entity', async () => {
  const domain = await asm('GET', '/api/v1/assets/domains/disco-periscope.net');
  assert.equal(domain.status, 200, domain.body);
  assert.equal(domain.json.isSeed, true);
  const subs = await asm('GET', '/api/v1/assets/domains/disco-periscope.net/subdomains');
  const www = subs.json.subdomains.find((x: any) => x.subdomain === 'www.disco-periscope.net');
  assert.ok(www, JSON.stringify(subs.json));
  assert.deepEqual(www.resolvedHosts.map((h: any) => h.ipAddress), ['11.22.33.5']);
  const one = await asm('GET', '/api/v1/assets/subdomains/www.disco-periscope.net');
  assert.equal(one.json.data.domain, 'disco-periscope.net');
  const web = await asm('GET', '/api/v1/assets/web-entities/www.disco-periscope.net:443');
  assert.equal(web.status, 200, web.body);
  const instances = await asm('GET', '/api/v1/assets/web-entities/www.disco-periscope.net:443/instances');
  assert.deepEqual(instances.json.instances.map((i: any) => i.ipAddress), ['11.22.33.5']);
  assert.equal(instances.json.cursor, null);
});

test('annotations made on a discovered asset stay when discovery runs again', async () => {
  assert.equal((await asm('POST', '/api/v1/assets/hosts/11.22.33.6/tags', { body: { name: 'ssh-only' } })).status, 200);
  assert.equal((await asm('POST', '/api/v1/assets/hosts/11.22.33.6/comments', { body: { markdown: 'jump host' } })).status, 200);
  await s.rt.discovery.evaluate(s.admin.user.workspaceId);
  const host = await asm('GET', '/api/v1/assets/hosts/11.22.33.6');
  assert.deepEqual(host.json.tags, [{ name: 'ssh-only', color: '#ffffff' }]);
  assert.equal(host.json.comments.totalComments, 1);
  assert.deepEqual((await asm('GET', '/api/v1/assets/hosts?tag=ssh-only')).json.assets.map((a: any) => a.assetId), ['11.22.33.6']);
});

test('the other workspace discovered nothing', async () => {
  const r = await asm('GET', '/api/v1/assets/hosts', { key: s.other.asmKey });
  assert.deepEqual(r.json.assets, []);
  assert.equal((await asm('GET', '/api/v1/assets/domains/disco-periscope.net', { key: s.other.asmKey })).json.errorCode, 10019);
});
