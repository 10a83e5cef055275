/**
 * A long ingest gives exactly the results of the plain path: the store's writer thread with the
 * pipeline's overlapped writes (same stored versions, times and summary, with a host in
 * consecutive batches, late observations and certificates).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { emptySummary, runIngest, type IngestSummary } from '../../../src/ingest/pipeline/index.ts';
import type { IndexName } from '../../../src/model/field-def.ts';
import type { IngestRecord } from '../../../src/ingest/observation.ts';
import { testSchemas } from '../../support/pg-test-schemas.ts';
import { canonicalJson, openStore, type KyselyStore, type Store } from '../../../src/store/index.ts';
import { deps, dumpStore, fixtureDer, from, host, open, tempRuntime } from './helpers.ts';

const leaf = fixtureDer('leaf.pem');
const inter = fixtureDer('intermediate.pem');

/** Hosts seen in consecutive batches, changing services, late observations and certificates. */
function records(): IngestRecord[] {
  const out: IngestRecord[] = [];
  for (let day = 10; day < 16; day++) {
    for (let i = 0; i < 12; i++) {
      const at = `2026-01-${day}T0${i % 3}:00:00Z`;
      const services = [open(80, { serviceName: 'HTTP', banner: `day ${day % (i + 2)}` })];
      if ((i + day) % 4 === 0) services.push(open(443, { serviceName: 'HTTP', tls: { chain: i % 2 ? [leaf, inter] : [leaf] } }));
      if ((i + day) % 5 === 0) services.push(open(22, { state: 'closed' }));
      out.push(host(`192.0.2.${i}`, at, services, i % 4 === 0 ? { names: [`n${day}.example`] } : {}));
      // Two versions of a host, then (a batch later) an observation between them: it edits
      // history among versions that may still be on their way to the store.
      if (day === 14 && i === 11) out.push(host('192.0.2.50', '2026-01-14T05:00:00Z', [open(81)]), host('192.0.2.50', '2026-01-14T07:00:00Z', [open(82)]));
      if (day === 15 && i === 6) out.push(host('192.0.2.50', '2026-01-14T06:00:00Z', [open(83)]));
    }
    // An observation older than what the store holds by then: history is edited in place.
    if (day > 11) out.push(host('192.0.2.1', `2026-01-${day - 2}T12:00:00Z`, [open(8080, { banner: `late ${day}` })]));
  }
  return out;
}

test('the writer thread and overlapped writes store what the single-threaded path stores', async () => {
  const one = await tempRuntime();
  const two = await tempRuntime();
  try {
    const plain = await runIngest(from(records()), deps(one.rt, { batchSize: 5, writerThreadAfterRecords: Number.POSITIVE_INFINITY }));
    // Started before the run (a run starts its own only after many records), so every write goes through it.
    const stop = await two.rt.store.documents.startWriterThread!();
    try {
      const threaded = await runIngest(from(records()), deps(two.rt, { batchSize: 5 }));
      assert.deepEqual(threaded, plain);
      assert.ok(plain.hosts.historyUpdated > 0, 'late observations were part of the run');
      const dump = await dumpStore(one.rt.store);
      assert.equal(await dumpStore(two.rt.store), dump);
      // The thread gets canonical texts as UTF-8 bytes, and stores them as text, not blobs.
      const types = await sql<{ t: string; n: number }>`select typeof(doc) as t, count(*) as n from document_versions group by 1`.execute((two.rt.store as KyselyStore).db);
      assert.deepEqual(types.rows.map((r) => r.t), ['text']);
      // A re-run through the thread writes nothing.
      const again = await runIngest(from(records()), deps(two.rt, { batchSize: 5 }));
      assert.equal(again.hosts.created + again.hosts.updated, 0);
      assert.equal(await dumpStore(two.rt.store), dump);
    } finally {
      await stop();
    }
    assert.equal((await two.rt.store.documents.put('hosts', '198.51.100.1', { ip: '198.51.100.1' }, '2026-01-01T00:00:00Z')).outcome, 'created');
  } finally {
    await one.close();
    await two.close();
  }
});

/** Summaries added up, count by count. */
function addSummaries(a: IngestSummary, b: IngestSummary): IngestSummary {
  const add = <T extends object>(x: T, y: T): T =>
    Object.fromEntries(Object.keys(x).map((k) => [k, (x as Record<string, number>)[k] + (y as Record<string, number>)[k]])) as T;
  return {
    ...a,
    records: a.records + b.records,
    hostObservations: a.hostObservations + b.hostObservations,
    certificateObservations: a.certificateObservations + b.certificateObservations,
    hosts: add(a.hosts, b.hosts),
    services: add(a.services, b.services),
    certificates: add(a.certificates, b.certificates),
    rejected: { count: a.rejected.count + b.rejected.count, kept: [...a.rejected.kept, ...b.rejected.kept] },
  };
}

