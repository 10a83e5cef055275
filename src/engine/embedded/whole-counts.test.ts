/**
 * Whole-corpus aggregations of an index made of parts, answered from counts merged over the
 * parts (whole-counts.ts): the same buckets as one index holding every document, from the table
 * once the same aggregation was asked twice with no write in between, and merged again after
 * any write, removal or replacement in any part.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AggregateRequest, Doc } from '../search-engine.ts';
import { EmbeddedEngine, PartedEngine } from '../index.ts';
import { catalogueFor } from '../../model/field-catalogue.ts';
import { compileQuery } from '../../query/index.ts';
import { realisticHost } from '../../../test/engine/realistic-hosts.ts';
import { MAX_KEYS, tableOf } from './whole-counts.ts';
import type { PartGroups } from './aggregate.ts';

const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
const PART = 60;
const HOSTS = 420;
const FIELDS = ['services.port', 'location.country', 'autonomous_system.asn', 'services.software.product', 'ip', 'no.such.field'];
const KEPT = ['*', 'not name: *'];

function query(text: string) {
  const c = compileQuery(text, catalogues.hosts);
  assert.ok(c.ok, text);
  return c.query;
}

/** A virtual host every seventh document: `not name: *` leaves them out. */
function host(i: number): { id: string; doc: Doc } {
  const { id, doc } = realisticHost(i);
  return i % 7 === 3 ? { id: `${id}+www.example-${i}.com`, doc: { ...doc, name: `www.example-${i}.com` } } : { id, doc };
}

function load(): { parted: PartedEngine; one: EmbeddedEngine } {
  const parted = new PartedEngine(catalogues, { partDocuments: PART });
  const one = new EmbeddedEngine(catalogues);
  for (let i = 0; i < HOSTS; i++) {
    const { id, doc } = host(i);
    parted.upsert('hosts', id, doc);
    one.upsert('hosts', id, doc);
  }
  return { parted, one };
}

/** How many times the parts counted groups (each part's partGroups). */
function countCalls(parted: PartedEngine): { calls: number } {
  const seen = { calls: 0 };
  for (const p of parted.parts) {
    const own = p.partGroups.bind(p);
    p.partGroups = (...args) => {
      seen.calls++;
      return own(...args);
    };
  }
  return seen;
}

function agreeAll(parted: PartedEngine, one: EmbeddedEngine, numBuckets: number[]): void {
  for (const text of KEPT) {
    for (const field of FIELDS) {
      for (const n of numBuckets) {
        const request: AggregateRequest = { query: query(text), field, numBuckets: n };
        assert.deepEqual(parted.aggregate('hosts', request), one.aggregate('hosts', request), `${text} by ${field}, ${n} buckets`);
      }
    }
  }
}

