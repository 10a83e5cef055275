/**
 * The real censys-python 2.1.9 AsmClient (Debian python3-censys) against a live server: IP seeds
 * added through the client, discovery, then inventory search (explicit workspaces, cursor paging
 * by hand as 2.1.9 leaves it to the caller, sort, fields), aggregate, fields, errors, and the
 * clouds counts. The Python side records what it saw; this side checks it against the HTTP API.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { assertPython, listen, runPython } from './run-python.ts';

let server: TestServer;
let out: Record<string, any>;
let ips: string[];
let everything: any[];

before(async () => {
  assertPython();
  server = await startTestServer({ hosts: 30, certificates: 10 });
  const hosts: string[] = [];
  for await (const batch of server.rt.store.documents.scan('hosts', 100)) for (const d of batch) if (!d.id.includes('+')) hosts.push(d.id);
  ips = hosts.slice(0, 5);
  const base = await listen(server);
  out = await runPython('test/compat/asm_inventory_2_1_9.py', {
    PERISCOPE_URL: base,
    PERISCOPE_ASM_KEY: server.admin.asmKey,
    PERISCOPE_WORKSPACE: server.admin.user.workspaceId,
    PERISCOPE_OTHER_WORKSPACE: server.other.user.workspaceId,
    HOST_IPS: ips.join(','),
  });
  const all = await server.app.inject({ method: 'GET', url: '/api/inventory/v1?pageSize=1000', headers: { 'censys-api-key': server.admin.asmKey } });
  everything = JSON.parse(all.body).hits;
});

after(async () => {
  await server?.close();
});

test('it is the 2.1.9 client', () => {
  assert.equal(out.client_version, '2.1.9');
});

test('search with explicit workspaces, paged by hand with nextCursor: every asset once', () => {
  assert.ok(everything.length >= ips.length);
  assert.equal(out.first.totalHits, everything.length);
  assert.equal(out.first.hits.length, 2);
  assert.equal(typeof out.first.queryDurationMillis, 'number');
  assert.deepEqual(out.paged_ids, everything.map((h) => h.asset_id));
  assert.equal(out.pages, Math.ceil(everything.length / 2));
  for (const ip of ips) assert.ok(out.paged_ids.includes(ip), ip);
});

test('query, sort and fields on prefixed host fields', () => {
  const hostIps = out.hosts_sorted.hits.map((h: any) => h.host.ip);
  assert.deepEqual([...hostIps].sort(), [...ips].sort());
  for (const h of out.hosts_sorted.hits) assert.deepEqual(Object.keys(h).sort(), ['_details', 'host', 'type']);
  assert.deepEqual(out.by_ip.hits.map((h: any) => h.asset_id), [ips[0]]);
  assert.equal(out.by_ip.hits[0].type, 'HOST');
});

test('aggregate and fields', () => {
  const buckets = out.agg_type.aggregation.term.buckets;
  assert.equal(buckets.find((b: any) => b.key === 'HOST').count, ips.length);
  assert.equal(out.agg_type.totalHits, everything.length);
  assert.equal(out.agg_none.aggregation, null);
  assert.equal(out.agg_none.totalHits, ips.length);
  assert.ok(out.fields_all_count > 100);
  assert.deepEqual(out.fields_some.fields.map((f: any) => f.path), ['host.ip', 'domain.name']);
});

test('errors reach 2.1.9 as exceptions (the inventory shape has no errorCode, so 2.1.9 says unknown)', () => {
  assert.equal(out.bad_query.raised, 'CensysAsmException');
  assert.equal(out.bad_query.status, 400);
  assert.equal(out.bad_query.error_code, 'unknown');
  assert.match(out.bad_query.text, /Invalid query/);
  assert.equal(out.foreign_ws.raised, 'CensysAsmException');
  assert.equal(out.foreign_ws.status, 403);
});

test('clouds: counts of the seeded hosts, dates as strings, dates and datetimes, 10078', () => {
  assert.equal(out.host_counts.totalAssetCount, ips.length);
  assert.equal(out.host_counts.totalNewAssetCount, ips.length);
  assert.deepEqual(out.host_counts_date, out.host_counts);
  assert.equal(out.host_counts_future.totalNewAssetCount, 0);
  for (const k of ['domain_counts', 'object_store_counts', 'subdomain_counts']) {
    assert.deepEqual(Object.keys(out[k]).sort(), ['assetCountByProvider', 'totalAssetCount', 'totalCloudAssetCount', 'totalCloudNewAssetCount', 'totalNewAssetCount'], k);
  }
  // IP seeds declare the address space: every seeded host is known.
  assert.equal(out.unknown_counts.totalKnownCount, ips.length);
  assert.equal(out.unknown_counts.totalUnknownCount, 0);
  assert.equal(out.bad_date.raised, 'CensysInvalidDateException');
  assert.equal(out.bad_date.error_code, 10078);
});
