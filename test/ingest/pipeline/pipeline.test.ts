/**
 * runIngest against a real store and engine: summary counts, certificates, history, dry runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runIngest, sha256Hex } from '../../../src/ingest/pipeline/index.ts';
import type { IngestRecord } from '../../../src/ingest/observation.ts';
import { rootCertificates } from 'node:tls';
import { pemToDer } from '../../../src/ingest/x509/index.ts';
import { deps, dumpStore, fixtureDer, from, host, open, tempRuntime } from './helpers.ts';

const leaf = fixtureDer('leaf.pem');
const inter = fixtureDer('intermediate.pem');
const root = fixtureDer('root.pem');
const T1 = '2026-01-10T00:00:00Z';
const T2 = '2026-01-11T00:00:00Z';

function firstScan(): IngestRecord[] {
  return [
    host('192.0.2.1', T1, [open(80, { serviceName: 'HTTP', banner: 'a' }), open(22)]),
    host('192.0.2.2', T1, [open(443, { serviceName: 'HTTP', tls: { chain: [leaf, inter] } })]),
    host('192.0.2.3', T1, [open(25)]),
    { kind: 'certificate', position: 'entry 0', certificate: { der: root, source: 'ct', ct: { log: 'test_log', index: 7, timestamp: '2026-01-09T00:00:00Z' } } },
    { kind: 'rejected', position: 'line 99', reason: 'invalid JSON' },
    host('not-an-ip', T1, [open(80)]),
    host('192.0.2.9', 'yesterday', [open(80)]),
  ];
}

test('summary counts hosts, services, certificates and rejected records', async () => {
  const t = await tempRuntime();
  try {
    const s1 = await runIngest(from(firstScan()), deps(t.rt, { batchSize: 3 }));
    assert.equal(s1.records, 7);
    assert.deepEqual(s1.hosts, { created: 3, updated: 0, unchanged: 0, historyUpdated: 0 });
    assert.deepEqual(s1.services, { added: 4, changed: 0, removed: 0 });
    assert.deepEqual(s1.certificates, { new: 3, seenAgain: 0 });
    assert.equal(s1.rejected.count, 3);
    assert.deepEqual(s1.rejected.kept.map((r) => r.position), ['line 99', s1.rejected.kept[1].position, s1.rejected.kept[2].position]);
    assert.match(s1.rejected.kept[1].reason, /not an IP address/);
    assert.match(s1.rejected.kept[2].reason, /bad observation time/);
    assert.equal(await t.rt.store.documents.count('hosts'), 3);
    assert.equal(t.rt.engine.size('hosts'), 3, 'written through the indexer');

    const before = await dumpStore(t.rt.store);
    const again = await runIngest(from(firstScan()), deps(t.rt));
    assert.deepEqual(again.hosts, { created: 0, updated: 0, unchanged: 3, historyUpdated: 0 });
    assert.deepEqual(again.certificates, { new: 0, seenAgain: 3 });
    assert.deepEqual(again.services, { added: 0, changed: 0, removed: 0 });
    assert.equal(await dumpStore(t.rt.store), before, 're-ingesting the same input writes nothing');

    const s2 = await runIngest(from([
      host('192.0.2.1', T2, [open(80, { serviceName: 'HTTP', banner: 'b' }), open(22, { state: 'closed' }), open(8080)]),
      host('192.0.2.3', T2, [open(25)]),
      host('192.0.2.4', T2, [open(53, { transport: 'UDP' })]),
    ]), deps(t.rt));
    assert.deepEqual(s2.hosts, { created: 1, updated: 2, unchanged: 0, historyUpdated: 0 });
    assert.deepEqual(s2.services, { added: 2, changed: 1, removed: 1 });
    const h1 = await t.rt.store.documents.get('hosts', '192.0.2.1');
    assert.equal(h1?.version, 2);
    assert.deepEqual((h1?.doc.services as { port: number }[]).map((s) => s.port), [80, 8080]);
  } finally {
    await t.close();
  }
});

test('certificates: scan sightings, CT entries, first-seen time, links from hosts', async () => {
  const t = await tempRuntime();
  try {
    await runIngest(from(firstScan()), deps(t.rt));
    const leafDoc = await t.rt.store.documents.get('certificates', sha256Hex(leaf));
    assert.ok(leafDoc);
    assert.equal(leafDoc.doc.ever_seen_in_scan, true);
    assert.equal(leafDoc.doc.added_at, '2026-01-10T00:00:00.000Z');
    assert.equal((await t.rt.store.documents.get('certificates', sha256Hex(inter)))?.doc.ever_seen_in_scan, true);
    const rootDoc = await t.rt.store.documents.get('certificates', sha256Hex(root));
    assert.equal(rootDoc?.doc.ever_seen_in_scan, undefined);
    assert.deepEqual((rootDoc?.doc.ct as { entries: unknown }).entries, { test_log: { index: 7, added_to_ct_at: '2026-01-09T00:00:00.000Z' } });
    const h2 = await t.rt.store.documents.get('hosts', '192.0.2.2');
    assert.equal((h2?.doc.services as { certificate: string }[])[0].certificate, sha256Hex(leaf));

    // The root seen later in a scan and in another log: a new version with both facts.
    const s = await runIngest(from([
      host('192.0.2.5', T2, [open(8443, { tls: { chain: [root] } })]),
      { kind: 'certificate', position: 'entry 1', certificate: { der: root, source: 'ct', ct: { log: 'other_log', index: 1, timestamp: '2026-01-12T00:00:00Z' } } },
    ]), deps(t.rt));
    assert.deepEqual(s.certificates, { new: 0, seenAgain: 1 });
    const r2 = await t.rt.store.documents.get('certificates', sha256Hex(root));
    assert.equal(r2?.version, 2);
    assert.equal(r2?.doc.ever_seen_in_scan, true);
    assert.deepEqual(Object.keys((r2?.doc.ct as { entries: object }).entries).sort(), ['other_log', 'test_log']);
    assert.equal(r2?.doc.added_at, '2026-01-09T00:00:00.000Z', 'first seen stays the earliest time');
  } finally {
    await t.close();
  }
});

test('an unparsable certificate record is rejected; the rest continue', async () => {
  const t = await tempRuntime();
  try {
    const s = await runIngest(from([
      { kind: 'certificate', position: 'block 1', certificate: { der: new Uint8Array([0x30, 0x03, 0x02, 0x01]), source: 'pem' } },
      { kind: 'certificate', position: 'block 2', certificate: { der: leaf, source: 'pem' } },
    ]), deps(t.rt));
    assert.equal(s.rejected.count, 1);
    assert.equal(s.rejected.kept[0].position, 'block 1');
    assert.deepEqual(s.certificates, { new: 1, seenAgain: 0 });
    const doc = await t.rt.store.documents.get('certificates', sha256Hex(leaf));
    assert.equal(doc?.doc.added_at, '2026-02-01T00:00:00.000Z', 'no observation time: the ingest time');
  } finally {
    await t.close();
  }
});

test('observations of one host in a batch are merged in time order, each change a version', async () => {
  const t = await tempRuntime();
  try {
    const s = await runIngest(from([
      host('192.0.2.7', T2, [open(80, { banner: 'second' })]),
      host('192.0.2.7', T1, [open(80, { banner: 'first' })]),
    ]), deps(t.rt));
    assert.deepEqual(s.hosts, { created: 1, updated: 0, unchanged: 0, historyUpdated: 0 });
    const history = await t.rt.store.documents.history('hosts', '192.0.2.7');
    assert.deepEqual(history.map((v) => [v.validFrom, (v.doc.services as { banner: string }[])[0].banner]), [
      ['2026-01-10T00:00:00.000Z', 'first'],
      ['2026-01-11T00:00:00.000Z', 'second'],
    ]);
  } finally {
    await t.close();
  }
});

test('a late observation is added to history at its time; the current view stays', async () => {
  const t = await tempRuntime();
  try {
    await runIngest(from([host('192.0.2.8', T2, [open(80, { banner: 'new' })])]), deps(t.rt));
    const late = [host('192.0.2.8', T1, [open(80, { banner: 'old' }), open(21)])];
    const s = await runIngest(from(late), deps(t.rt));
    assert.equal(s.hosts.historyUpdated, 1);
    const cur = await t.rt.store.documents.get('hosts', '192.0.2.8');
    assert.deepEqual((cur?.doc.services as { port: number; banner?: string }[]).map((x) => [x.port, x.banner]), [[80, 'new']]);
    const history = await t.rt.store.documents.history('hosts', '192.0.2.8');
    assert.deepEqual(history.map((v) => v.validFrom), ['2026-01-10T00:00:00.000Z', '2026-01-11T00:00:00.000Z']);
    const before = await dumpStore(t.rt.store);
    const again = await runIngest(from(late), deps(t.rt));
    assert.equal(again.hosts.historyUpdated, 0);
    assert.equal(await dumpStore(t.rt.store), before);
  } finally {
    await t.close();
  }
});

test('late observations of one batch, two of them of one host: each merges into the history before it', async () => {
  const t = await tempRuntime();
  try {
    const T3 = '2026-01-12T00:00:00Z';
    await runIngest(from([host('192.0.2.8', T3, [open(80, { banner: 'new' })]), host('192.0.2.9', T3, [open(80)])]), deps(t.rt));
    const late = [
      host('192.0.2.8', '2026-01-10T00:00:00Z', [open(21)]),
      host('192.0.2.9', '2026-01-10T00:00:00Z', [open(25)]),
      host('192.0.2.8', '2026-01-11T00:00:00Z', [open(22)]),
    ];
    const s = await runIngest(from(late), deps(t.rt));
    assert.equal(s.hosts.historyUpdated, 3);
    const ports = async (ip: string) => (await t.rt.store.documents.history('hosts', ip)).map((v) => (v.doc.services as { port: number }[]).map((x) => x.port));
    // The second observation of 192.0.2.8 merged into the version the first one wrote.
    assert.deepEqual(await ports('192.0.2.8'), [[21], [21, 22], [80]]);
    assert.deepEqual(await ports('192.0.2.9'), [[25], [80]]);
    assert.deepEqual((await t.rt.store.documents.get('hosts', '192.0.2.8'))?.version, 3);
  } finally {
    await t.close();
  }
});

test('a dry run reports the same counts and writes nothing', async () => {
  const t = await tempRuntime();
  try {
    const records = firstScan();
    const dry = await runIngest(from(records), deps(t.rt, { dryRun: true }));
    assert.equal(dry.dryRun, true);
    assert.equal(await t.rt.store.documents.count('hosts'), 0);
    assert.equal(await t.rt.store.documents.count('certificates'), 0);
    assert.equal(t.rt.engine.size('hosts'), 0);
    const real = await runIngest(from(records), deps(t.rt));
    assert.deepEqual({ ...dry, dryRun: false }, real);
  } finally {
    await t.close();
  }
});

test('rejected records beyond the cap are counted, not kept', async () => {
  const t = await tempRuntime();
  try {
    const recs: IngestRecord[] = Array.from({ length: 30 }, (_, i) => ({ kind: 'rejected', position: `line ${i + 1}`, reason: 'bad' }));
    const s = await runIngest(from(recs), deps(t.rt, { maxRejectedKept: 10 }));
    assert.equal(s.rejected.count, 30);
    assert.equal(s.rejected.kept.length, 10);
    assert.equal(s.rejected.kept[9].position, 'line 10');
  } finally {
    await t.close();
  }
});

test('a host with no open service creates no document', async () => {
  const t = await tempRuntime();
  try {
    const s = await runIngest(from([host('192.0.2.30', T1, [open(80, { state: 'closed' })]), host('192.0.2.31', T1, [])]), deps(t.rt));
    assert.deepEqual(s.hosts, { created: 0, updated: 0, unchanged: 2, historyUpdated: 0 });
    assert.equal(await t.rt.store.documents.count('hosts'), 0);
  } finally {
    await t.close();
  }
});

test('certificates are validated against the Mozilla roots when first stored', async () => {
  const { rt, close } = await tempRuntime();
  try {
    const leaf = fixtureDer('leaf.pem');
    const intermediate = fixtureDer('intermediate.pem');
    const root = fixtureDer('root.pem');
    // A real Mozilla root (from Node's bundled store) validates as a trusted root.
    const mozilla = pemToDer(rootCertificates[0]);
    assert.ok(mozilla.ok);
    await runIngest(
      from([
        host('198.51.100.7', '2026-01-10T00:00:00Z', [open(443, { serviceName: 'HTTP', tls: { chain: [leaf, intermediate, root] } })]),
        { kind: 'certificate', position: 'block 1', certificate: { der: mozilla.ders[0], source: 'pem' } },
      ]),
      deps(rt),
    );
    const leafDoc = (await rt.store.documents.get('certificates', sha256Hex(leaf)))!.doc as any;
    assert.equal(leafDoc.validation.nss.is_valid, false);
    assert.equal(leafDoc.validation.nss.has_trusted_path, false);
    assert.equal(leafDoc.validation.nss.type, 'LEAF');
    assert.equal(typeof leafDoc.validation.nss.reason, 'string');
    assert.ok(leafDoc.labels.includes('untrusted'));
    const interDoc = (await rt.store.documents.get('certificates', sha256Hex(intermediate)))!.doc as any;
    assert.equal(interDoc.validation.nss.type, 'INTERMEDIATE');
    const rootDoc = (await rt.store.documents.get('certificates', sha256Hex(mozilla.ders[0])))!.doc as any;
    assert.equal(rootDoc.validation.nss.is_valid, true);
    assert.equal(rootDoc.validation.nss.type, 'ROOT');
    assert.ok(rootDoc.labels.includes('trusted'));
  } finally {
    await close();
  }
});