test('batches written together, late observations after them: what batch-by-batch runs store', async () => {
  const one = await tempRuntime();
  const two = await tempRuntime();
  try {
    // The reference: each batch of 5 is a run of its own, written (late observations included)
    // before the next is merged.
    const all = records();
    let sequential = emptySummary();
    for (let i = 0; i < all.length; i += 5) {
      sequential = addSummaries(sequential, await runIngest(from(all.slice(i, i + 5)), deps(one.rt, { batchSize: 5, writerThreadAfterRecords: Number.POSITIVE_INFINITY })));
    }
    assert.ok(sequential.hosts.historyUpdated > 0, 'late observations were part of the run');
    // One run: up to 24 batches merged ahead of the store, written eight at a time.
    const grouped = await runIngest(from(all), deps(two.rt, { batchSize: 5, writerThreadAfterRecords: Number.POSITIVE_INFINITY }));
    assert.deepEqual(grouped, sequential);
    assert.equal(await dumpStore(two.rt.store), await dumpStore(one.rt.store));
  } finally {
    await one.close();
    await two.close();
  }
});

test('a failed store write fails the run, whichever batch it was, and the store stays usable', async () => {
  for (const failAt of [1, 2, 3, 7]) {
    const t = await tempRuntime();
    try {
      let calls = 0;
      const base = deps(t.rt, { batchSize: 5, writerThreadAfterRecords: Number.POSITIVE_INFINITY });
      const failing = {
        ...base,
        indexer: {
          put: async (index: IndexName, items: Parameters<typeof t.rt.store.documents.putMany>[1]) => {
            if (++calls === failAt) throw new Error(`disk full at write ${failAt}`);
            return t.rt.store.documents.putMany(index, items);
          },
        },
      };
      await assert.rejects(runIngest(from(records()), failing), new RegExp(`disk full at write ${failAt}`));
      assert.equal((await t.rt.store.documents.put('hosts', '198.51.100.1', { ip: '198.51.100.1' }, '2026-01-01T00:00:00Z')).outcome, 'created');
    } finally {
      await t.close();
    }
  }
});

test('the writer thread is stopped when a run fails, and the store stays usable', async () => {
  const t = await tempRuntime();
  try {
    async function* failing(): AsyncGenerator<IngestRecord> {
      yield* records().slice(0, 30);
      throw new Error('input broke');
    }
    await assert.rejects(runIngest(failing(), deps(t.rt, { batchSize: 5, writerThreadAfterRecords: 10 })), /input broke/);
    const count = await t.rt.store.documents.count('hosts');
    assert.ok(count > 0);
    assert.equal((await t.rt.store.documents.put('hosts', '198.51.100.1', { ip: '198.51.100.1' }, '2026-01-01T00:00:00Z')).outcome, 'created');
  } finally {
    await t.close();
  }
});

async function canonicalDump(store: Store): Promise<string> {
  const out: string[] = [];
  for (const index of ['hosts', 'certificates'] as const) {
    for await (const batch of store.documents.scan(index, 500)) {
      for (const d of batch) {
        for (const v of await store.documents.history(index, d.id)) out.push(`${index} ${v.id} v${v.version} ${v.validFrom} ${canonicalJson(v.doc)}`);
      }
    }
  }
  return out.sort().join('\n');
}

const pgUrl = process.env.PERISCOPE_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
const pgSchema = testSchemas(pgUrl, 'periscope_test_overlap')();

test('overlapped writes on PostgreSQL (no writer thread) store what SQLite stores', async () => {
  const one = await tempRuntime();
  const store = await openStore({ kind: 'postgres', url: pgUrl, schema: pgSchema });
  try {
    const plain = await runIngest(from(records()), deps(one.rt, { batchSize: 5, writerThreadAfterRecords: Number.POSITIVE_INFINITY }));
    const overlapped = await runIngest(from(records()), {
      ...deps(one.rt, { batchSize: 5, writerThreadAfterRecords: 10 }),
      store,
      indexer: { put: (index, items) => store.documents.putMany(index, items) },
    });
    assert.deepEqual(overlapped, plain);
    // jsonb hands keys back in its own order: documents are compared as canonical JSON.
    assert.equal(await canonicalDump(store), await canonicalDump(one.rt.store));
  } finally {
    await store.close();
    await one.close();
  }
});
