/**
 * Cloud enrichment written into host documents by the ingest merge.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Enricher, type Enrichment } from '../../src/ingest/enrich/index.ts';
import { mergeObservation, sha256Hex, type MergeContext } from '../../src/ingest/pipeline/index.ts';
import type { HostObservation } from '../../src/ingest/observation.ts';

const RANGES = fileURLToPath(new URL('../fixtures/enrich/cloud-ranges/', import.meta.url));
const enricher = Enricher.fromFiles({ cloudRangesDir: RANGES });

function ctxWith(enrich: (ip: string) => Enrichment | undefined): MergeContext {
  return { enrich, serviceExpiryMs: 7 * 86_400_000, certificateFingerprint: sha256Hex };
}

function obs(ip: string, at: string, extra: Partial<HostObservation> = {}): HostObservation {
  return { ip, observedAt: at, source: 'masscan', services: [{ port: 443, transport: 'TCP', state: 'open' }], ...extra };
}

test('a host in a published cloud range gets the cloud object and label', () => {
  const doc = mergeObservation(undefined, obs('52.94.77.1', '2026-11-01T00:00:00Z', { labels: ['remote-access'] }), ctxWith((ip) => enricher.enrich(ip)));
  assert.deepEqual(doc.cloud, { provider: 'Amazon AWS', region: 'us-west-2', service: 'EC2' });
  assert.deepEqual(doc.labels, ['cloud', 'remote-access']);
  assert.equal((doc.autonomous_system as { asn: number }).asn, 16509);
  // Merging the same observation again changes nothing.
  assert.equal(mergeObservation(doc, obs('52.94.77.1', '2026-11-01T00:00:00Z', { labels: ['remote-access'] }), ctxWith((ip) => enricher.enrich(ip))), doc);
});

test('a cloud AS without range files gives the provider only; other hosts get no cloud', () => {
  const bundled = Enricher.fromFiles({});
  const doc = mergeObservation(undefined, obs('8.8.8.8', '2026-11-01T00:00:00Z'), ctxWith((ip) => bundled.enrich(ip)));
  assert.deepEqual(doc.cloud, { provider: 'Google Cloud' });
  assert.deepEqual(doc.labels, ['cloud']);
  const home = mergeObservation(undefined, obs('192.0.2.1', '2026-11-01T00:00:00Z'), ctxWith((ip) => bundled.enrich(ip)));
  assert.equal(home.cloud, undefined);
  assert.equal(home.labels, undefined);
});

test('the cloud object and label go when enrichment no longer says cloud; scanner labels stay', () => {
  const cloudy = mergeObservation(undefined, obs('192.0.2.7', '2026-11-01T00:00:00Z', { labels: ['login-page'] }), ctxWith(() => ({ cloud: { provider: 'Hetzner' } })));
  assert.deepEqual(cloudy.labels, ['cloud', 'login-page']);
  const later = mergeObservation(cloudy, obs('192.0.2.7', '2026-11-02T00:00:00Z'), ctxWith(() => ({})));
  assert.equal(later.cloud, undefined);
  assert.deepEqual(later.labels, ['login-page']);
});

test('virtual hosts carry no cloud', () => {
  const doc = mergeObservation(undefined, { ...obs('52.94.77.1', '2026-11-01T00:00:00Z'), name: 'www.example.com' }, ctxWith((ip) => enricher.enrich(ip)));
  assert.equal(doc.cloud, undefined);
  assert.equal(doc.labels, undefined);
});
