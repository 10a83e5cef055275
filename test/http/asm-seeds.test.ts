/**
 * The ASM API's foundation through the real app: Censys-Api-Key auth, the ASM error shape and
 * codes, the workspace account endpoint, and every seed operation.
 */
import { test, before, after, describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { asmCaller, isAsmError } from './asm-support.ts';
import type { SeedsChange } from '../../src/asm/index.ts';

let s: TestServer;
const asm = asmCaller(() => s);

before(async () => {
  s = await startTestServer({ hosts: 20, certificates: 10 });
});
after(async () => {
  await s?.close();
});

async function clearSeeds(key = s.admin.asmKey): Promise<void> {
  const all = await asm('GET', '/api/v1/seeds', { key });
  for (const seed of all.json.seeds) assert.equal((await asm('DELETE', `/api/v1/seeds/${seed.id}`, { key })).status, 200);
}

function assertAsmError(r: { status: number; json: any }, status: number, errorCode: number, message: string): void {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.ok(isAsmError(r.json), `ASM error shape: ${JSON.stringify(r.json)}`);
  assert.equal(r.json.errorCode, errorCode);
  assert.equal(r.json.message, message);
}

describe('authentication and error shape', () => {
  test('no key: 400 API Key Missing (10000), before the body is looked at', async () => {
    const r = await asm('GET', '/api/v1/seeds', { key: null });
    assertAsmError(r, 400, 10000, 'API Key Missing');
    assert.equal(typeof r.json.details, 'string');
    const withBadBody = await asm('POST', '/api/v1/seeds', { key: null, body: { nope: 1 } });
    assertAsmError(withBadBody, 400, 10000, 'API Key Missing');
    assertAsmError(await asm('GET', '/api/v1/seeds', { key: '   ' }), 400, 10000, 'API Key Missing');
  });

  test('a wrong key, or Search credentials: 401 Invalid API Key (10001)', async () => {
    assertAsmError(await asm('GET', '/api/v1/seeds', { key: 'not-a-key' }), 401, 10001, 'Invalid API Key');
    assertAsmError(await asm('GET', '/api/integrations/v1/account', { key: s.admin.apiSecret }), 401, 10001, 'Invalid API Key');
    const basicOnly = await asm('GET', '/api/v1/seeds', { key: null, headers: { authorization: s.basic() } });
    assertAsmError(basicOnly, 400, 10000, 'API Key Missing');
  });

  test('an ASM key does not open the Search API', async () => {
    const r = await asm('GET', '/api/v1/account');
    assert.equal(r.status, 401);
  });

  test('unknown ASM routes answer 404 JSON in the ASM shape', async () => {
    const r = await asm('GET', '/api/v1/seeds/1/nothing');
    assert.equal(r.status, 404);
    assert.ok(isAsmError(r.json));
    const other = await asm('GET', '/api/beta/nothing-here');
    assert.equal(other.status, 404);
    assert.ok(isAsmError(other.json));
  });

  test('the Search API keeps its own error shape', async () => {
    const r = await s.app.inject({ method: 'GET', url: '/api/v2/hosts/search?q=ip:*', headers: {} });
    assert.equal(r.statusCode, 401);
    const json = JSON.parse(r.body);
    assert.equal(json.code, 401);
    assert.equal(json.errorCode, undefined);
  });

  test('Content-Type: application/json with an empty body is accepted on every method', async () => {
    const [seed] = (await asm('POST', '/api/v1/seeds', { body: { seeds: [{ type: 'IP_ADDRESS', value: '9.9.9.9', label: 'empty-body' }] } })).json.addedSeeds;
    for (const [method, url] of [
      ['GET', '/api/v1/seeds'],
      ['GET', `/api/v1/seeds/${seed.id}`],
      ['GET', '/api/integrations/v1/account'],
      ['DELETE', '/api/v1/seeds?label=empty-body'],
    ] as const) {
      const r = await asm(method, url, { raw: '' });
      assert.equal(r.status, 200, `${method} ${url}: ${r.body}`);
    }
  });

  test('a malformed JSON body is an ASM error, not a crash', async () => {
    const r = await asm('POST', '/api/v1/seeds', { raw: '{"seeds": [' });
    assert.equal(r.status, 400);
    assert.ok(isAsmError(r.json));
    assert.equal(r.json.errorCode, 10067);
  });
});

describe('workspace account', () => {
  test('names the caller\'s workspace', async () => {
    const r = await asm('GET', '/api/integrations/v1/account');
    assert.equal(r.status, 200);
    assert.equal(r.json.workspaceId, s.admin.user.workspaceId);
    assert.equal(r.json.email, 'admin@example.test');
    assert.equal(typeof r.json.workspaceName, 'string');
    const other = await asm('GET', '/api/integrations/v1/account', { key: s.other.asmKey });
    assert.equal(other.json.workspaceId, s.other.user.workspaceId);
    assert.notEqual(other.json.workspaceId, r.json.workspaceId);
  });
});

describe('seeds', () => {
  beforeEach(async () => {
    await clearSeeds();
    await clearSeeds(s.other.asmKey);
  });

  test('add answers the exact seed shape; ASN as number or numeric string', async () => {
    const before = Date.now();
    const r = await asm('POST', '/api/v1/seeds', {
      body: {
        seeds: [
          { type: 'IP_ADDRESS', value: '1.2.3.4', label: 'Test' },
          { type: 'DOMAIN_NAME', value: 'Censys.IO.', label: '' },
          { type: 'CIDR', value: '8.8.8.0/24' },
          { type: 'ASN', value: 13335, label: null },
          { type: 'ASN', value: '15169', label: 'g' },
          { type: 'IP_ADDRESS', value: '2001:4860:0000::8888', label: 'v6' },
        ],
      },
    });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(Object.keys(r.json).sort(), ['addedSeeds', 'skippedReservedSeeds']);
    assert.deepEqual(r.json.skippedReservedSeeds, []);
    const added = r.json.addedSeeds;
    assert.deepEqual(
      added.map((x: any) => [x.type, x.value, x.label]),
      [
        ['IP_ADDRESS', '1.2.3.4', 'Test'],
        ['DOMAIN_NAME', 'censys.io', ''],
        ['CIDR', '8.8.8.0/24', ''],
        ['ASN', 13335, ''],
        ['ASN', 15169, 'g'],
        ['IP_ADDRESS', '2001:4860::8888', 'v6'],
      ],
    );
    for (const seed of added) {
      assert.deepEqual(Object.keys(seed).sort(), ['createdOn', 'id', 'isAutomatedDiscovery', 'label', 'source', 'type', 'value']);
      assert.equal(typeof seed.id, 'number');
      assert.equal(seed.source, 'API');
      assert.equal(seed.isAutomatedDiscovery, false);
      assert.match(seed.createdOn, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      assert.ok(Date.parse(seed.createdOn) >= before - 1000);
    }
    assert.equal(new Set(added.map((x: any) => x.id)).size, added.length);
  });

  test('list returns every seed, filtered by type and label; empty filters are ignored', async () => {
    await asm('POST', '/api/v1/seeds', {
      body: {
        seeds: [
          { type: 'IP_ADDRESS', value: '1.1.1.1', label: 'a' },
          { type: 'ASN', value: 13335, label: 'a' },
          { type: 'IP_ADDRESS', value: '1.0.0.1', label: 'b' },
        ],
      },
    });
    const all = await asm('GET', '/api/v1/seeds');
    assert.equal(all.status, 200);
    assert.deepEqual(Object.keys(all.json), ['seeds']);
    assert.deepEqual(all.json.seeds.map((x: any) => x.value), ['1.1.1.1', 13335, '1.0.0.1']);
    const byType = await asm('GET', '/api/v1/seeds?type=IP_ADDRESS');
    assert.deepEqual(byType.json.seeds.map((x: any) => x.value), ['1.1.1.1', '1.0.0.1']);
    const byLabel = await asm('GET', '/api/v1/seeds?label=a');
    assert.deepEqual(byLabel.json.seeds.map((x: any) => x.value), ['1.1.1.1', 13335]);
    const both = await asm('GET', '/api/v1/seeds?type=ASN&label=a');
    assert.deepEqual(both.json.seeds.map((x: any) => x.value), [13335]);
    const empty = await asm('GET', '/api/v1/seeds?type=&label=');
    assert.equal(empty.json.seeds.length, 3);
    assert.deepEqual((await asm('GET', '/api/v1/seeds?label=none')).json, { seeds: [] });
    assertAsmError(await asm('GET', '/api/v1/seeds?type=HOST'), 400, 10038, 'Invalid Seed Type');
  });

  test('get by id; unknown and non-numeric ids are 404 10014 with the id in details', async () => {
    const [seed] = (await asm('POST', '/api/v1/seeds', { body: { seeds: [{ type: 'IP_ADDRESS', value: '4.4.4.4', label: 'x' }] } })).json.addedSeeds;
    const got = await asm('GET', `/api/v1/seeds/${seed.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.json, seed);
    const missing = await asm('GET', '/api/v1/seeds/987654');
    assertAsmError(missing, 404, 10014, 'Unable to Find Seed');
    assert.deepEqual(missing.json.details, [{ id: 987654 }]);
    for (const bad of ['abc', '-1', '1.5', '99999999999999999999', '%20']) {
      const r = await asm('GET', `/api/v1/seeds/${bad}`);
      assertAsmError(r, 404, 10014, 'Unable to Find Seed');
    }
    assert.deepEqual((await asm('DELETE', '/api/v1/seeds/abc')).json.details, [{ id: 'abc' }]);
  });

  test('force=True spelling, reserved values skipped and listed unless forced', async () => {
    const reserved = [
      { type: 'IP_ADDRESS', value: '10.1.2.3' },
      { type: 'IP_ADDRESS', value: '127.0.0.1' },
      { type: 'IP_ADDRESS', value: '192.168.1.1' },
      { type: 'IP_ADDRESS', value: '203.0.113.7' },
      { type: 'IP_ADDRESS', value: 'fe80::1' },
      { type: 'IP_ADDRESS', value: '2001:db8::1' },
      { type: 'CIDR', value: '10.20.0.0/16' },
      { type: 'DOMAIN_NAME', value: 'localhost' },
      { type: 'DOMAIN_NAME', value: 'www.example.com' },
      { type: 'DOMAIN_NAME', value: 'printer.local' },
      { type: 'ASN', value: 64512 },
      { type: 'ASN', value: '4200000001' },
    ];
    const public_ = [{ type: 'IP_ADDRESS', value: '8.8.4.4' }, { type: 'CIDR', value: '100.0.0.0/8' }];
    const r = await asm('POST', '/api/v1/seeds', { body: { seeds: [...reserved, ...public_] } });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json.addedSeeds.map((x: any) => x.value), ['8.8.4.4', '100.0.0.0/8']);
    assert.deepEqual(r.json.skippedReservedSeeds, [
      '10.1.2.3', '127.0.0.1', '192.168.1.1', '203.0.113.7', 'fe80::1', '2001:db8::1', '10.20.0.0/16',
      'localhost', 'www.example.com', 'printer.local', 64512, 4200000001,
    ]);
    assert.equal((await asm('GET', '/api/v1/seeds')).json.seeds.length, 2);

    for (const spelling of ['True', 'true', '1']) {
      await clearSeeds();
      const forced = await asm('POST', `/api/v1/seeds?force=${spelling}`, { body: { seeds: reserved } });
      assert.equal(forced.status, 200, forced.body);
      assert.equal(forced.json.addedSeeds.length, reserved.length, spelling);
      assert.deepEqual(forced.json.skippedReservedSeeds, []);
    }
    await clearSeeds();
    const notForced = await asm('POST', '/api/v1/seeds?force=False', { body: { seeds: reserved.slice(0, 1) } });
    assert.deepEqual(notForced.json.skippedReservedSeeds, ['10.1.2.3']);
    assertAsmError(await asm('POST', '/api/v1/seeds?force=maybe', { body: { seeds: [] } }), 400, 10008, 'Invalid Request');
  });

  test('duplicates are added once: within a request, across requests, and across spellings', async () => {
    const first = await asm('POST', '/api/v1/seeds', {
      body: { seeds: [{ type: 'IP_ADDRESS', value: '5.5.5.5', label: 'one' }, { type: 'IP_ADDRESS', value: '5.5.5.5', label: 'two' }] },
    });
    assert.deepEqual(first.json.addedSeeds.map((x: any) => [x.value, x.label]), [['5.5.5.5', 'one']]);
    const again = await asm('POST', '/api/v1/seeds', {
      body: { seeds: [{ type: 'IP_ADDRESS', value: '5.5.5.5', label: 'three' }, { type: 'DOMAIN_NAME', value: 'Example.NET' }] },
    });
    assert.equal(again.status, 200);
    assert.deepEqual(again.json.addedSeeds, []);
    assert.deepEqual(again.json.skippedReservedSeeds, ['example.net']);
    const asnTwice = await asm('POST', '/api/v1/seeds', { body: { seeds: [{ type: 'ASN', value: 3356 }, { type: 'ASN', value: '3356' }] } });
    assert.equal(asnTwice.json.addedSeeds.length, 1);
    const list = (await asm('GET', '/api/v1/seeds')).json.seeds;
    assert.deepEqual(list.map((x: any) => x.value), ['5.5.5.5', 3356]);
  });

  test('extra keys on seeds (an exported list sent back) are tolerated', async () => {
    const r = await asm('POST', '/api/v1/seeds', {
      body: {
        seeds: [{ id: 77, type: 'DOMAIN_NAME', value: 'censys.com', label: 'exp', source: 'UI', createdOn: '2022-01-01T00:00:00Z', isAutomatedDiscovery: true, extra: { x: 1 } }],
        comment: 'ignored too',
      },
    });
    assert.equal(r.status, 200, r.body);
    const [seed] = r.json.addedSeeds;
    assert.notEqual(seed.id, 77);
    assert.equal(seed.source, 'API');
    assert.equal(seed.isAutomatedDiscovery, false);
    assert.equal(seed.value, 'censys.com');
  });

  test('an invalid type is 400 10038 and adds nothing', async () => {
    for (const type of ['HOST', 'ip_address', 42, undefined]) {
      const r = await asm('POST', '/api/v1/seeds', { body: { seeds: [{ type: 'IP_ADDRESS', value: '6.6.6.6' }, { type, value: '7.7.7.7' }] } });
      assertAsmError(r, 400, 10038, 'Invalid Seed Type');
      assert.equal(typeof r.json.details, 'string');
    }
    assert.deepEqual((await asm('GET', '/api/v1/seeds')).json.seeds, []);
  });

  test('an invalid value is 400 10007 with every error listed, and adds nothing', async () => {
    const bad = [
      { type: 'IP_ADDRESS', value: '300.1.1.1' },
      { type: 'IP_ADDRESS', value: '01.2.3.4' },
      { type: 'IP_ADDRESS', value: 'example.com' },
      { type: 'IP_ADDRESS', value: 16843009 },
      { type: 'CIDR', value: '1.2.3.0/33' },
      { type: 'CIDR', value: '1.2.3.0' },
      { type: 'CIDR', value: '2001:4860::/129' },
      { type: 'DOMAIN_NAME', value: 'no spaces.com' },
      { type: 'DOMAIN_NAME', value: '-bad.com' },
      { type: 'DOMAIN_NAME', value: 'single' },
      { type: 'DOMAIN_NAME', value: '1.2.3.4' },
      { type: 'ASN', value: 0 },
      { type: 'ASN', value: 4294967296 },
      { type: 'ASN', value: 'AS-x' },
      { type: 'ASN', value: 1.5 },
      { type: 'IP_ADDRESS' },
      { type: 'DOMAIN_NAME', value: 'ok.com', label: 5 },
    ];
    const r = await asm('POST', '/api/v1/seeds', { body: { seeds: [{ type: 'IP_ADDRESS', value: '6.6.6.6' }, ...bad] } });
    assertAsmError(r, 400, 10007, 'Invalid Seed Data');
    assert.deepEqual(Object.keys(r.json.details), ['errors']);
    assert.equal(r.json.details.errors.length, bad.length);
    assert.ok(r.json.details.errors.every((e: unknown) => typeof e === 'string'));
    assert.match(r.json.details.errors[0], /seeds\[1\].*300\.1\.1\.1/);
    assert.deepEqual((await asm('GET', '/api/v1/seeds')).json.seeds, []);
  });

  test('normal forms: CIDR on its network address, IPv4-mapped IPv6 as IPv4, IDN as ASCII', async () => {
    const r = await asm('POST', '/api/v1/seeds', {
      body: {
        seeds: [
          { type: 'CIDR', value: '8.8.8.8/24' },
          { type: 'IP_ADDRESS', value: '::ffff:8.8.4.4' },
          { type: 'DOMAIN_NAME', value: 'bücher.de' },
          { type: 'CIDR', value: '2001:4860:4860::8888/48' },
        ],
      },
    });
    assert.deepEqual(r.json.addedSeeds.map((x: any) => x.value), ['8.8.8.0/24', '8.8.4.4', 'xn--bcher-kva.de', '2001:4860:4860::/48']);
  });

  test('a block larger than /8 is 422 Too Many Input Nodes (10016) unless forced', async () => {
    for (const value of ['4.0.0.0/7', '0.0.0.0/0', '2000::/16']) {
      const r = await asm('POST', '/api/v1/seeds', { body: { seeds: [{ type: 'CIDR', value }] } });
      assertAsmError(r, 422, 10016, 'Too Many Input Nodes');
      assert.equal(typeof r.json.details, 'string');
    }
    assert.equal((await asm('POST', '/api/v1/seeds', { body: { seeds: [{ type: 'CIDR', value: '4.0.0.0/8' }] } })).json.addedSeeds.length, 1);
    const forced = await asm('POST', '/api/v1/seeds?force=True', { body: { seeds: [{ type: 'CIDR', value: '4.0.0.0/7' }] } });
    assert.equal(forced.status, 200);
    assert.equal(forced.json.addedSeeds[0].value, '4.0.0.0/7');
    const viaPut = await asm('PUT', '/api/v1/seeds?label=big', { body: { seeds: [{ type: 'CIDR', value: '2000::/16' }] } });
    assertAsmError(viaPut, 422, 10016, 'Too Many Input Nodes');
  });

  test('a body without seeds, or not an object, is 400 10008 with AJV-style details', async () => {
    for (const body of [{}, { seed: [] }, [1]]) {
      const r = await asm('POST', '/api/v1/seeds', { body });
      assertAsmError(r, 400, 10008, 'Invalid Request');
      assert.equal(typeof r.json.details.message, 'string');
      assert.ok(Array.isArray(r.json.details.errors) && r.json.details.errors.length > 0);
      const e = r.json.details.errors[0];
      for (const k of ['keyword', 'dataPath', 'schemaPath', 'params']) assert.ok(k in e, k);
    }
    const empty = await asm('POST', '/api/v1/seeds', { raw: '' });
    assertAsmError(empty, 400, 10008, 'Invalid Request');
    const list = await asm('POST', '/api/v1/seeds', { body: { seeds: [] } });
    assert.deepEqual(list.json, { addedSeeds: [], skippedReservedSeeds: [] });
  });

  test('replace by label: added, removed and skipped; other labels untouched', async () => {
    await asm('POST', '/api/v1/seeds', {
      body: {
        seeds: [
          { type: 'IP_ADDRESS', value: '1.1.1.1', label: 'L' },
          { type: 'IP_ADDRESS', value: '2.2.2.2', label: 'L' },
          { type: 'ASN', value: 13335, label: 'L' },
          { type: 'IP_ADDRESS', value: '3.3.3.3', label: 'M' },
        ],
      },
    });
    const r = await asm('PUT', '/api/v1/seeds?label=L&force=False', {
      body: { seeds: [{ type: 'IP_ADDRESS', value: '2.2.2.2' }, { type: 'DOMAIN_NAME', value: 'censys.io' }, { type: 'IP_ADDRESS', value: '10.0.0.1' }, { type: 'IP_ADDRESS', value: '3.3.3.3' }] },
    });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(Object.keys(r.json).sort(), ['addedSeeds', 'removedSeeds', 'skippedReservedSeeds']);
    assert.deepEqual(r.json.addedSeeds.map((x: any) => [x.value, x.label]), [['censys.io', 'L']]);
    assert.deepEqual(r.json.removedSeeds.map((x: any) => x.value), ['1.1.1.1', 13335]);
    for (const removed of r.json.removedSeeds) assert.deepEqual(Object.keys(removed).sort(), ['id', 'label', 'source', 'type', 'value']);
    assert.deepEqual(r.json.skippedReservedSeeds, ['10.0.0.1']);
    assert.deepEqual((await asm('GET', '/api/v1/seeds?label=L')).json.seeds.map((x: any) => x.value), ['2.2.2.2', 'censys.io']);
    assert.deepEqual((await asm('GET', '/api/v1/seeds?label=M')).json.seeds.map((x: any) => x.value), ['3.3.3.3']);

    const forced = await asm('PUT', '/api/v1/seeds?label=L&force=True', { body: { seeds: [{ type: 'IP_ADDRESS', value: '10.0.0.1' }] } });
    assert.deepEqual(forced.json.addedSeeds.map((x: any) => x.value), ['10.0.0.1']);
    assert.deepEqual(forced.json.removedSeeds.map((x: any) => x.value), ['2.2.2.2', 'censys.io']);
    // Asked for again without force, a reserved seed the label already holds stays.
    const kept = await asm('PUT', '/api/v1/seeds?label=L', { body: { seeds: [{ type: 'IP_ADDRESS', value: '10.0.0.1' }] } });
    assert.deepEqual(kept.json, { addedSeeds: [], removedSeeds: [], skippedReservedSeeds: [] });
  });

  test('replace and delete by label need a label: 400 10008', async () => {
    assertAsmError(await asm('PUT', '/api/v1/seeds', { body: { seeds: [] } }), 400, 10008, 'Invalid Request');
    assertAsmError(await asm('PUT', '/api/v1/seeds?label=', { body: { seeds: [] } }), 400, 10008, 'Invalid Request');
    assertAsmError(await asm('DELETE', '/api/v1/seeds'), 400, 10008, 'Invalid Request');
    assertAsmError(await asm('DELETE', '/api/v1/seeds?label='), 400, 10008, 'Invalid Request');
    assertAsmError(await asm('PUT', '/api/v1/seeds?label=L', { body: { seeds: [{ type: 'NOPE', value: 'x' }] } }), 400, 10038, 'Invalid Seed Type');
    assertAsmError(await asm('PUT', '/api/v1/seeds?label=L', { body: { seeds: [{ type: 'ASN', value: 'x' }] } }), 400, 10007, 'Invalid Seed Data');
  });

  test('delete by label answers {} and removes only that label', async () => {
    await asm('POST', '/api/v1/seeds', {
      body: { seeds: [{ type: 'IP_ADDRESS', value: '1.1.1.1', label: 'gone' }, { type: 'IP_ADDRESS', value: '1.0.0.1', label: 'stays' }] },
    });
    const r = await asm('DELETE', '/api/v1/seeds?label=gone');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, {});
    assert.deepEqual((await asm('GET', '/api/v1/seeds')).json.seeds.map((x: any) => x.label), ['stays']);
    assert.deepEqual((await asm('DELETE', '/api/v1/seeds?label=gone')).json, {});
  });

  test('delete by id answers {}; a second delete is 404 10014', async () => {
    const [seed] = (await asm('POST', '/api/v1/seeds', { body: { seeds: [{ type: 'IP_ADDRESS', value: '1.1.1.1' }] } })).json.addedSeeds;
    const r = await asm('DELETE', `/api/v1/seeds/${seed.id}`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, {});
    const again = await asm('DELETE', `/api/v1/seeds/${seed.id}`);
    assertAsmError(again, 404, 10014, 'Unable to Find Seed');
    assert.deepEqual(again.json.details, [{ id: seed.id }]);
  });

  test('workspaces never see each other\'s seeds', async () => {
    const mine = (await asm('POST', '/api/v1/seeds', { body: { seeds: [{ type: 'IP_ADDRESS', value: '1.1.1.1', label: 'shared-name' }] } })).json.addedSeeds[0];
    const key = s.other.asmKey;
    assert.deepEqual((await asm('GET', '/api/v1/seeds', { key })).json, { seeds: [] });
    assertAsmError(await asm('GET', `/api/v1/seeds/${mine.id}`, { key }), 404, 10014, 'Unable to Find Seed');
    assertAsmError(await asm('DELETE', `/api/v1/seeds/${mine.id}`, { key }), 404, 10014, 'Unable to Find Seed');
    // The same value is a seed of its own in the other workspace.
    const theirs = await asm('POST', '/api/v1/seeds', { key, body: { seeds: [{ type: 'IP_ADDRESS', value: '1.1.1.1', label: 'shared-name' }] } });
    assert.equal(theirs.json.addedSeeds.length, 1);
    assert.deepEqual((await asm('DELETE', '/api/v1/seeds?label=shared-name', { key })).json, {});
    const replaced = await asm('PUT', '/api/v1/seeds?label=shared-name', { key, body: { seeds: [] } });
    assert.deepEqual(replaced.json.removedSeeds, []);
    assert.deepEqual((await asm('GET', `/api/v1/seeds/${mine.id}`)).json, mine);
  });

  test('every change is announced to SeedsChanged listeners', async () => {
    // The app built by the test server has its own context; subscribe through a second app sharing the store.
    const { buildApp } = await import('../../src/api/app.ts');
    const { createAsmContext } = await import('../../src/asm/index.ts');
    const ctx = createAsmContext(s.rt.store);
    const seen: SeedsChange[] = [];
    const unsubscribe = ctx.seedsChanged.subscribe((c) => {
      seen.push(c);
    });
    ctx.seedsChanged.subscribe(() => {
      throw new Error('a failing listener must not fail the request');
    });
    const app = await buildApp({ ctx: s.rt.ctx, auth: s.rt.auth, rateLimit: { requests: 0, windowSeconds: 60 }, bodyLimit: 1 << 20, logger: false, version: 't', asm: ctx });
    try {
      const send = (method: string, url: string, body?: unknown) =>
        app.inject({ method: method as 'GET', url, headers: { 'censys-api-key': s.admin.asmKey, 'content-type': 'application/json' }, ...(body ? { payload: JSON.stringify(body) } : {}) });
      const add = await send('POST', '/api/v1/seeds', { seeds: [{ type: 'IP_ADDRESS', value: '1.1.1.1', label: 'n' }, { type: 'IP_ADDRESS', value: '1.0.0.1', label: 'n' }] });
      assert.equal(add.statusCode, 200);
      await send('POST', '/api/v1/seeds', { seeds: [{ type: 'IP_ADDRESS', value: '1.1.1.1' }] });
      await send('PUT', '/api/v1/seeds?label=n', { seeds: [{ type: 'IP_ADDRESS', value: '1.1.1.1' }, { type: 'ASN', value: 13335 }] });
      const id = JSON.parse(add.body).addedSeeds[0].id;
      await send('DELETE', `/api/v1/seeds/${id}`);
      await send('DELETE', '/api/v1/seeds?label=n');
      assert.deepEqual(
        seen.map((c) => [c.workspaceId === s.admin.user.workspaceId, c.added.map((x) => x.value), c.removed.map((x) => x.value)]),
        [
          [true, ['1.1.1.1', '1.0.0.1'], []],
          [true, ['13335'], ['1.0.0.1']],
          [true, [], ['1.1.1.1']],
          [true, [], ['13335']],
        ],
      );
      unsubscribe();
      await send('POST', '/api/v1/seeds', { seeds: [{ type: 'IP_ADDRESS', value: '9.9.9.9' }] });
      assert.equal(seen.length, 4);
    } finally {
      await app.close();
    }
  });
});

describe('rate limit', () => {
  let limited: TestServer;
  const call = asmCaller(() => limited);
  before(async () => {
    limited = await startTestServer({ hosts: 5, certificates: 5, rateLimit: { requests: 3, windowSeconds: 30 } });
  });
  after(async () => {
    await limited?.close();
  });

  test('429 Too Many Requests (10039) with details and an integer Retry-After, per user', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 5; i++) {
      last = await call('GET', '/api/v1/seeds');
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    assertAsmError(last!, 429, 10039, 'Too Many Requests');
    assert.deepEqual(Object.keys(last!.json.details).sort(), ['maxRequests', 'message', 'period']);
    assert.equal(last!.json.details.maxRequests, 3);
    assert.equal(last!.json.details.period, 30);
    assert.match(String(last!.headers['retry-after']), /^\d+$/);
    assert.ok(Number(last!.headers['retry-after']) >= 1 && Number(last!.headers['retry-after']) <= 30);
    assert.equal((await call('GET', '/api/v1/seeds', { key: limited.other.asmKey })).status, 200);
    // The Search API budget is separate.
    const search = await limited.app.inject({ method: 'GET', url: '/api/v2/tags', headers: { authorization: limited.basic() } });
    assert.equal(search.statusCode, 200);
  });
});