describe('whole-corpus aggregations over parts', () => {
  it('answer as one index does, from the table from the second ask on', () => {
    const { parted, one } = load();
    assert.ok(parted.parts.length >= 7, `parts: ${parted.parts.length}`);
    const seen = countCalls(parted);
    const request: AggregateRequest = { query: query('not name: *'), field: 'location.country', numBuckets: 3 };
    const expected = one.aggregate('hosts', request);
    // First ask: merged as any aggregation. Second: the table is made (every part counts once).
    assert.deepEqual(parted.aggregate('hosts', request), expected);
    assert.deepEqual(parted.aggregate('hosts', request), expected);
    const made = seen.calls;
    assert.ok(made >= 2 * parted.parts.length, `calls: ${made}`);
    // From then on no part counts: any number of buckets comes from the table.
    for (const n of [0, 1, 3, 50, 1000]) {
      assert.deepEqual(parted.aggregate('hosts', { ...request, numBuckets: n }), one.aggregate('hosts', { ...request, numBuckets: n }), `${n} buckets`);
    }
    assert.equal(seen.calls, made);
    agreeAll(parted, one, [1, 5, 50]);
  });

  it('merge again after a write, a replacement or a removal in any part, and agree', () => {
    const { parted, one } = load();
    agreeAll(parted, one, [2, 2, 40]);
    const seen = countCalls(parted);
    const request: AggregateRequest = { query: query('*'), field: 'location.country', numBuckets: 50 };
    parted.aggregate('hosts', request);
    parted.aggregate('hosts', request);
    const before = seen.calls;
    // A new document in the newest part: a country no other host has.
    const added = { id: '203.0.113.9', doc: { ip: '203.0.113.9', location: { country: 'Atlantis' }, services: [{ port: 4 }] } };
    parted.upsert('hosts', added.id, added.doc);
    one.upsert('hosts', added.id, added.doc);
    const after = parted.aggregate('hosts', request);
    assert.ok(seen.calls > before, 'merged again after the write');
    assert.deepEqual(after, one.aggregate('hosts', request));
    assert.ok(after.buckets.some((b) => b.key === 'Atlantis' && b.count === 1));
    agreeAll(parted, one, [3, 3, 50]);
    // A document of the first part replaced, one of a middle part removed.
    const first = host(1);
    const moved = { ...first.doc, location: { country: 'Atlantis' } };
    parted.upsert('hosts', first.id, moved);
    one.upsert('hosts', first.id, moved);
    agreeAll(parted, one, [3, 3, 50]);
    const middle = host(3 * PART + 1);
    parted.remove('hosts', middle.id);
    one.remove('hosts', middle.id);
    agreeAll(parted, one, [3, 3, 50]);
    const atlantis = parted.aggregate('hosts', request).buckets.find((b) => b.key === 'Atlantis');
    assert.equal(atlantis?.count, 2);
  });

  it('answer a query other than the whole corpus by merging it each time', () => {
    const { parted, one } = load();
    const seen = countCalls(parted);
    const request: AggregateRequest = { query: query('services.service_name: HTTP'), field: 'location.country', numBuckets: 5 };
    for (let i = 0; i < 3; i++) assert.deepEqual(parted.aggregate('hosts', request), one.aggregate('hosts', request));
    assert.equal(seen.calls, 3 * parted.parts.length);
  });

  it('keep no part data alive once a part is sealed and reopened', async () => {
    // The stamps of asked aggregations held each part's data: a sealed part's in-memory build stayed alive.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const dir = mkdtempSync(join(tmpdir(), 'periscope-whole-counts-'));
    try {
      const parted = new PartedEngine(catalogues, { dir: join(dir, 'engine'), partDocuments: PART });
      parted.persistence!.open();
      let i = 0;
      for (; i < PART + 5; i++) parted.upsert('hosts', host(i).id, host(i).doc);
      for (const text of KEPT) parted.aggregate('hosts', { query: query(text), field: 'location.country', numBuckets: 5 });
      const built = new WeakRef(parted.parts[1].contentStamp('hosts')[0]);
      // Part 1 fills: it is sealed (saved, then reopened from its segments) as part 2 starts.
      for (; i < 2 * PART + 5; i++) parted.upsert('hosts', host(i).id, host(i).doc);
      assert.equal(parted.parts.length, 3);
      assert.notEqual(parted.parts[1].contentStamp('hosts')[0], built.deref());
      await new Promise((resolve) => setTimeout(resolve, 10));
      gc();
      assert.equal(built.deref(), undefined, 'the replaced data of part 1 is still alive');
      await parted.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('make no table of a field with more than MAX_KEYS keys', () => {
    // A part whose groups with a count are keys `k<from>`.. `k<from + n - 1>`, each counted once.
    let made = 0;
    const part = (from: number, n: number): PartGroups => ({
      total: n,
      counted: n,
      counts: new Float64Array(n).fill(1),
      best: [],
      above: Array.from({ length: n }, (_, g) => g),
      keyOf: (g) => (made++, `k${from + g}`),
      groupOf: () => undefined,
    });
    const table = tableOf([part(0, MAX_KEYS / 2), part(MAX_KEYS / 4, MAX_KEYS / 2)]);
    assert.ok(table);
    assert.equal(table.keys.length, (MAX_KEYS * 3) / 4);
    assert.equal(table.counts[table.keys.indexOf(`k${MAX_KEYS / 4}`)], 2);
    assert.equal(table.counts[table.keys.indexOf('k0')], 1);
    assert.equal(tableOf([part(0, MAX_KEYS / 2), part(MAX_KEYS / 2, MAX_KEYS / 2 + 1)]), undefined);
    // The query thread's pairs count toward the same limit.
    assert.equal(tableOf([part(0, MAX_KEYS / 2)], { total: 1, counted: 1, pairs: [`k${MAX_KEYS}`, 1, ...Array.from({ length: MAX_KEYS / 2 }, (_, i) => [`r${i}`, 1]).flat()] }), undefined);
    // A part with more groups than that is refused before any key string is made.
    made = 0;
    assert.equal(tableOf([part(0, MAX_KEYS + 1)]), undefined);
    assert.equal(made, 0);
  });
});
