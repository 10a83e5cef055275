/**
 * The logbook through the real app (contract §2B.4): cursors by id, date and type, pages that
 * never skip or repeat an event even while events are written, endOfEvents on the last page, the
 * 10040/10008 errors, workspace isolation, and the events discovery writes as seeds and data change.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { asmCaller, isAsmError } from './asm-support.ts';
import type { NewLogbookEvent } from '../../src/model/asm-asset.ts';

let s: TestServer;
const asm = asmCaller(() => s);

before(async () => {
  s = await startTestServer({ hosts: 10, certificates: 5 });
});
after(async () => {
  await s?.close();
});

function assertAsmError(r: { status: number; json: any }, status: number, errorCode: number): void {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.ok(isAsmError(r.json), `ASM error shape: ${JSON.stringify(r.json)}`);
  assert.equal(r.json.errorCode, errorCode, JSON.stringify(r.json));
}

async function cursor(body?: unknown, key?: string): Promise<string> {
  const r = await asm('POST', '/api/v1/logbook-cursor', { ...(body !== undefined ? { body } : {}), ...(key ? { key } : {}) });
  assert.equal(r.status, 200, JSON.stringify(r.json));
  assert.deepEqual(Object.keys(r.json), ['cursor']);
  assert.equal(typeof r.json.cursor, 'string');
  return r.json.cursor;
}

/** Every event from `start` (a cursor or none) until endOfEvents, checking each page's shape. */
async function walk(start?: string, key?: string): Promise<{ events: any[]; pages: number; last: string }> {
  const events: any[] = [];
  let c = start;
  for (let pages = 1; ; pages++) {
    const url = c === undefined ? '/api/v1/logbook' : `/api/v1/logbook?cursor=${encodeURIComponent(c)}`;
    const r = await asm('GET', url, key ? { key } : {});
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.deepEqual(Object.keys(r.json).sort(), ['endOfEvents', 'events', 'nextCursor']);
    assert.equal(typeof r.json.nextCursor, 'string');
    events.push(...r.json.events);
    c = r.json.nextCursor;
    if (r.json.endOfEvents) return { events, pages, last: c! };
    assert.ok(pages < 100, 'the walk ends');
  }
}

const workspace = () => s.admin.user.workspaceId;
const otherWorkspace = () => s.other.user.workspaceId;
const ev = (i: number, type: NewLogbookEvent['type'] = 'HOST', timestamp = '2024-01-01T00:00:00.000Z'): NewLogbookEvent => ({
  type,
  operation: 'ASSOCIATE',
  entity: { ipAddress: `10.9.${i >> 8}.${i & 255}` },
  timestamp,
});

