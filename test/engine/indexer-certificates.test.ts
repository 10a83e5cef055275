/** A certificate arriving after the hosts presenting it is indexed into every one of them, however many. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '../../src/main/config.ts';
import { openRuntime } from '../../src/main/runtime.ts';
import { compileQuery } from '../../src/query/index.ts';

test('hosts presenting a late certificate are all re-indexed (more than one page of 1,000)', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-late-cert-'));
  const rt = await openRuntime({ ...DEFAULTS, dataDir: dir, logLevel: 'silent' });
  try {
    const fp = 'ab'.repeat(32);
    const observedAt = '2026-01-01T00:00:00.000Z';
    const hosts = Array.from({ length: 1300 }, (_, i) => {
      const ip = `10.1.${i >> 8}.${i & 255}`;
      return { id: ip, observedAt, doc: { ip, services: [{ port: 443, service_name: 'HTTP', certificate: fp }] } };
    });
    await rt.indexer.put('hosts', hosts);
    await rt.indexer.put('certificates', [{ id: fp, observedAt, doc: { fingerprint_sha256: fp, parsed: { issuer_dn: 'CN=Late CA' } } }]);
    const q = compileQuery('services.tls.certificate.parsed.issuer_dn: "CN=Late CA"', rt.ctx.catalogues.hosts);
    assert.ok(q.ok);
    assert.equal(rt.engine.search('hosts', { query: q.query, limit: 1 }).total, 1300);
  } finally {
    await rt.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
