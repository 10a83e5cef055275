/**
 * Writes the persisted-format fixture (test/fixtures/engine/v<N>/): documents and later writes
 * drawn with a fixed seed, loaded into an engine whose segments are kept. Run once per format
 * version (`npx tsx test/engine/make-segment-fixture.ts`); committed fixtures are never rewritten,
 * so segment-fixture.test.ts proves every released format stays readable.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { EmbeddedEngine } from '../../src/engine/index.ts';
import { SEGMENT_FORMAT_VERSION } from '../../src/engine/embedded/segment-codec.ts';
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
load([engine], 'hosts', hosts);
write([engine], 'hosts', hosts, hostWrites);
load([engine], 'certificates', certificates);
write([engine], 'certificates', certificates, certificateWrites);
engine.persistence!.checkpoint();
mkdirSync(out, { recursive: true });
for (const name of readdirSync(dir)) if (name.endsWith('.seg')) cpSync(join(dir, name), join(out, name.replace(/-\d+\.seg$/, '.seg')));
writeFileSync(join(out, 'documents.json'), JSON.stringify({ hosts, hostWrites, certificates, certificateWrites }, null, 1) + '\n');
rmSync(dir, { recursive: true, force: true });
console.log(`wrote ${out}: ${engine.size('hosts')} hosts, ${engine.size('certificates')} certificates`);
