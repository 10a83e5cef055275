/**
 * Runs the real nmap (installed by .ci/run: `apt-get install nmap`) against services this test
 * starts on 127.0.0.1 and reads its XML straight from nmap's stdout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { IngestRecord } from '../observation.ts';
import { startLoopbackServices } from '../../../test/fixtures/nmap/start-services.ts';
import { nmapXmlSource } from './index.ts';
import { assertLoopbackHost, opensslSha256 } from '../../../test/fixtures/nmap/loopback-expectations.ts';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

test('live: nmap -sV --script ssl-cert against loopback services, read from its stdout', { timeout: 120_000 }, async () => {
  const services = await startLoopbackServices();
  try {
    const closed = await freePort();
    const ports = [services.http, services.https, services.ssh, services.smtp, closed];
    const nmap = spawn('nmap', ['-n', '-sV', '--version-light', '-T4', '-oX', '-', '-p', ports.join(','), '--script', 'ssl-cert', '127.0.0.1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    nmap.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve, reject) => {
      nmap.on('error', reject);
      nmap.on('close', resolve);
    });
    const records: IngestRecord[] = [];
    for await (const r of nmapXmlSource.read(nmap.stdout, { now: new Date() })) records.push(r);
    assert.equal(await exited, 0, stderr);
    assert.deepEqual(records.map((r) => r.kind), ['host'], JSON.stringify(records));
    const r = records[0];
    if (r.kind !== 'host') return;
    const certPath = new URL('../../../test/fixtures/nmap/server-cert.pem', import.meta.url).pathname;
    assertLoopbackHost(r.host, { ...services, closed }, opensslSha256(certPath));
    assert.equal(r.host.services.length, 5);
    assert.ok(Date.parse(r.host.observedAt) > Date.now() - 10 * 60_000);
  } finally {
    await services.close();
  }
});
