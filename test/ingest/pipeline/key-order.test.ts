/**
 * Objects built in canonical key order (ingest/pipeline/key-order.ts): the order changes nothing
 * stored (canonical JSON is the same text); the parts merging builds in that order need no sorting
 * when the store writes them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { canonicalJson } from '../../../src/store/canonical-json.ts';
import { sortedDeep, sortedShallow } from '../../../src/ingest/pipeline/key-order.ts';
import { mergeObservation, sha256Hex, type MergeContext } from '../../../src/ingest/pipeline/index.ts';
import { mapZgrab2Line } from '../../../src/ingest/zgrab2/zgrab2-source.ts';
import { parseCertificate } from '../../../src/ingest/x509/index.ts';
import { sharedEnricher } from '../../../src/ingest/enrich/index.ts';
import { demoStream, type DemoCertificate } from '../../../src/ingest/demo/index.ts';
import { zgrab2Line } from '../../../bench/zgrab2-corpus.ts';
import type { HostObservation } from '../../../src/ingest/observation.ts';

const NOW = new Date('2026-01-01T00:00:00Z');

const ctx: MergeContext = {
  enrich: (ip) => sharedEnricher().enrich(ip),
  serviceExpiryMs: 7 * 86_400_000,
  certificateFingerprint: sha256Hex,
  certificate: (der) => {
    const r = parseCertificate(der, { now: NOW });
    return r.ok ? r.doc : undefined;
  },
};

/** Whether every plain object's keys are ascending (none index-like), as canonicalJson writes them. */
function inCanonicalOrder(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (Array.isArray(v)) return v.every(inCanonicalOrder);
  const keys = Object.keys(v);
  return keys.every((k, i) => !/^\d/.test(k) && (i === 0 || keys[i - 1]! < k)) && keys.every((k) => inCanonicalOrder((v as Record<string, unknown>)[k]));
}

test('sortedDeep and sortedShallow keep the canonical text and put keys in order', () => {
  const values: unknown[] = [
    { b: 1, a: { d: [3, { z: 1, y: null }], c: 'x' }, e: [] },
    { a: 1, b: { c: 2, d: 3 } },
    { 10: 'ten', 2: 'two', b: true, a: [{ y: 1, x: 2 }] },
    { z: undefined, y: -0, x: Number.NaN, w: [undefined, 1] },
    JSON.parse('{"__proto__": {"b": 1, "a": 2}, "c": 3, "a": 4}'),
    [{ b: 1, a: 2 }, 'text', 5, null],
    { 'é': 1, 'e': 2, 'E': 3, '': 4, 'ab': 5, 'a': 6 },
  ];
  for (const v of values) {
    const text = canonicalJson(v);
    const deep = sortedDeep(v);
    assert.equal(canonicalJson(deep), text);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) assert.equal(canonicalJson(sortedShallow(v as Record<string, unknown>)), text);
  }
  // Without index-like keys and special values, the sorted copy's plain JSON text is the canonical text.
  const plain = { b: 1, a: { d: [3, { z: 1, y: null }], c: 'x"\n' }, e: [] };
  assert.equal(JSON.stringify(sortedDeep(plain)), canonicalJson(plain));
  // Objects already in order are returned as they are.
  const ordered = { a: 1, b: { c: [{ d: 1, e: 2 }] } };
  assert.equal(sortedDeep(ordered), ordered);
  assert.equal(sortedShallow(ordered), ordered);
  // Only what was out of order is copied.
  const mixed = { a: { y: 1, x: 2 }, b: { c: 1 } };
  const sorted = sortedDeep(mixed);
  assert.notEqual(sorted, mixed);
  assert.equal(sorted.b, mixed.b);
  assert.deepEqual(Object.keys(sorted.a), ['x', 'y']);
});

function hostObservations(line: string, position: string): HostObservation[] {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // The fixture has a broken line on purpose.
    return [];
  }
  return mapZgrab2Line(value, position, NOW).flatMap((r) => (r.kind === 'host' ? [r.host] : []));
}

test('merging builds hosts, HTTP, SSH, TLS certificate data, software and AS objects in canonical key order; the stored text is unchanged', () => {
  const lines = readFileSync(new URL('../../fixtures/zgrab2/scan.jsonl', import.meta.url), 'utf8').split('\n').filter((l) => l.trim() !== '');
  // Demo hosts as zgrab2 lines (the benchmark's corpus): HTTP, TLS chains, SSH, other modules, failures.
  const demo = demoStream({ hosts: 300, certificates: 100, seed: 7 });
  const certs = new Map<string, DemoCertificate>(demo.certificates.map((c) => [c.doc.fingerprint_sha256 as string, c]));
  let n = 0;
  for (const host of demo.hosts) {
    const last = host.versions[host.versions.length - 1];
    if (host.id.includes('+') || !last) continue;
    const line = zgrab2Line(last.doc as Record<string, unknown>, n++, 0, certs);
    if (line !== undefined) lines.push(line);
  }
  assert.ok(lines.length > 200);
  const seen = { tls: 0, software: 0, as: 0, http: 0, ssh: 0 };
  for (const [i, line] of lines.entries()) {
    for (const obs of hostObservations(line, `line ${i + 1}`)) {
      const doc = mergeObservation(undefined, obs, ctx);
      // What is stored is the canonical text, whatever order the keys were built in.
      assert.equal(canonicalJson(JSON.parse(JSON.stringify(doc))), canonicalJson(doc));
      if (doc.autonomous_system) {
        assert.ok(inCanonicalOrder(doc.autonomous_system), JSON.stringify(doc.autonomous_system));
        seen.as++;
      }
      if (doc.operating_system) assert.ok(inCanonicalOrder(doc.operating_system));
      // A new host's own keys too (its services are not: their keys are added as merging goes).
      const keys = Object.keys(doc);
      assert.deepEqual(keys, [...keys].sort(), `line ${i + 1}`);
      for (const s of doc.services as Record<string, unknown>[]) {
        for (const protocol of ['http', 'ssh'] as const) {
          if (!s[protocol]) continue;
          assert.ok(inCanonicalOrder(s[protocol]), `line ${i + 1}: ${JSON.stringify(s[protocol]).slice(0, 300)}`);
          seen[protocol]++;
        }
        if (s.tls) {
          assert.ok(inCanonicalOrder(s.tls), `line ${i + 1}: ${JSON.stringify(s.tls).slice(0, 300)}`);
          seen.tls++;
        }
        if (s.software) {
          assert.ok(inCanonicalOrder(s.software), JSON.stringify(s.software));
          seen.software++;
        }
      }
    }
  }
  assert.ok(seen.tls > 20 && seen.software > 50 && seen.as > 100 && seen.http > 50 && seen.ssh > 20, JSON.stringify(seen));
});
