import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EmbeddedEngine } from './embedded-engine.ts';
import { ReferenceEngine } from '../reference/reference-engine.ts';
import { fixtureCatalogues } from '../../../test/engine/fixture-catalogue.ts';
import { and, eq, field, nested } from '../../../test/engine/engine-helpers.ts';

describe('sameElementDocs', () => {
  it('answers `nested` equalities as the reference does, whether one condition implies the others or not, through updates, removals and compaction', () => {
    // Port 8080 is always HTTP and port 22 mostly SSH (the shortcut), 80 anything (mapping elements).
    const service = fc.oneof(
      fc.constant({ port: 8080, service_name: 'HTTP' }),
      fc.constantFrom('SSH', 'SSH', 'SSH', 'HTTP').map((s) => ({ port: 22, service_name: s })),
      fc.constantFrom('HTTP', 'SSH', 'FTP').map((s) => ({ port: 80, service_name: s, transport_protocol: 'TCP' })),
    );
    // Arrays of services, or one service object (a pseudo-element, which `nested` does not see).
    const doc = fc.oneof({ weight: 4, arbitrary: fc.array(service, { maxLength: 4 }) }, service).map((services) => ({ services }));
    const write = fc.tuple(fc.nat(59), fc.option(doc, { freq: 3 }));
    const name = (s: string) => field('services.service_name', eq(s));
    const port = (p: number) => field('services.port', eq(p));
    const query = fc.constantFrom(
      nested(and(name('HTTP'), port(8080))),
      nested(and(port(22), name('ssh'))),
      nested(and(port(22), name('HTTP'))),
      nested(and(port(80), name('HTTP'), field('services.transport_protocol', eq('tcp')))),
      nested(port(8080)),
      nested(name('FTP')),
    );
    fc.assert(
      fc.property(fc.array(doc, { minLength: 20, maxLength: 60 }), fc.array(fc.tuple(fc.array(write, { maxLength: 20 }), query)), (docs, rounds) => {
        const engines = [new ReferenceEngine(fixtureCatalogues), new EmbeddedEngine(fixtureCatalogues, { compaction: { minDead: 10, ratio: 0.2 } })];
        for (const e of engines) docs.forEach((d, i) => e.upsert('hosts', `h${i}`, d));
        for (const [writes, q] of rounds) {
          for (const e of engines) {
            for (const [at, d] of writes) {
              if (d) e.upsert('hosts', `h${at}`, d);
              else e.remove('hosts', `h${at}`);
            }
          }
          const [expected, got] = engines.map((e) => e.search('hosts', { query: q, limit: 100 }));
          assert.deepEqual(got, expected);
        }
      }),
      { numRuns: 60 },
    );
  });
});
