/**
 * `periscope sources` as a user runs it, and the sources line at the start of `periscope ingest`.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULTS } from '../../src/main/config.ts';
import { openRuntime } from '../../src/main/runtime.ts';

const BIN = fileURLToPath(new URL('../../bin/periscope.js', import.meta.url));
const RANGES = fileURLToPath(new URL('../fixtures/enrich/cloud-ranges', import.meta.url));
const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PERISCOPE_')));
const tmp = mkdtempSync(join(tmpdir(), 'periscope-sources-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...clean, ...env }, encoding: 'utf8', timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

test('periscope sources --json lists every source with version and build date', async () => {
  const r = await run(['sources', '--json'], { PERISCOPE_CLOUD_RANGES_DIR: RANGES });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(
    out.sources.map((s: { name: string; provider?: string }) => (s.provider ? `${s.name}:${s.provider}` : s.name)),
    [
      'asn',
      'country',
      'cloud-asn',
      'cloud-ranges:Microsoft Azure',
      'cloud-ranges:Google Cloud',
      'cloud-ranges:Amazon AWS',
      'cloud-ranges:Cloudflare',
      'cloud-ranges:Cloudflare',
      'cloud-ranges:Oracle Cloud',
    ],
  );
  const aws = out.sources.find((s: { format?: string }) => s.format === 'aws');
  assert.equal(aws.built_at, '2026-11-18T21:06:40.000Z');
  assert.equal(aws.built_from, 'createDate');
  assert.equal(aws.version, 'syncToken 1763500000');
  assert.equal(aws.rows, 5);
  for (const s of out.sources) {
    assert.ok(s.built_at && !Number.isNaN(Date.parse(s.built_at)), s.name);
    assert.equal(typeof s.load_ms, 'number');
  }
  assert.deepEqual(out.skipped.map((s: { path: string }) => s.path.replace(/.*\//, '')), ['notes.txt']);
});

test('text output; a missing file is a configuration error (exit 2)', async () => {
  const r = await run(['sources']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^asn +@ip-location-db\/asn \d+\.\d+\.\d{10} +built \d{4}-\d{2}-\d{2} \(package version\)/m);
  assert.match(r.stdout, /^country .*\(mmdb build_epoch\)/m);
  const bad = await run(['sources', '--city-db', join(tmp, 'missing.mmdb')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /city db .*missing\.mmdb does not exist/);
});

test('periscope ingest names the sources once at the start and records them', async () => {
  const input = join(tmp, 'one.jsonl');
  writeFileSync(input, JSON.stringify({ ip: '52.94.77.1', data: { http: { status: 'success', protocol: 'http', timestamp: '2026-01-05T10:00:00Z', result: { response: { status_code: 200 } } } } }) + '\n');
  const dataDir = join(tmp, 'data');
  const r = await run(['ingest', '--data-dir', dataDir, '--cloud-ranges-dir', RANGES, input]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr.match(/enrichment sources:/g)?.length, 1);
  assert.match(r.stderr, /cloud-ranges \(Amazon AWS\) +syncToken 1763500000 +built 2026-11-18 \(createDate\)/);
  const rt = await openRuntime({ ...DEFAULTS, dataDir, logLevel: 'silent' });
  try {
    const recorded = JSON.parse((await rt.store.settings.get('enrich.sources'))!);
    assert.ok(recorded.sources.some((s: { format?: string }) => s.format === 'aws'));
    const host = await rt.store.documents.get('hosts', '52.94.77.1');
    assert.deepEqual(host?.doc.cloud, { provider: 'Amazon AWS', region: 'us-west-2', service: 'EC2' });
    assert.ok((host?.doc.labels as string[]).includes('cloud'));
  } finally {
    await rt.close();
  }
});
