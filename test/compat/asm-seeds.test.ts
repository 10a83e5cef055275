/**
 * The real censys-python 2.1.9 AsmClient (Debian python3-censys) against a live server: seeds and
 * the exceptions the client picks from ASM errorCodes. The Python side records what it saw; this
 * side checks it.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { assertPython, listen, runPython } from './run-python.ts';

let server: TestServer;
let out: Record<string, any>;

before(async () => {
  assertPython();
  server = await startTestServer({ hosts: 10, certificates: 5 });
  const base = await listen(server);
  out = await runPython('test/compat/asm_seeds_2_1_9.py', {
    PERISCOPE_URL: base,
    PERISCOPE_ASM_KEY: server.admin.asmKey,
    PERISCOPE_OTHER_ASM_KEY: server.other.asmKey,
  });
});

after(async () => {
  await server?.close();
});

const SEED_KEYS = ['createdOn', 'id', 'isAutomatedDiscovery', 'label', 'source', 'type', 'value'];

test('it is the 2.1.9 client', () => {
  assert.equal(out.client_version, '2.1.9');
});

test('add_seeds: added seeds in the exact shape, reserved skipped, extra keys tolerated, duplicates not re-added', () => {
  assert.deepEqual(out.initial, []);
  const added = out.added.addedSeeds;
  assert.deepEqual(
    added.map((s: any) => [s.type, s.value, s.label]),
    [
      ['IP_ADDRESS', '1.2.3.4', 'compat'],
      ['DOMAIN_NAME', 'censys.io', 'compat'],
      ['CIDR', '8.8.8.0/24', 'compat'],
      ['ASN', 13335, 'asn'],
      ['IP_ADDRESS', '9.9.9.9', ''],
    ],
  );
  for (const s of added) {
    assert.deepEqual(Object.keys(s).sort(), SEED_KEYS);
    assert.equal(s.source, 'API');
    assert.equal(s.isAutomatedDiscovery, false);
    assert.match(s.createdOn, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  }
  assert.deepEqual(out.added.skippedReservedSeeds, ['10.0.0.1']);
  assert.deepEqual(out.added_again, { addedSeeds: [], skippedReservedSeeds: [] });
  assert.deepEqual(out.forced.addedSeeds.map((s: any) => [s.value, s.label]), [['10.0.0.1', 'private']]);
});

test('get_seeds with and without filters, get_seed_by_id', () => {
  assert.equal(out.all.length, 6);
  assert.deepEqual(out.by_type.map((s: any) => s.value), [13335]);
  assert.deepEqual(out.by_label.map((s: any) => s.value), ['1.2.3.4', 'censys.io', '8.8.8.0/24']);
  assert.deepEqual(out.by_type_and_label.map((s: any) => s.value), ['1.2.3.4']);
  assert.deepEqual(out.one, out.added.addedSeeds[0]);
  assert.deepEqual(out.kept, out.forced.addedSeeds[0]);
});

test('replace_seeds_by_label, delete_seeds_by_label, delete_seed_by_id', () => {
  assert.deepEqual(out.replaced.addedSeeds.map((s: any) => [s.value, s.label]), [['censys.com', 'compat']]);
  assert.deepEqual(out.replaced.removedSeeds.map((s: any) => s.value), ['censys.io', '8.8.8.0/24']);
  assert.deepEqual(out.replaced.skippedReservedSeeds, []);
  assert.deepEqual(out.after_replace.map((s: any) => s.value), ['1.2.3.4', 'censys.com']);
  assert.deepEqual(out.deleted_by_label, {});
  assert.deepEqual(out.after_delete_label, []);
  assert.deepEqual(out.deleted_by_id, {});
  assert.deepEqual(out.after_delete_id, []);
  assert.deepEqual(out.final.map((s: any) => s.value).sort(), ['10.0.0.1', '9.9.9.9']);
});

test('errors raise the client exception of their errorCode', () => {
  assert.equal(out.err_not_found.raised, 'CensysSeedNotFoundException');
  assert.equal(out.err_not_found.status, 404);
  assert.equal(out.err_not_found.error_code, 10014);
  assert.equal(out.err_not_found.text, "404 (Error Code: 10014), Unable to Find Seed. [{'id': 987654321}]");
  assert.equal(out.err_delete_not_found.raised, 'CensysSeedNotFoundException');
  assert.equal(out.err_seed_data.raised, 'CensysInvalidSeedDataException');
  assert.equal(out.err_seed_data.status, 400);
  assert.match(out.err_seed_data.text, /^400 \(Error Code: 10007\), Invalid Seed Data\. \{'errors': \[.*300\.1\.1\.1/);
  assert.equal(out.err_seed_type.raised, 'CensysInvalidSeedTypeException');
  assert.equal(out.err_seed_type.error_code, 10038);
  assert.equal(out.err_too_many.raised, 'CensysTooManyInputNodesException');
  assert.equal(out.err_too_many.status, 422);
  assert.equal(out.err_invalid_request.raised, 'CensysInvalidRequestException');
  assert.equal(out.err_invalid_request.error_code, 10008);
  assert.equal(out.err_bad_key.raised, 'CensysInvalidAPIKeyException');
  assert.equal(out.err_bad_key.status, 401);
  assert.equal(out.err_bad_key.error_code, 10001);
  // The client refuses to start without a key; nothing reaches the server.
  assert.equal(out.err_no_key.raised, 'CensysException');
  assert.match(out.err_no_key.text, /No ASM API key/);
});

test('another workspace sees none of these seeds', () => {
  assert.deepEqual(out.other_seeds, []);
  assert.equal(out.other_get.raised, 'CensysSeedNotFoundException');
});
