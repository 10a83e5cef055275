/**
 * Risk evaluation over a real (SQLite) store with crafted assets and documents whose risks are
 * known: instances open, keep their identity and id across re-evaluations, resolve when the
 * problem goes, reopen when it returns, follow type settings, and every change is a risk event
 * and a logbook event.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { expiredCertificate } from '../../../test/support/expired-certificate.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/index.ts';
import type { Asset } from '../../model/asm-asset.ts';
import { createAsmContext, type AsmContext } from '../asm-context.ts';
import { evaluateAllWorkspaces, evaluateChange, subscribeRiskEvaluation } from './subscribe-risk-evaluation.ts';
import { evaluateWorkspace } from './evaluate-risks.ts';
import { patchRiskType } from './risk-type-settings.ts';
import { openRisksOf, openRisksOfMany } from './open-risks-of.ts';
import type { ServiceDoc } from './risk-model.ts';

const DAY = 86_400_000;
let clock = new Date('2026-11-01T00:00:00.000Z');
const tick = () => (clock = new Date(clock.getTime() + 60_000));

const dir = mkdtempSync(join(tmpdir(), 'periscope-risks-'));
let store: Store;
let ctx: AsmContext;

before(async () => {
  store = await openStore({ kind: 'sqlite', file: join(dir, 'risks.db') });
  ctx = createAsmContext(store, () => clock);
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const IP = '10.1.1.1';
const SHA = 'ab'.repeat(32);
const BUCKET = 'https://leaky.s3.amazonaws.com/';

function asset(workspaceId: string, type: Asset['type'], assetId: string, data: Record<string, unknown> = {}, cloud: string | null = null): Asset {
  const at = clock.toISOString();
  return { workspaceId, type, assetId, isSeed: false, source: 'CENSYS_SCAN', associatedAt: at, updatedAt: at, trail: [], cloud, data };
}

const rdp: ServiceDoc = { port: 3389, service_name: 'RDP', transport_protocol: 'TCP' };
const telnet: ServiceDoc = { port: 23, service_name: 'TELNET', transport_protocol: 'TCP' };

async function putHost(services: ServiceDoc[]): Promise<void> {
  await store.documents.put('hosts', IP, { ip: IP, services }, clock.toISOString());
}

async function putExpiredCert(): Promise<void> {
  await store.documents.put(
    'certificates',
    SHA,
    expiredCertificate(SHA, clock),
    clock.toISOString(),
  );
}

async function instances(workspaceId = 'w1') {
  return store.asmRisks.listInstances(workspaceId);
}

async function byType(workspaceId = 'w1') {
  return new Map((await instances(workspaceId)).map((i) => [i.typeId, i]));
}

async function setup(workspaceId: string): Promise<Asset[]> {
  const assets = [
    asset(workspaceId, 'HOST', IP, { ports: [], names: [] }, 'Amazon AWS'),
    asset(workspaceId, 'CERT', SHA, { hosts: [], names: [] }),
    asset(workspaceId, 'STORAGE_BUCKET', BUCKET, { provider: 'aws', access: { list: true } }),
    // Families without detectors are left alone.
    asset(workspaceId, 'DOMAIN', 'example.com', { subdomains: [] }),
  ];
  await store.asmAssets.apply(workspaceId, { upsert: assets, remove: [] }, []);
  return assets;
}

describe('risk evaluation', () => {
  let assets: Asset[];
  let firstIds: Map<string, number>;

  test('opens one instance per detected risk, with an open event and a logbook event each', async () => {
    await putHost([rdp, telnet]);
    await putExpiredCert();
    assets = await setup('w1');
    const counts = await evaluateChange(ctx, { workspaceId: 'w1', upserted: assets, removed: [] });
    const got = await instances();
    assert.deepEqual(got.map((i) => i.typeId).sort(), ['cert.expired', 'service.remote_access.rdp_exposed', 'service.remote_access.telnet_exposed', 'storage.bucket.open']);
    assert.equal(counts.opened, 4);
    const rdpRisk = got.find((i) => i.typeId === 'service.remote_access.rdp_exposed')!;
    assert.equal(rdpRisk.assetType, 'HOST');
    assert.equal(rdpRisk.assetId, IP);
    assert.equal(rdpRisk.identity, `host:${IP}|service.remote_access.rdp_exposed|3389/TCP`);
    assert.deepEqual({ port: rdpRisk.context.port, transportProtocol: rdpRisk.context.transportProtocol, type: rdpRisk.context.type, ip: rdpRisk.context.ip }, { port: 3389, transportProtocol: 'TCP', type: 'service', ip: IP });
    assert.equal(rdpRisk.severity, 'high');
    assert.equal(rdpRisk.status, 'open');
    assert.equal(rdpRisk.cloud, 'Amazon AWS');
    assert.equal(rdpRisk.firstComputedAt, clock.toISOString());
    assert.equal(rdpRisk.title, `Exposed RDP on ${IP}:3389`);
    const cert = got.find((i) => i.typeId === 'cert.expired')!;
    assert.equal(cert.assetType, 'CERT');
    assert.equal(cert.assetId, SHA);
    firstIds = new Map(got.map((i) => [i.typeId, i.id]));

    const events = await store.asmRisks.readEvents('w1', {});
    assert.equal(events.length, 4);
    assert.ok(events.every((e) => e.op === 'open' && e.src === 'system' && e.reason === 'detected'));
    assert.deepEqual(events.map((e) => e.riskId).sort(), got.map((i) => i.id).sort());
    const rdpOpen = events.find((e) => e.riskId === rdpRisk.id)!;
    assert.deepEqual(rdpOpen.delta, {
      status: 'open',
      severity: 'high',
      displayName: rdpRisk.title,
      name: 'Exposed RDP',
      contextType: 'service',
      subjectType: 'HOST',
    });
    assert.equal(rdpOpen.srcId, `HOST:${IP}`);

    const log = await store.asmLogbook.read('w1', { limit: 100, types: ['HOST_RISK', 'CERT_RISK'] });
    assert.equal(log.length, 3, 'storage risks write no logbook event');
    const hostAdd = log.find((e) => e.type === 'HOST_RISK' && e.data?.port === 3389)!;
    assert.equal(hostAdd.operation, 'ADD');
    assert.deepEqual(hostAdd.entity, { ipAddress: IP });
    assert.deepEqual(hostAdd.data, { port: 3389, transportProtocol: 'TCP', title: rdpRisk.title, severity: 'high', riskType: 'service.remote_access.rdp_exposed', riskId: rdpRisk.id });
    const certAdd = log.find((e) => e.type === 'CERT_RISK')!;
    assert.deepEqual(certAdd.entity, { sha256: SHA });
  });

  test('re-evaluating unchanged data keeps every instance and writes no event', async () => {
    tick();
    const counts = await evaluateChange(ctx, { workspaceId: 'w1', upserted: [], removed: [], touched: assets.map((a) => ({ type: a.type, assetId: a.assetId })) });
    assert.deepEqual(counts, { opened: 0, reopened: 0, resolved: 0, updated: 0, unchanged: 4 });
    const got = await instances();
    assert.deepEqual(new Map(got.map((i) => [i.typeId, i.id])), firstIds);
    assert.ok(got.every((i) => i.lastComputedAt === clock.toISOString() && i.firstComputedAt !== i.lastComputedAt));
    assert.equal((await store.asmRisks.readEvents('w1', {})).length, 4);
  });

  test('a problem that goes away resolves its instance; when it returns the same instance reopens', async () => {
    tick();
    await putHost([rdp]);
    let counts = await evaluateChange(ctx, { workspaceId: 'w1', upserted: [], removed: [], touched: [{ type: 'HOST', assetId: IP }] });
    assert.equal(counts.resolved, 1);
    let m = await byType();
    const telnetRisk = m.get('service.remote_access.telnet_exposed')!;
    assert.equal(telnetRisk.status, 'resolved');
    assert.equal(telnetRisk.resolvedAt, clock.toISOString());
    assert.equal(m.get('service.remote_access.rdp_exposed')!.status, 'open');
    let last = (await store.asmRisks.readEvents('w1', {})).at(-1)!;
    assert.deepEqual([last.op, last.riskId, last.reason, last.delta], ['resolve', telnetRisk.id, 'no longer detected', { status: 'resolved' }]);
    let log = (await store.asmLogbook.read('w1', { limit: 100, types: ['HOST_RISK'] })).at(-1)!;
    assert.deepEqual([log.operation, log.data?.port, log.data?.riskId], ['REMOVE', 23, telnetRisk.id]);

    tick();
    await putHost([rdp, telnet]);
    counts = await evaluateChange(ctx, { workspaceId: 'w1', upserted: [], removed: [], touched: [{ type: 'HOST', assetId: IP }] });
    assert.equal(counts.reopened, 1);
    m = await byType();
    const again = m.get('service.remote_access.telnet_exposed')!;
    assert.equal(again.id, telnetRisk.id);
    assert.equal(again.status, 'open');
    assert.equal(again.resolvedAt, null);
    assert.equal(again.firstComputedAt, telnetRisk.firstComputedAt);
    last = (await store.asmRisks.readEvents('w1', {})).at(-1)!;
    assert.deepEqual([last.op, last.riskId, last.reason], ['reopen', telnetRisk.id, 'detected again']);
    log = (await store.asmLogbook.read('w1', { limit: 100, types: ['HOST_RISK'] })).at(-1)!;
    assert.equal(log.operation, 'ADD');
  });

  test('disabling a type resolves its instances; enabling it reopens them; a severity change reaches them', async () => {
    tick();
    const type = 'service.remote_access.rdp_exposed';
    const id = firstIds.get(type)!;
    const off = await patchRiskType(ctx, 'w1', type, { enabled: false, reason: 'behind a VPN' }, 'user-1');
    assert.ok(off.ok);
    assert.deepEqual(off.value, { changes: 1, configChanges: 0, defaultCategoriesChanges: 0, defaultSeverityChanges: 0, enabledChanges: 1 });
    let i = (await store.asmRisks.getInstance('w1', id))!;
    assert.equal(i.status, 'resolved');
    const events = await store.asmRisks.readEvents('w1', {});
    const typeEvent = events.find((e) => e.op === 'type-update')!;
    assert.deepEqual([typeEvent.riskId, typeEvent.riskType, typeEvent.src, typeEvent.srcId, typeEvent.reason, typeEvent.delta], [null, type, 'user', 'user-1', 'behind a VPN', { enabled: false }]);
    assert.deepEqual([events.at(-1)!.op, events.at(-1)!.riskId, events.at(-1)!.reason], ['resolve', id, 'risk type disabled']);
    assert.deepEqual(await openRisksOf(ctx, 'w1', 'HOST', IP).then((r) => r.map((x) => x.riskType)), ['service.remote_access.telnet_exposed']);

    // A disabled type stays out of later evaluations.
    tick();
    await evaluateChange(ctx, { workspaceId: 'w1', upserted: [], removed: [], touched: [{ type: 'HOST', assetId: IP }] });
    assert.equal((await store.asmRisks.getInstance('w1', id))!.status, 'resolved');

    tick();
    const on = await patchRiskType(ctx, 'w1', type, { enabled: true }, 'user-1');
    assert.ok(on.ok && on.value.enabledChanges === 1);
    i = (await store.asmRisks.getInstance('w1', id))!;
    assert.equal(i.status, 'open');

    tick();
    const sev = await patchRiskType(ctx, 'w1', type, { severity: 'low' }, 'user-1');
    assert.ok(sev.ok && sev.value.defaultSeverityChanges === 1);
    i = (await store.asmRisks.getInstance('w1', id))!;
    assert.equal(i.severity, 'low');
    const upd = (await store.asmRisks.readEvents('w1', {})).at(-1)!;
    assert.deepEqual([upd.op, upd.riskId, upd.delta], ['update', id, { severity: 'low' }]);
    const change = (await store.asmLogbook.read('w1', { limit: 200, types: ['HOST_RISK'] })).at(-1)!;
    assert.deepEqual([change.operation, change.data?.severity], ['CHANGE', 'low']);

    // The same patch again changes nothing.
    const same = await patchRiskType(ctx, 'w1', type, { severity: 'low' }, 'user-1');
    assert.ok(same.ok);
    assert.equal(same.value.changes, 0);
  });

  test('an asset that leaves the workspace resolves its open risks', async () => {
    tick();
    await store.asmAssets.apply('w1', { upsert: [], remove: [{ type: 'STORAGE_BUCKET', assetId: BUCKET }] }, []);
    const counts = await evaluateChange(ctx, { workspaceId: 'w1', upserted: [], removed: [{ type: 'STORAGE_BUCKET', assetId: BUCKET }] });
    assert.equal(counts.resolved, 1);
    const bucket = (await byType()).get('storage.bucket.open')!;
    assert.equal(bucket.status, 'resolved');
    assert.equal((await store.asmRisks.readEvents('w1', {})).at(-1)!.reason, 'asset removed');
    // A full evaluation agrees and changes nothing more.
    const full = await evaluateWorkspace(ctx, 'w1');
    assert.equal(full.opened + full.reopened + full.resolved, 0);
  });

  test('workspaces have their own instances of the same asset, and their own settings', async () => {
    const other = await setup('w2');
    await evaluateChange(ctx, { workspaceId: 'w2', upserted: other, removed: [] });
    const w2 = await instances('w2');
    assert.equal(w2.length, 4);
    assert.ok(w2.every((i) => !firstIds.has(i.typeId) || firstIds.get(i.typeId) !== i.id));
    // w1 disabled and lowered rdp; w2 has the catalogue's settings.
    assert.equal(w2.find((i) => i.typeId === 'service.remote_access.rdp_exposed')!.severity, 'high');
    assert.deepEqual(await store.asmRisks.typeSettings('w2'), []);
    const many = await openRisksOfMany(ctx, 'w2', 'HOST', [IP, '192.0.2.99']);
    assert.deepEqual([...many.keys()], [IP]);
    assert.deepEqual(
      many.get(IP)!.map((r) => [r.type, r.port, r.transportProtocol, r.name, r.severity]),
      [
        ['HOST_RISK', 3389, 'TCP', 'Exposed RDP', 'high'],
        ['HOST_RISK', 23, 'TCP', 'Exposed Telnet', 'high'],
      ],
    );
    assert.deepEqual((await openRisksOf(ctx, 'w2', 'CERT', SHA)).map((r) => [r.type, r.port, r.riskType]), [['CERT_RISK', undefined, 'cert.expired']]);
  });

  test('the subscription evaluates what discovery announces', async () => {
    const unsubscribe = subscribeRiskEvaluation(ctx);
    try {
      tick();
      const a = asset('w3', 'HOST', IP, { ports: [], names: [] });
      await store.asmAssets.apply('w3', { upsert: [a], remove: [] }, []);
      await ctx.assetsChanged.emit({ workspaceId: 'w3', upserted: [a], removed: [] });
      assert.deepEqual((await instances('w3')).map((i) => i.typeId).sort(), ['service.remote_access.rdp_exposed', 'service.remote_access.telnet_exposed']);
    } finally {
      unsubscribe();
    }
  });

  test('risks that change with time alone: the periodic refresh sees a certificate expire', async () => {
    const sha = 'ef'.repeat(32);
    const ws = (await store.users.createWorkspace('time')).id;
    const start = clock.getTime();
    await store.documents.put(
      'certificates',
      sha,
      {
        fingerprint_sha256: sha,
        names: ['soon.example.com'],
        parsed: {
          subject: { common_name: ['soon.example.com'] },
          validity_period: { not_before: new Date(start - 300 * DAY).toISOString(), not_after: new Date(start + 10 * DAY).toISOString() },
          subject_key_info: { key_algorithm: { name: 'RSA' }, rsa: { length: 2048 } },
          signature: { signature_algorithm: { name: 'SHA256-RSA' }, self_signed: false },
          extensions: { basic_constraints: { is_ca: false } },
        },
        validation: { nss: { is_valid: true } },
      },
      clock.toISOString(),
    );
    const a = asset(ws, 'CERT', sha, { hosts: [], names: [] });
    await store.asmAssets.apply(ws, { upsert: [a], remove: [] }, []);
    await evaluateChange(ctx, { workspaceId: ws, upserted: [a], removed: [] });
    assert.deepEqual((await instances(ws)).map((i) => [i.typeId, i.status]), [['cert.expiring_soon', 'open']]);
    // Twenty days later, with no new data at all.
    clock = new Date(start + 20 * DAY);
    await store.users.createWorkspace('unused');
    const n = await evaluateAllWorkspaces(ctx);
    assert.ok(n >= 1);
    assert.deepEqual((await instances(ws)).map((i) => [i.typeId, i.status]), [
      ['cert.expiring_soon', 'resolved'],
      ['cert.expired', 'open'],
    ]);
  });
});
