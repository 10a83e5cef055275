/**
 * The persisted format stays readable: every committed fixture (test/fixtures/engine/v<N>/,
 * written once by make-segment-fixture.ts when format N was released) is opened by the current
 * code and must answer exactly like the reference evaluator over the same documents. Changing
 * the layout without bumping SEGMENT_FORMAT_VERSION, or dropping an old version's decoder,
 * fails here.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { EmbeddedEngine, ReferenceEngine } from '../../src/engine/index.ts';
import { SEGMENT_FORMAT_VERSION, SEGMENT_MAGIC } from '../../src/engine/embedded/segment-codec.ts';
import { writeSegmentFile } from '../../src/engine/embedded/engine-directory.ts';
import type { IndexData } from '../../src/engine/embedded/index-data.ts';
import type { IndexName } from '../../src/model/field-def.ts';
import { fixtureCatalogues } from './fixture-catalogue.ts';
import type { Entry, Op } from './arbitraries.ts';
import { caseArb, compare, load, write } from './compare-engines.ts';
import { and, eq, field, fulltext, nested, not } from './engine-helpers.ts';

const root = new URL('../fixtures/engine/', import.meta.url).pathname;
const versions = readdirSync(root).filter((n) => /^v\d+$/.test(n)).sort();

interface FixtureDocs {
  hosts: Entry[];
  hostWrites: Op[];
  certificates: Entry[];
  certificateWrites: Op[];
}

describe('segment format fixtures', () => {
  it('there is a fixture for the current format version', () => {
    assert.ok(versions.includes(`v${SEGMENT_FORMAT_VERSION}`), `run npx tsx test/engine/make-segment-fixture.ts for format ${SEGMENT_FORMAT_VERSION}`);
  });

  for (const v of versions) {
    it(`${v}: opens and answers like the reference`, () => {
      const dir = join(root, v);
      const docs = JSON.parse(readFileSync(join(dir, 'documents.json'), 'utf8')) as FixtureDocs;
      const ref = new ReferenceEngine(fixtureCatalogues);
      load([ref], 'hosts', docs.hosts);
      write([ref], 'hosts', docs.hosts, docs.hostWrites);
      load([ref], 'certificates', docs.certificates);
      write([ref], 'certificates', docs.certificates, docs.certificateWrites);

      const engine = new EmbeddedEngine(fixtureCatalogues);
      for (const index of ['hosts', 'certificates'] as const) {
        const file = join(dir, `${index}.seg`);
        const head = readFileSync(file).subarray(0, 12);
        assert.equal(head.toString('latin1', 0, 8), SEGMENT_MAGIC);
        assert.equal(`v${head.readUInt32LE(8)}`, v, 'a fixture holds the version it is named after');
        // Format 4+: the writes are in delta segments applied on top of the full one.
        const deltas = readdirSync(dir)
          .filter((n) => n.startsWith(`${index}.delta-`))
          .sort((a, b) => Number(/(\d+)\.seg$/.exec(a)![1]) - Number(/(\d+)\.seg$/.exec(b)![1]))
          .map((n) => join(dir, n));
        if (Number(v.slice(1)) >= 4) assert.ok(deltas.length > 0 || index === 'certificates', `${v}: the fixture holds a delta`);
        engine.openSegmentFile(index, file, deltas);
        assert.equal(engine.size(index), ref.size(index));
      }
      assert.ok(engine.size('hosts') > 10);

      const named = [
        field('services.service_name', eq('ssh')),
        and(field('location.country', eq('Germany')), not(field('services.port', eq(80)))),
        nested(and(field('services.service_name', eq('HTTP')), field('services.port', eq(8080)))),
        fulltext('apache'),
        fulltext('nginx ok', undefined, true),
      ];
      for (const query of named) {
        for (const index of ['hosts'] as IndexName[]) {
          const req = { query, limit: 5 };
          assert.deepStrictEqual(engine.search(index, req), ref.search(index, req));
        }
      }
      for (const index of ['hosts', 'certificates'] as const) {
        for (const c of fc.sample(caseArb(fixtureCatalogues[index]), { seed: 11, numRuns: 40 })) compare(ref, engine, index, c);
      }
      // Still writable after loading an old format.
      write([ref, engine], 'hosts', docs.hosts, docs.hostWrites);
      for (const c of fc.sample(caseArb(fixtureCatalogues.hosts), { seed: 12, numRuns: 20 })) compare(ref, engine, 'hosts', c);

      // Written again in the current format (slots never decoded are decoded and re-encoded
      // unless their layout is current), the index opens and answers the same.
      const out = mkdtempSync(join(tmpdir(), 'periscope-fixture-rewrite-'));
      try {
        const rewritten = new EmbeddedEngine(fixtureCatalogues);
        for (const index of ['hosts', 'certificates'] as const) {
          const data = (engine as unknown as { data: Record<IndexName, IndexData> }).data[index];
          writeSegmentFile(out, `${index}.seg`, (w) => data.write(w));
          rewritten.openSegmentFile(index, join(out, `${index}.seg`));
          assert.equal(rewritten.size(index), ref.size(index));
          for (const c of fc.sample(caseArb(fixtureCatalogues[index]), { seed: 13, numRuns: 20 })) compare(ref, rewritten, index, c);
        }
        void rewritten.close();
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
  }
});