describe('logbook', () => {
  test('an empty logbook: one page, endOfEvents true, a cursor to poll later', async () => {
    const first = await walk();
    assert.deepEqual(first.events, []);
    assert.equal(first.pages, 1);
    // A body-less POST (the client sends none when given no start or filter).
    const r = await s.app.inject({ method: 'POST', url: '/api/v1/logbook-cursor', headers: { 'censys-api-key': s.admin.asmKey } });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal((await walk(JSON.parse(r.body).cursor)).events.length, 0);
    assert.equal((await walk(await cursor({}))).events.length, 0);
  });

  test('discovery writes association and part events the logbook serves', async () => {
    const fp = 'e'.repeat(64);
    await s.rt.indexer.put('certificates', [{ id: fp, doc: { fingerprint_sha256: fp, names: ['www.acme-logbook.io'] }, observedAt: '2024-01-01T00:00:00Z' }]);
    await s.rt.indexer.put('hosts', [
      {
        id: '100.64.0.1',
        doc: { ip: '100.64.0.1', dns: { names: ['www.acme-logbook.io'] }, services: [{ port: 443, service_name: 'HTTP', extended_service_name: 'HTTPS', transport_protocol: 'TCP', certificate: fp }] },
        observedAt: '2024-01-01T00:00:00Z',
      },
    ]);
    const since = await s.rt.store.asmLogbook.lastId(workspace());
    const add = await asm('POST', '/api/v1/seeds', { body: { seeds: [{ type: 'DOMAIN_NAME', value: 'acme-logbook.io', label: 'lb' }] } });
    assert.equal(add.status, 200, add.body);
    const { events } = await walk(await cursor({ idFrom: since + 1 }));
    const seen = events.map((e) => `${e.type} ${e.operation} ${JSON.stringify(e.entity)}${e.data ? ' ' + JSON.stringify(e.data) : ''}`);
    for (const line of [
      'DOMAIN ASSOCIATE {"domain":"acme-logbook.io"}',
      'DOMAIN_SUBDOMAIN ADD {"domain":"acme-logbook.io"} {"subdomain":"www.acme-logbook.io"}',
      'SUBDOMAIN ASSOCIATE {"subdomain":"www.acme-logbook.io","domain":"acme-logbook.io"}',
      'HOST ASSOCIATE {"ipAddress":"100.64.0.1"}',
      'HOST_PORT ADD {"ipAddress":"100.64.0.1"} {"port":443,"transportProtocol":"TCP"}',
      `HOST_CERT ADD {"ipAddress":"100.64.0.1"} {"port":443,"transportProtocol":"TCP","sha256":"${fp}"}`,
      `CERT ASSOCIATE {"sha256":"${fp}"}`,
      'WEB_ENTITY ASSOCIATE {"name":"www.acme-logbook.io","port":443}',
    ]) {
      assert.ok(seen.includes(line), `${line} in\n${seen.join('\n')}`);
    }
    for (const e of events) {
      assert.deepEqual(Object.keys(e).filter((k) => k !== 'data'), ['id', 'type', 'timestamp', 'operation', 'entity']);
      assert.equal(typeof e.id, 'number');
      assert.match(e.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal('data' in e, !['ASSOCIATE', 'DISASSOCIATE'].includes(e.operation));
    }

    // New data under the seed: the incremental update logs it.
    const mark = await s.rt.store.asmLogbook.lastId(workspace());
    await s.rt.indexer.put('hosts', [
      { id: '100.64.0.2', doc: { ip: '100.64.0.2', dns: { names: ['api.acme-logbook.io'] }, services: [{ port: 22, service_name: 'SSH', transport_protocol: 'TCP' }] }, observedAt: '2024-01-02T00:00:00Z' },
    ]);
    const later = (await walk(await cursor({ idFrom: mark + 1, filter: { type: ['HOST', 'HOST_PORT'] } }))).events;
    assert.deepEqual(
      later.map((e) => `${e.type} ${e.operation} ${e.entity.ipAddress}`),
      ['HOST ASSOCIATE 100.64.0.2', 'HOST_PORT ADD 100.64.0.2'],
    );

    // Removing the seed disassociates everything it brought.
    const mark2 = await s.rt.store.asmLogbook.lastId(workspace());
    assert.equal((await asm('DELETE', '/api/v1/seeds?label=lb')).status, 200);
    const gone = (await walk(await cursor({ idFrom: mark2 + 1, filter: { type: ['HOST', 'DOMAIN'] } }))).events;
    assert.deepEqual(gone.map((e) => `${e.type} ${e.operation}`).sort(), ['DOMAIN DISASSOCIATE', 'HOST DISASSOCIATE', 'HOST DISASSOCIATE']);
  });

  test('pages never skip or repeat, end with endOfEvents, and keep going while events are written', async () => {
    const base = await s.rt.store.asmLogbook.lastId(workspace());
    await s.rt.store.asmLogbook.append(workspace(), Array.from({ length: 1100 }, (_, i) => ev(i)));
    const start = await cursor({ idFrom: base + 1 });
    const all = await walk(start);
    assert.equal(all.events.length, 1100);
    assert.equal(all.pages, 3);
    const ids = all.events.map((e) => e.id);
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
    assert.equal(new Set(ids).size, 1100);

    // Write between page reads: the walk sees old and new events once each, in order.
    const seen: number[] = [];
    let c: string = start;
    let written = 0;
    for (let guard = 0; guard < 100; guard++) {
      const r = await asm('GET', `/api/v1/logbook?cursor=${encodeURIComponent(c)}`);
      seen.push(...r.json.events.map((e: any) => e.id));
      c = r.json.nextCursor;
      if (written < 3) {
        await s.rt.store.asmLogbook.append(workspace(), Array.from({ length: 300 }, (_, i) => ev(i, 'HOST_PORT')));
        written++;
      } else if (r.json.endOfEvents) break;
    }
    const expected = (await s.rt.store.asmLogbook.read(workspace(), { idFrom: base + 1, limit: 100_000 })).map((e) => e.id);
    assert.equal(expected.length, 2000);
    assert.deepEqual(seen, expected);

    // The last page's cursor picks up what is written after it.
    const end = await walk(c);
    assert.deepEqual(end.events, []);
    await s.rt.store.asmLogbook.append(workspace(), [ev(1, 'CERT')]);
    const more = await walk(end.last);
    assert.deepEqual(more.events.map((e) => e.type), ['CERT']);
  });

  test('cursors by id, date and type', async () => {
    const base = await s.rt.store.asmLogbook.lastId(workspace());
    const written = await s.rt.store.asmLogbook.append(workspace(), [
      ev(1, 'HOST', '2030-01-01T00:00:00.000Z'),
      ev(2, 'HOST_CERT', '2030-01-02T00:00:00.000Z'),
      ev(3, 'CERT', '2030-01-03T00:00:00.000Z'),
      ev(4, 'HOST', '2030-01-04T00:00:00.000Z'),
    ]);
    const ids = written.map((e) => e.id);
    const from = async (body: unknown) => (await walk(await cursor(body))).events.filter((e) => e.id > base).map((e) => e.id);
    assert.deepEqual(await from({ idFrom: ids[1] }), ids.slice(1));
    assert.deepEqual(await from({ dateFrom: '2030-01-03T00:00:00Z' }), ids.slice(2));
    // Python's datetime.isoformat() (no zone: UTC) and a date alone are accepted.
    assert.deepEqual(await from({ dateFrom: '2030-01-02T00:00:00.500000' }), ids.slice(2));
    assert.deepEqual(await from({ dateFrom: '2030-01-02' }), ids.slice(1));
    assert.deepEqual(await from({ filter: { type: ['HOST', 'CERT'] }, idFrom: base + 1 }), [ids[0], ids[2], ids[3]]);
    assert.deepEqual(await from({ filter: { type: ['HOST'] }, dateFrom: '2030-01-02T00:00:00Z' }), [ids[3]]);
    // An empty type list filters nothing; both idFrom and dateFrom must hold.
    assert.deepEqual(await from({ filter: { type: [] }, idFrom: ids[3] }), [ids[3]]);
    assert.deepEqual(await from({ idFrom: ids[0], dateFrom: '2030-01-04T00:00:00Z' }), [ids[3]]);
    assert.deepEqual(await from({ idFrom: 999_999_999_999_999_999 }), []);
    // The cursor decodes to Censys' own shape.
    assert.deepEqual(JSON.parse(Buffer.from(await cursor({}), 'base64url').toString()), { filter: {}, start: 0 });
    assert.deepEqual(JSON.parse(Buffer.from(await cursor({ idFrom: 7, filter: { type: ['HOST'] } }), 'base64url').toString()), { filter: { type: ['HOST'] }, start: 7 });
  });

  test('invalid cursors are 10040, invalid cursor requests 10008', async () => {
    const enc = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
    for (const bad of ['x', '!!!', 'eyJ', enc('not json'), enc([1]), enc({ start: -1, filter: {} }), enc({ start: 1.5 }), enc({ start: 'a' }), enc({ start: 0, filter: { type: ['NOPE'] } }), enc({ start: 0, filter: { type: 'HOST' } }), enc({ start: 0, dateFrom: 'soon' }), enc({ start: 0, extra: 1 }), 'a'.repeat(5000)]) {
      assertAsmError(await asm('GET', `/api/v1/logbook?cursor=${encodeURIComponent(bad)}`), 400, 10040);
    }
    for (const body of [[], 'x', 5, { idFrom: -1 }, { idFrom: 1.5 }, { idFrom: '12' }, { dateFrom: 'yesterday' }, { dateFrom: 20240101 }, { dateFrom: '2024-13-01' }, { filter: [] }, { filter: 'HOST' }, { filter: { type: 'HOST' } }, { filter: { type: ['HOST', 'NOPE'] } }, { filter: { type: [1] } }]) {
      assertAsmError(await asm('POST', '/api/v1/logbook-cursor', { body }), 400, 10008);
    }
    const detail = await asm('POST', '/api/v1/logbook-cursor', { body: { filter: { type: ['NOPE'] } } });
    assert.match(JSON.stringify(detail.json), /NOPE/);
    assertAsmError(await asm('POST', '/api/v1/logbook-cursor', { raw: '{"idFrom": ' }), 400, 10067);
    assertAsmError(await asm('GET', '/api/v1/logbook', { key: null }), 400, 10000);
    assertAsmError(await asm('POST', '/api/v1/logbook-cursor', { key: 'wrong', body: {} }), 401, 10001);
  });

  test("a workspace never sees another's events, even with the other's cursor", async () => {
    await s.rt.store.asmLogbook.append(otherWorkspace(), [ev(9, 'DOMAIN')]);
    const mine = await walk(undefined);
    const theirs = await walk(undefined, s.other.asmKey);
    assert.deepEqual(theirs.events.map((e) => e.type), ['DOMAIN']);
    assert.ok(!mine.events.some((e) => e.id === theirs.events[0].id));
    const myCursor = await cursor({ idFrom: 0 });
    assert.deepEqual((await walk(myCursor, s.other.asmKey)).events.map((e) => e.id), theirs.events.map((e) => e.id));
  });
});
