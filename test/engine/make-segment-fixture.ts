/**
 * Writes the persisted-format fixture (test/fixtures/engine/v<N>/): documents and later writes
 * drawn with a fixed seed, loaded into an engine whose segments are kept. Run once per format
 * version (`npx tsx test/engine/make-segment-fixture.ts`); committed fixtures are never rewritten,
 * so segment-fixture.test.ts proves every released format stays readable.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { EmbeddedEngine } from '../../src/engine/index.ts';
import { SEGMENT_FORMAT_VERSION } from '../../src/engine/embedded/segment-codec.ts';
import type { Manifest } from '../../src/engine/embedded/engine-directory.ts';
import { fixtureCatalogues } from './fixture-catalogue.ts';
import { certificateEntries, certificateOps, hostEntries, hostOps } from './arbitraries.ts';
import { load, write } from './compare-engines.ts';

const out = new URL(`../fixtures/engine/v${SEGMENT_FORMAT_VERSION}/`, import.meta.url).pathname;
if (existsSync(out)) throw new Error(`${out} exists: fixtures of a released format are never rewritten`);
const [hosts] = fc.sample(hostEntries.filter((e) => e.length >= 16), { seed: 4, numRuns: 1 });
const [hostWrites] = fc.sample(hostOps.filter((o) => o.length >= 4), { seed: 5, numRuns: 1 });
const [certificates] = fc.sample(certificateEntries.filter((e) => e.length >= 6), { seed: 6, numRuns: 1 });
const [certificateWrites] = fc.sample(certificateOps.filter((o) => o.length >= 2), { seed: 7, numRuns: 1 });

const dir = mkdtempSync(join(tmpdir(), 'periscope-fixture-'));
const engine = new EmbeddedEngine(fixtureCatalogues, { dir });
engine.persistence!.open();
engine.persistence!.mergeEnabled = false;
// From format 4 on, the writes go to a delta segment on top of the full one: the fixture holds
// both (`<index>.seg`, `<index>.delta-1.seg`), and the test applies them in that order.
load([engine], 'hosts', hosts);
load([engine], 'certificates', certificates);
engine.persistence!.checkpoint();
write([engine], 'hosts', hosts, hostWrites);
write([engine], 'certificates', certificates, certificateWrites);
engine.persistence!.checkpoint();
mkdirSync(out, { recursive: true });
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
for (const [index, entry] of Object.entries(manifest.segments)) {
  cpSync(join(dir, entry.file), join(out, `${index}.seg`));
  (entry.deltas ?? []).forEach((d, i) => cpSync(join(dir, d.file), join(out, `${index}.delta-${i + 1}.seg`)));
}
writeFileSync(join(out, 'documents.json'), JSON.stringify({ hosts, hostWrites, certificates, certificateWrites }, null, 1) + '\n');
rmSync(dir, { recursive: true, force: true });
console.log(`wrote ${out}: ${engine.size('hosts')} hosts, ${engine.size('certificates')} certificates`);
