import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { IngestRecord } from '../observation.ts';
import { parseCertificate } from '../x509/index.ts';
import { basicConstraintsExt, buildCertificate, ctPoisonExt, encodeName, subjectAltNameExt } from '../demo/certificate-builder.ts';
import { issuanceKey } from '../certificates/index.ts';
import { ctStateKey, ctSync, CtLogClient, precertEntry, x509Entry, type RawCtEntry } from './index.ts';
import { startLocalCtLog, type LocalCtLog } from './local-ct-log.ts';

const DAY = 86_400_000;
let rootDer: Buffer;
let rootKey: KeyObject;
let leafSpki: Buffer;
let server: LocalCtLog;

function leaf(i: number, precert = false): Buffer {
  const serial = Buffer.from([1, i >> 8, i & 0xff]);
  return buildCertificate({
    serial,
    issuer: encodeName([['CN', 'Periscope CT Test Root']]),
    subject: encodeName([['CN', `host${i}.ct.test`]]),
    notBefore: Date.UTC(2025, 0, 1),
    notAfter: Date.UTC(2025, 0, 1) + 90 * DAY,
    spki: leafSpki,
    extensions: [basicConstraintsExt(false), subjectAltNameExt([`host${i}.ct.test`]), ...(precert ? [ctPoisonExt()] : [])],
    signer: rootKey,
    hash: 'sha256',
  });
}

/** Entry i: every fifth entry is a precertificate, then its final certificate. */
function makeEntries(from: number, to: number): RawCtEntry[] {
  const out: RawCtEntry[] = [];
  for (let i = from; i < to; i++) {
    const ts = Date.UTC(2025, 0, 1) + i * 1000;
    out.push(i % 5 === 0 ? precertEntry(ts, leaf(i, true), [rootDer]) : x509Entry(ts, leaf(i % 5 === 1 ? i - 1 : i), [rootDer]));
  }
  return out;
}

function memoryState(): { map: Map<string, string>; get(k: string): Promise<string | undefined>; set(k: string, v: string): Promise<void> } {
  const map = new Map<string, string>();
  return { map, get: async (k) => map.get(k), set: async (k, v) => void map.set(k, v) };
}

const fast = { backoffMs: 1, timeoutMs: 5000 };

before(async () => {
  const root = generateKeyPairSync('rsa', { modulusLength: 2048 });
  rootKey = root.privateKey;
  const rootSpki = root.publicKey.export({ type: 'spki', format: 'der' });
  leafSpki = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'der' });
  rootDer = buildCertificate({
    serial: Buffer.from([1]),
    issuer: encodeName([['CN', 'Periscope CT Test Root']]),
    subject: encodeName([['CN', 'Periscope CT Test Root']]),
    notBefore: Date.UTC(2024, 0, 1),
    notAfter: Date.UTC(2034, 0, 1),
    spki: rootSpki,
    extensions: [basicConstraintsExt(true)],
    signer: rootKey,
    hash: 'sha256',
  });
  server = await startLocalCtLog(makeEntries(0, 23), 4);
});

after(async () => {
  await server.close();
});

test('first sync fetches everything in capped batches; a second sync after growth fetches only the new entries', async () => {
  server.requests.length = 0;
  const state = memoryState();
  const batches: IngestRecord[][] = [];
  const first = await ctSync({ logUrl: server.url, batchSize: 10, state, client: fast, onEntries: async (r) => void batches.push(r) });
  assert.equal(first.error, undefined);
  assert.equal(first.ok, true);
  assert.equal(first.treeSize, 23);
  assert.equal(first.entries, 23);
  assert.equal(first.next, 23);
  assert.equal(state.map.get(ctStateKey(server.url)), '23');
  // The server answers at most 4 per request although 10 were asked: 6 requests of entries.
  assert.deepEqual(batches.map((b) => b.length), [4, 4, 4, 4, 4, 3]);
  const all = batches.flat();
  assert.deepEqual(all.map((r) => (r.kind === 'certificate' ? r.certificate.ct?.index : -1)), [...Array(23).keys()]);
  assert.ok(server.requests.some((r) => r.path === '/log/ct/v1/get-entries?start=4&end=13'));

  // Precert entry 0 and the final certificate of entry 1 are one issuance.
  const [pre, fin] = all;
  assert.ok(pre.kind === 'certificate' && fin.kind === 'certificate');
  const preDoc = parseCertificate(pre.certificate.der);
  const finDoc = parseCertificate(fin.certificate.der);
  assert.ok(preDoc.ok && finDoc.ok);
  assert.equal(preDoc.doc.precert, true);
  assert.equal(preDoc.doc.parsed.extensions.ct_poison, true);
  assert.equal(finDoc.doc.precert, false);
  assert.equal(issuanceKey(preDoc.doc), issuanceKey(finDoc.doc));
  assert.equal(pre.certificate.ct?.log, server.url);
  assert.equal(pre.certificate.ct?.timestamp, '2025-01-01T00:00:00.000Z');
  assert.deepEqual(pre.certificate.chain?.map((c) => Buffer.from(c).toString('hex')), [rootDer.toString('hex')]);

  server.entries.push(...makeEntries(23, 30));
  batches.length = 0;
  const second = await ctSync({ logUrl: server.url, batchSize: 10, state, client: fast, onEntries: async (r) => void batches.push(r) });
  assert.equal(second.ok, true);
  assert.equal(second.from, 23);
  assert.equal(second.entries, 7);
  assert.deepEqual(batches.flat().map((r) => (r.kind === 'certificate' ? r.certificate.ct?.index : -1)), [23, 24, 25, 26, 27, 28, 29]);

  const third = await ctSync({ logUrl: server.url, batchSize: 10, state, client: fast, onEntries: async () => assert.fail('nothing new') });
  assert.equal(third.entries, 0);
});

