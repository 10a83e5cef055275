import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import roaring from 'roaring';
import { catalogueFor } from '../../model/field-catalogue.ts';
import { compileQuery } from '../../query/index.ts';
import { EmbeddedEngine } from './embedded-engine.ts';
import { PartedEngine } from './parted-engine.ts';
import { RoaringBitmap32 } from './bitmap.ts';
import { realisticHost } from '../../../test/engine/realistic-hosts.ts';

/**
 * A query frees the native memory of the bitmaps it made (bitmap.ts, release): left to the
 * collector, every query's bitmaps counted toward the external memory that makes V8 mark the
 * whole heap, and ten parts of 1.1M hosts answered 60x slower than one (docs/BENCHMARK.md).
 * Roaring counts its native bytes exactly, so this is a count, not a timing.
 */
const SEARCHES = [
  'services.service_name: HTTP',
  'services.service_name: HTTP and location.country: Germany',
  'services.service_name: HTTP and not services.port: 80',
  'not services.port: 22',
  'services: (service_name: HTTP and port: 8080)',
  'services: (service_name: HTTP and not port: 80)',
  'ip: 10.0.0.0/12',
  'services.port: [8000 TO 9000]',
  'services.port: [1 TO 65535]',
  'ip: [10.0.0.0 TO 10.255.255.255]',
  'dns.names: *.example.com',
  'dns.names: acme*',
  'services.banner: "Server: nginx"',
  'services.banner: nginx',
  'services.http.response.body: /.*html.*/',
  'nginx',
  'Server nginx',
  'services.software.product: *',
  'services.service_name: HTTP or services.service_name: SSH',
];
const AGGREGATIONS = [
  ['*', 'services.port'],
  ['*', 'location.country'],
  ['*', 'autonomous_system.asn'],
  ['services.service_name: HTTP', 'services.port'],
  ['services.service_name: HTTP', 'services.software.product'],
  ['location.country: Germany', 'location.country'],
] as const;

/**
 * Less than a bitmap of 250 ids holds (an array container of 2 bytes per id); what the released
 * ones leave is the allocator's rounding, a few bytes each. The matches of the queries below
 * hold hundreds to thousands of the 6,000 documents.
 */
const SMALL = 512;

/** Bytes roaring counts for each bitmap object itself, empty or released (its wrapper). */
function wrapperBytes(): number {
  const before = roaring.getRoaringUsedMemory();
  const kept = Array.from({ length: 100 }, () => new RoaringBitmap32());
  const bytes = (roaring.getRoaringUsedMemory() - before) / kept.length;
  for (const b of kept) b.clear();
  return bytes;
}

function check(engine: EmbeddedEngine | PartedEngine): void {
  const catalogue = catalogueFor('hosts');
  const compile = (text: string) => {
    const r = compileQuery(text, catalogue);
    assert.ok(r.ok, text);
    return r.query;
  };
  const calls: [string, () => unknown][] = [
    ...SEARCHES.map((text): [string, () => unknown] => {
      const query = compile(text);
      return [text, () => engine.search('hosts', { query, limit: 100 })];
    }),
    ...SEARCHES.slice(0, 3).map((text): [string, () => unknown] => {
      const query = compile(text);
      return [`${text} (sorted)`, () => engine.search('hosts', { query, limit: 100, sort: [{ field: 'ip', descending: true }] })];
    }),
    ...AGGREGATIONS.map(([text, field]): [string, () => unknown] => {
      const query = compile(text);
      return [`${field} over ${text}`, () => engine.aggregate('hosts', { query, field, numBuckets: 50 })];
    }),
  ];
  // First calls build what queries derive and keep (views, token indexes, kept counts).
  for (const [, call] of calls) call();
  for (const [, call] of calls) call();
  // What a call leaves beyond the wrappers of the bitmaps it made is the contents of bitmaps it
  // did not release. (A collection during the call frees wrappers and their counts together.)
  wrapperBytes();
  const wrapper = wrapperBytes();
  for (const [name, call] of calls) {
    const bytes = roaring.getRoaringUsedMemory();
    const wrappers = RoaringBitmap32.getInstancesCount();
    call();
    const left = roaring.getRoaringUsedMemory() - bytes - wrapper * (RoaringBitmap32.getInstancesCount() - wrappers);
    assert.ok(left < SMALL, `${name} left ${Math.round(left)} bytes of bitmaps to the collector`);
  }
}

describe('native memory of queries', () => {
  const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
  const load = (engine: EmbeddedEngine | PartedEngine) => {
    for (let i = 0; i < 6000; i++) {
      const { id, doc } = realisticHost(i);
      engine.upsert('hosts', id, doc);
    }
    // Tombstones, so that the live documents are not one run of ids.
    for (let i = 0; i < 6000; i += 7) engine.remove('hosts', realisticHost(i).id);
  };

  it('a search or aggregation of the embedded engine frees every bitmap it made', () => {
    const engine = new EmbeddedEngine(catalogues);
    load(engine);
    check(engine);
  });

  it('so do those of an engine in parts', () => {
    const engine = new PartedEngine(catalogues, { partDocuments: 2500 });
    load(engine);
    assert.equal(engine.parts.length, 3);
    check(engine);
  });
});
