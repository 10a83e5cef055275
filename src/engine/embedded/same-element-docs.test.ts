import { describe, it } from 'node:test';
import fc from 'fast-check';
import { and, eq, field, nested, assertAgreesThroughWrites } from '../../../test/engine/engine-helpers.ts';

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
        assertAgreesThroughWrites(docs, rounds, { minDead: 10, limit: 100 });
      }),
      { numRuns: 60 },
    );
  });
});