test('maxEntries limits one run; the next run continues', async () => {
  const state = memoryState();
  const seen: number[] = [];
  const onEntries = async (r: IngestRecord[]): Promise<void> => void seen.push(...r.map((x) => (x.kind === 'certificate' ? x.certificate.ct!.index : -1)));
  const a = await ctSync({ logUrl: server.url, batchSize: 3, maxEntries: 5, state, client: fast, onEntries });
  assert.equal(a.next, 5);
  const b = await ctSync({ logUrl: server.url, batchSize: 3, maxEntries: 5, state, client: fast, onEntries });
  assert.equal(b.from, 5);
  assert.equal(b.next, 10);
  assert.deepEqual(seen, [...Array(10).keys()]);
});

test('a sync aborted mid-way keeps only what was handed over, and the next run resumes without gaps', async () => {
  const state = memoryState();
  const seen: number[] = [];
  const controller = new AbortController();
  // Abort while the third batch is being fetched.
  let calls = 0;
  server.onGetEntries = () => {
    if (++calls === 3) controller.abort();
  };
  const onEntries = async (r: IngestRecord[]): Promise<void> => void seen.push(...r.map((x) => (x.kind === 'certificate' ? x.certificate.ct!.index : -1)));
  const stopped = await ctSync({ logUrl: server.url, batchSize: 4, state, signal: controller.signal, client: fast, onEntries });
  server.onGetEntries = undefined;
  assert.equal(stopped.aborted, true);
  assert.equal(stopped.ok, true);
  assert.equal(stopped.next, 8);
  assert.equal(state.map.get(ctStateKey(server.url)), '8');
  assert.deepEqual(seen, [...Array(8).keys()]);

  const resumed = await ctSync({ logUrl: server.url, batchSize: 4, state, client: fast, onEntries });
  assert.equal(resumed.from, 8);
  assert.deepEqual(seen, [...Array(server.entries.length).keys()]);
});

test('a failing onEntries leaves the position where it was (no entry skipped)', async () => {
  const state = memoryState();
  await state.set(ctStateKey(server.url), '4');
  await assert.rejects(
    ctSync({ logUrl: server.url, batchSize: 4, state, client: fast, onEntries: async () => { throw new Error('store down'); } }),
    /store down/,
  );
  assert.equal(state.map.get(ctStateKey(server.url)), '4');
});

test('500 and 429 answers are retried; too many failures are an error value', async () => {
  const state = memoryState();
  server.requests.length = 0;
  server.failNext(2, 500);
  const retries: string[] = [];
  const r = await ctSync({ logUrl: server.url, batchSize: 50, maxEntries: 4, state, client: { ...fast, onRetry: (i) => void retries.push(i.reason) }, onEntries: async () => {} });
  assert.equal(r.ok, true);
  assert.equal(r.entries, 4);
  assert.deepEqual(server.requests.slice(0, 3).map((x) => x.status), [500, 500, 200]);
  assert.equal(retries.length, 2);
  assert.match(retries[0], /HTTP 500/);

  server.failNext(1, 429);
  const again = await ctSync({ logUrl: server.url, batchSize: 50, maxEntries: 4, state, client: fast, onEntries: async () => {} });
  assert.equal(again.ok, true);
  assert.equal(again.from, 4);

  server.failNext(3, 503);
  const failed = await ctSync({ logUrl: server.url, batchSize: 50, state, client: { ...fast, attempts: 3 }, onEntries: async () => {} });
  assert.equal(failed.ok, false);
  assert.match(failed.error ?? '', /HTTP 503 \(gave up after 3 attempts\)/);
  assert.equal(state.map.get(ctStateKey(server.url)), '8');

  server.failNext(1, 404);
  const notFound = await new CtLogClient(server.url, fast).getSth();
  assert.equal(notFound.ok, false, '4xx other than 429 is not retried');
});

test('entries that do not decode are rejected records at their log index', async () => {
  const broken = await startLocalCtLog([{ leaf_input: 'AAAA', extra_data: '' }, ...makeEntries(0, 1)], 10);
  try {
    const got: IngestRecord[] = [];
    const r = await ctSync({ logUrl: broken.url, batchSize: 10, state: memoryState(), client: fast, onEntries: async (x) => void got.push(...x) });
    assert.equal(r.rejected, 1);
    assert.equal(got[0].kind, 'rejected');
    assert.equal(got[0].position, `${broken.url} entry 0`);
    assert.equal(got[1].kind, 'certificate');
  } finally {
    await broken.close();
  }
});

test('state keys are per normalised log URL', () => {
  assert.equal(ctStateKey('https://ct.example.test/2025h1'), 'ct.https://ct.example.test/2025h1/.next');
  assert.equal(ctStateKey('ct.example.test/2025h1/'), 'ct.https://ct.example.test/2025h1/.next');
});
