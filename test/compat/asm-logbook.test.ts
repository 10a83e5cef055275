/**
 * The real censys-python 2.1.9 AsmClient (Debian python3-censys) reading the logbook of a live
 * server: events discovery wrote for seeds added through the client, paging to endOfEvents over
 * more than two pages, id/date/type cursors, the 10040 exception, workspace isolation.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { assertPython, listen, runPython } from './run-python.ts';

const FP = 'f0'.repeat(32);
const FILLER = 1200;
let server: TestServer;
let out: Record<string, any>;

before(async () => {
  assertPython();
  server = await startTestServer({ hosts: 10, certificates: 5 });
  const at = '2024-03-01T00:00:00Z';
  await server.rt.indexer.put('certificates', [{ id: FP, doc: { fingerprint_sha256: FP, names: ['www.compat-logbook.io'] }, observedAt: at }]);
  await server.rt.indexer.put('hosts', [
    {
      id: '45.33.100.1',
      doc: { ip: '45.33.100.1', services: [{ port: 443, service_name: 'HTTP', extended_service_name: 'HTTPS', transport_protocol: 'TCP', certificate: FP }] },
      observedAt: at,
    },
    { id: '45.33.200.9', doc: { ip: '45.33.200.9', dns: { names: ['www.compat-logbook.io'] }, services: [{ port: 80, service_name: 'HTTP', transport_protocol: 'TCP' }] }, observedAt: at },
  ]);
  await server.rt.store.asmLogbook.append(
    server.admin.user.workspaceId,
    Array.from({ length: FILLER }, (_, i) => ({ type: 'HOST_VULNERABILITY' as const, operation: 'ADD' as const, entity: { ipAddress: '192.0.2.1' }, data: { n: i }, timestamp: '2024-01-01T00:00:00.000Z' })),
  );
  const base = await listen(server);
  out = await runPython('test/compat/asm_logbook_2_1_9.py', {
    PERISCOPE_URL: base,
    PERISCOPE_ASM_KEY: server.admin.asmKey,
    PERISCOPE_OTHER_ASM_KEY: server.other.asmKey,
  });
});

after(async () => {
  await server?.close();
});

const line = (e: any) => `${e.type} ${e.operation} ${JSON.stringify(e.entity)}`;

test('it is the 2.1.9 client', () => {
  assert.equal(out.client_version, '2.1.9');
});

test('get_events without a cursor pages through every event to endOfEvents, once each, in order', () => {
  assert.equal(out.before.length, FILLER);
  assert.ok(out.all.length > FILLER);
  const ids = out.all.map((e: any) => e.id);
  assert.deepEqual(ids, [...ids].sort((a: number, b: number) => a - b));
  assert.equal(new Set(ids).size, ids.length);
  assert.deepEqual(out.all_via_cursor, out.all);
  assert.equal(out.from_past_date, out.all.length);
});

test('the seeds added through the client are in the logbook', () => {
  const lines = out.from_id.map(line);
  for (const l of [
    'DOMAIN ASSOCIATE {"domain":"compat-logbook.io"}',
    'SUBDOMAIN ASSOCIATE {"subdomain":"www.compat-logbook.io","domain":"compat-logbook.io"}',
    'HOST ASSOCIATE {"ipAddress":"45.33.100.1"}',
    'HOST ASSOCIATE {"ipAddress":"45.33.200.9"}',
    `CERT ASSOCIATE {"sha256":"${FP}"}`,
    'WEB_ENTITY ASSOCIATE {"name":"45.33.100.1","port":443}',
    'WEB_ENTITY ASSOCIATE {"name":"www.compat-logbook.io","port":80}',
  ]) {
    assert.ok(lines.includes(l), `${l} in\n${lines.join('\n')}`);
  }
  assert.ok(out.from_id.every((e: any) => e.type !== 'HOST_VULNERABILITY'));
});

test('type filters and date starts', () => {
  assert.deepEqual(out.hosts_only.map(line).sort(), ['HOST ASSOCIATE {"ipAddress":"45.33.100.1"}', 'HOST ASSOCIATE {"ipAddress":"45.33.200.9"}']);
  assert.deepEqual(
    out.host_parts.map((e: any) => `${e.type} ${e.operation} ${e.entity.ipAddress} ${e.data.port}`).sort(),
    ['HOST_CERT ADD 45.33.100.1 443', 'HOST_PORT ADD 45.33.100.1 443', 'HOST_PORT ADD 45.33.200.9 80'],
  );
  assert.deepEqual(out.from_future_date, []);
});

test('a bad cursor raises CensysInvalidLogbookCursorException; a bad filter CensysInvalidRequestException', () => {
  assert.deepEqual(out.bad_cursor, { raised: 'CensysInvalidLogbookCursorException', status: 400, error_code: 10040 });
  assert.deepEqual(out.bad_filter, { raised: 'CensysInvalidRequestException', status: 400, error_code: 10008 });
});

test("another workspace's client sees none of it", () => {
  assert.deepEqual(out.other, []);
});
