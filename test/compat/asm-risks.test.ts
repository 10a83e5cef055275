/**
 * The real censys-python 2.1.9 client (Debian python3-censys) against a live server: seeds added
 * through the client make discovery find crafted hosts, risk evaluation opens their risks, and the
 * client's Risksv2 (AsmClient.risks) and Risksv1 classes read and change them.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { assertPython, listen, runPython } from './run-python.ts';

const H1 = '45.76.1.10';
const H2 = '45.76.1.11';
let server: TestServer;
let out: Record<string, any>;

before(async () => {
  assertPython();
  server = await startTestServer({ hosts: 10, certificates: 5 });
  const observedAt = new Date().toISOString();
  await server.rt.indexer.put('hosts', [
    {
      id: H1,
      doc: {
        ip: H1,
        cloud: { provider: 'Amazon AWS' },
        services: [
          { port: 23, service_name: 'TELNET', transport_protocol: 'TCP' },
          { port: 3389, service_name: 'RDP', transport_protocol: 'TCP' },
        ],
      },
      observedAt,
    },
    { id: H2, doc: { ip: H2, services: [{ port: 6379, service_name: 'REDIS', transport_protocol: 'TCP' }] }, observedAt },
  ]);
  const base = await listen(server);
  out = await runPython('test/compat/asm_risks_2_1_9.py', {
    PERISCOPE_URL: base,
    PERISCOPE_ASM_KEY: server.admin.asmKey,
    PERISCOPE_OTHER_ASM_KEY: server.other.asmKey,
    PERISCOPE_SEED_IPS: `${H1},${H2}`,
  });
});

after(async () => {
  await server?.close();
});

const TYPES = ['service.database.redis_exposed', 'service.remote_access.rdp_exposed', 'service.remote_access.telnet_exposed'];

test('it is the 2.1.9 client, and AsmClient.risks is its Risksv2', () => {
  assert.equal(out.client_version, '2.1.9');
  assert.equal(out.is_v2, true);
  assert.equal(out.seeded.addedSeeds.length, 2);
});

test('get_risk_instances and get_risk_instance, with and without events', () => {
  const risks = out.instances.risks;
  assert.deepEqual(risks.map((r: any) => r.typeID).sort(), TYPES);
  for (const r of risks) {
    assert.equal(typeof r.id, 'number');
    assert.equal(r.status, 'open');
    assert.deepEqual(r.metadata[0], { src: 'system' });
    assert.equal(r.events, undefined);
  }
  assert.ok(out.instances_events.risks.every((r: any) => r.events.length === 1 && r.events[0].op === 'open'));
  const one = out.instance;
  assert.equal(one.typeID, 'service.remote_access.telnet_exposed');
  assert.equal(one.context.port, 23);
  assert.equal(one.context.cri, `cri:service:${H1}:23/tcp`);
  assert.equal(one.assetID, H1);
  assert.equal(one.events[0].riskID, one.id);
});

test('patch_risk_instance and patch_risk_instances answer the counters and change the instances', () => {
  assert.deepEqual(out.patch_one, { changes: 1, categoriesChanges: 0, metadataAdded: 0, metadataRemoved: 0, severityChanges: 1, skips: 0, userStatusChanges: 1 });
  assert.deepEqual(out.patch_many, { changes: 2, categoriesChanges: 2, metadataAdded: 0, metadataRemoved: 0, severityChanges: 0, skips: 1, userStatusChanges: 0 });
  assert.deepEqual([out.after_patch.userStatus, out.after_patch.severity, out.after_patch.categories], ['investigating', 'accepted', ['Triage']]);
});

test('search_risk_instances with the documented body', () => {
  assert.equal(out.search.total, 3);
  for (const r of out.search.risks) assert.deepEqual(Object.keys(r).sort(), ['context', 'events', 'id', 'metadata', 'type']);
  // accepted (telnet) sorts first by severity.
  assert.equal(out.search.risks[0].type, 'service.remote_access.telnet_exposed');
});

test('get_risk_types (sort list), get_risk_type, patch_risk_type', () => {
  const types = out.types.type;
  assert.ok(types.length >= 40);
  const rank: Record<string, number> = { low: 1, medium: 2, high: 3, critical: 4 };
  const sev = types.map((t: any) => rank[t.defaultSeverity]);
  assert.deepEqual(sev, [...sev].sort((a: number, b: number) => b - a));
  assert.equal(out.type.type, 'service.remote_access.telnet_exposed');
  assert.equal(out.type.riskCount, 1);
  assert.deepEqual(out.type.events, []);
  assert.deepEqual(out.type_patch, { changes: 1, configChanges: 0, defaultCategoriesChanges: 0, defaultSeverityChanges: 0, enabledChanges: 1 });
  assert.deepEqual([out.type_after.enabled, out.type_after.riskCount, out.type_after.lastDisableReason], [false, 0, 'VPN only']);
  assert.deepEqual(out.type_after.events.map((e: any) => [e.op, e.delta]), [['type-update', { enabled: false }]]);
  const rdp = out.instances_after_disable.risks.find((r: any) => r.typeID === 'service.remote_access.rdp_exposed');
  assert.equal(rdp.status, 'resolved');
});

test('errors raise the client exception of their errorCode', () => {
  assert.equal(out.err_instance.raised, 'CensysRiskNotFoundException');
  assert.equal(out.err_instance.status, 404);
  assert.equal(out.err_instance.error_code, 10073);
  assert.equal(out.err_type.raised, 'CensysRiskNotFoundException');
  assert.match(out.err_type.text, /vendor\/unknown-risk/);
  assert.equal(out.err_page_size.raised, 'CensysInvalidPageSizeException');
  assert.equal(out.err_cloud.raised, 'CensysInvalidCloudException');
});

test('Risksv1.get_risks pages through data by the pageNumber/totalPages rule', () => {
  // rdp is disabled and telnet accepted: only redis is listed by default.
  assert.deepEqual(out.v1_all.map((r: any) => [r.type, r.affectedAssetsCount, r.assetType, r.severity]), [['service.database.redis_exposed', 1, 'HOST', 'high']]);
  assert.deepEqual(out.v1_paged, out.v1_all);
  assert.deepEqual(out.v1_accepted.map((r: any) => [r.type, r.severity]), [
    ['service.database.redis_exposed', 'high'],
    ['service.remote_access.telnet_exposed', 'accepted'],
  ]);
  assert.deepEqual(out.v1_cloud, []);
  assert.deepEqual(out.v1_cloud_accepted.map((r: any) => [r.type, r.severity]), [['service.remote_access.telnet_exposed', 'accepted']]);
  assert.deepEqual(out.v1_other_env.map((r: any) => r.type), ['service.database.redis_exposed']);
  for (const r of out.v1_all) assert.deepEqual(Object.keys(r).sort(), ['affectedAssetsCount', 'assetType', 'categories', 'isSeverityModified', 'name', 'riskInfoId', 'severity', 'type']);
});

test('another workspace sees none of these risks', () => {
  assert.deepEqual(out.other_instances, { risks: [] });
  assert.equal(out.other_get.raised, 'CensysRiskNotFoundException');
  assert.deepEqual(out.other_v1, []);
});
