/**
 * `/v1/clouds/...` through the real app (contract §2B.5), over assets written straight to the
 * asset store: counts by provider, "new since" by association day, object-store sources, known
 * and unknown hosts, 10078 for bad days, and workspaces kept apart.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { asmCaller, isAsmError } from './asm-support.ts';
import type { Asset, AssetType, TrailStep } from '../../src/model/asm-asset.ts';

let s: TestServer;
const asm = asmCaller(() => s);

function asset(workspaceId: string, type: AssetType, assetId: string, o: Partial<Asset> = {}): Asset {
  return { workspaceId, type, assetId, isSeed: false, source: 'CENSYS_SCAN', associatedAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z', trail: [], cloud: null, data: {}, ...o };
}
const cidr: TrailStep[] = [{ type: 'CIDR', assetId: '10.0.0.0/24', isSeed: true }];
const dns: TrailStep[] = [{ type: 'DOMAIN_NAME', assetId: 'example.com', isSeed: true }];

before(async () => {
  s = await startTestServer({ hosts: 5, certificates: 2 });
  const W = s.admin.user.workspaceId;
  await s.rt.store.asmAssets.apply(
    W,
    {
      upsert: [
        asset(W, 'HOST', '10.0.0.1', { cloud: 'Amazon AWS', trail: cidr, associatedAt: '2025-03-01T00:00:00.000Z', data: { names: ['a.example.com'] } }),
        asset(W, 'HOST', '10.0.0.2', { cloud: 'Amazon AWS', trail: cidr, associatedAt: '2025-01-01T00:00:00.000Z' }),
        asset(W, 'HOST', '10.0.0.3', { cloud: null, trail: cidr, associatedAt: '2025-03-02T12:00:00.000Z' }),
        asset(W, 'HOST', '192.0.2.9', { cloud: 'Google Cloud', trail: dns, associatedAt: '2025-02-28T23:59:59.999Z', data: { names: ['B.example.com'] } }),
        asset(W, 'HOST', '10.0.0.4', { isSeed: true, source: 'Seed', trail: [], cloud: null }),
        asset(W, 'DOMAIN', 'example.com', { isSeed: true, source: 'Seed' }),
        asset(W, 'SUBDOMAIN', 'a.example.com', { associatedAt: '2025-03-05T00:00:00.000Z', data: { domain: 'example.com' } }),
        asset(W, 'SUBDOMAIN', 'b.example.com', { data: { domain: 'example.com' } }),
        asset(W, 'SUBDOMAIN', 'c.example.com', { data: { domain: 'example.com' } }),
        asset(W, 'STORAGE_BUCKET', 'https://a.s3.amazonaws.com', { cloud: 'Amazon AWS', data: { provider: 'Amazon AWS' } }),
        asset(W, 'STORAGE_BUCKET', 'https://b.storage.googleapis.com', { cloud: 'Google Cloud', source: 'CLOUD_CONNECTOR', associatedAt: '2025-04-01T00:00:00.000Z', data: { provider: 'Google Cloud' } }),
      ],
      remove: [],
    },
    [],
  );
  const W2 = s.other.user.workspaceId;
  await s.rt.store.asmAssets.apply(W2, { upsert: [asset(W2, 'HOST', '10.9.9.9', { cloud: 'Microsoft Azure', trail: dns })], remove: [] }, []);
});
after(async () => {
  await s?.close();
});

test('host counts by provider, new since a day', async () => {
  const r = await asm('GET', '/api/v1/clouds/hostCounts/2025-03-01');
  assert.equal(r.status, 200, r.body);
  assert.deepEqual(r.json, {
    totalAssetCount: 5,
    totalNewAssetCount: 2,
    totalCloudAssetCount: 3,
    totalCloudNewAssetCount: 1,
    assetCountByProvider: [
      { cloudProvider: 'Amazon AWS', assetCount: 2, newAssetCount: 1 },
      { cloudProvider: 'Google Cloud', assetCount: 1, newAssetCount: 0 },
    ],
  });
  const early = await asm('GET', '/api/v1/clouds/hostCounts/2000-01-01');
  assert.equal(early.json.totalNewAssetCount, 5);
});

test('subdomains and domains count in the cloud of the hosts their name resolves to', async () => {
  const subs = await asm('GET', '/api/v1/clouds/subdomainCounts/2025-03-01');
  assert.deepEqual(subs.json, {
    totalAssetCount: 3,
    totalNewAssetCount: 1,
    totalCloudAssetCount: 2,
    totalCloudNewAssetCount: 1,
    assetCountByProvider: [
      { cloudProvider: 'Amazon AWS', assetCount: 1, newAssetCount: 1 },
      { cloudProvider: 'Google Cloud', assetCount: 1, newAssetCount: 0 },
    ],
  });
  const domains = await asm('GET', '/api/v1/clouds/domainCounts/2025-03-01');
  assert.deepEqual(domains.json, { totalAssetCount: 1, totalNewAssetCount: 0, totalCloudAssetCount: 0, totalCloudNewAssetCount: 0, assetCountByProvider: [] });
});

test('object stores, optionally of one source', async () => {
  const all = await asm('GET', '/api/v1/clouds/objectStoreCounts/2025-03-01');
  assert.equal(all.json.totalAssetCount, 2);
  assert.equal(all.json.totalCloudNewAssetCount, 1);
  const connector = await asm('GET', '/api/v1/clouds/objectStoreCounts/2025-03-01?source=CLOUD_CONNECTOR');
  assert.deepEqual(connector.json.assetCountByProvider, [{ cloudProvider: 'Google Cloud', assetCount: 1, newAssetCount: 1 }]);
  const bad = await asm('GET', '/api/v1/clouds/objectStoreCounts/2025-03-01?source=UI');
  assert.equal(bad.status, 400);
  assert.equal(bad.json.errorCode, 10008);
});

test('known hosts lie in declared address space; unknown ones were found through names', async () => {
  const r = await asm('GET', '/api/v1/clouds/unknownCounts');
  assert.deepEqual(r.json, {
    totalKnownCount: 4,
    totalUnknownCount: 1,
    totalKnownCloudCount: 2,
    totalUnknownCloudCount: 1,
    countByProvider: [
      { cloudProvider: 'Amazon AWS', knownCount: 2, unknownCount: 0 },
      { cloudProvider: 'Google Cloud', knownCount: 0, unknownCount: 1 },
    ],
  });
});

test('a day that is not YYYY-MM-DD or not in the calendar: 10078 Invalid Date', async () => {
  for (const since of ['2025-13-01', '2025-02-30', '20250101', '2025-1-1', 'yesterday', '2025-01-01T00:00:00Z', '%20']) {
    const r = await asm('GET', `/api/v1/clouds/hostCounts/${encodeURIComponent(since)}`);
    assert.equal(r.status, 400, since);
    assert.ok(isAsmError(r.json));
    assert.equal(r.json.errorCode, 10078, since);
    assert.equal(r.json.message, 'Invalid Date');
  }
});

test('another workspace counts only its own', async () => {
  const r = await asm('GET', '/api/v1/clouds/hostCounts/2025-01-01', { key: s.other.asmKey });
  assert.deepEqual(r.json.assetCountByProvider, [{ cloudProvider: 'Microsoft Azure', assetCount: 1, newAssetCount: 1 }]);
  const u = await asm('GET', '/api/v1/clouds/unknownCounts', { key: s.other.asmKey });
  assert.equal(u.json.totalUnknownCount, 1);
  assert.equal(u.json.totalKnownCount, 0);
  const empty = await asm('GET', '/api/v1/clouds/subdomainCounts/2025-01-01', { key: s.other.asmKey });
  assert.deepEqual(empty.json, { totalAssetCount: 0, totalNewAssetCount: 0, totalCloudAssetCount: 0, totalCloudNewAssetCount: 0, assetCountByProvider: [] });
});
