/**
 * compareServices (ingest/pipeline/compare-services.ts) compares services key by key without
 * copying them; its answers must be those of comparing the canonical texts without `observed_at`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson } from '../../../src/store/canonical-json.ts';
import { compareServices } from '../../../src/ingest/pipeline/compare-services.ts';

type Json = Record<string, unknown>;

/** The specification: texts of both services without their observation time. */
function reference(before: Json | undefined, after: Json | undefined): { added: number; changed: number; removed: number } {
  const key = (s: Json) => `${String(s.port)}/${String(s.transport_protocol)}`;
  const text = (s: Json) => {
    const { observed_at: _ignored, ...rest } = s;
    return canonicalJson(rest);
  };
  const a = new Map(((before?.services as Json[] | undefined) ?? []).map((s) => [key(s), s]));
  const b = new Map(((after?.services as Json[] | undefined) ?? []).map((s) => [key(s), s]));
  const out = { added: 0, changed: 0, removed: 0 };
  for (const [k, s] of b) {
    const old = a.get(k);
    if (!old) out.added++;
    else if (old !== s && text(old) !== text(s)) out.changed++;
  }
  for (const k of a.keys()) if (!b.has(k)) out.removed++;
  return out;
}

/** A small deterministic generator (no randomness between runs). */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const VALUES: unknown[] = [
  undefined,
  null,
  0,
  -0,
  1,
  Number.NaN,
  'a',
  'b',
  true,
  [],
  [1, undefined],
  [1, null],
  { x: 1 },
  { x: 1, y: undefined },
  { y: undefined, x: 1 },
  { x: 2 },
  () => 1,
  Object.assign(() => 1, { toJSON: () => 'f' }),
  { toJSON: () => 'a' },
  new Date(0),
];
const KEYS = ['banner', 'http', 'labels', 'observed_at', 'service_name', 'tls', 'x'];

function service(r: () => number, port: number): Json {
  const s: Json = { port, transport_protocol: 'TCP' };
  for (const k of KEYS) if (r() < 0.5) s[k] = VALUES[Math.floor(r() * VALUES.length)];
  return s;
}

function variant(r: () => number, s: Json): Json {
  const out: Json = r() < 0.5 ? { ...s } : Object.fromEntries(Object.entries(s).reverse());
  const k = KEYS[Math.floor(r() * KEYS.length)]!;
  const roll = r();
  if (roll < 0.3) out[k] = VALUES[Math.floor(r() * VALUES.length)];
  else if (roll < 0.45) delete out[k];
  else if (roll < 0.6) out.observed_at = `2026-01-0${1 + Math.floor(r() * 9)}T00:00:00.000Z`;
  return out;
}

test('compareServices answers what comparing the texts without observed_at answers', () => {
  const r = rng(42);
  let changed = 0;
  let same = 0;
  for (let i = 0; i < 5000; i++) {
    const before: Json = { services: [service(r, 22), service(r, 80), service(r, 443)] };
    const services = (before.services as Json[]).filter(() => r() < 0.9).map((s) => (r() < 0.8 ? variant(r, s) : r() < 0.5 ? s : service(r, s.port as number)));
    if (r() < 0.2) services.push(service(r, 8080));
    const after: Json = { services };
    const expected = reference(before, after);
    assert.deepEqual(compareServices(before, after), expected, JSON.stringify({ before, after }));
    changed += expected.changed;
    same += services.length - expected.changed - expected.added;
  }
  // Both outcomes were exercised.
  assert.ok(changed > 1000 && same > 1000, `${changed} changed, ${same} same`);
});

test('compareServices: a new observation time alone is no change; objects without a plain prototype compare by text', () => {
  const a = { port: 80, transport_protocol: 'TCP', observed_at: '2026-01-01T00:00:00.000Z', http: { body: 'x' } };
  const b = { ...a, observed_at: '2026-01-02T00:00:00.000Z', http: { body: 'x' } };
  assert.deepEqual(compareServices({ services: [a] }, { services: [b] }), { added: 0, changed: 0, removed: 0 });
  assert.deepEqual(compareServices({ services: [a] }, { services: [{ ...b, http: { body: 'y' } }] }), { added: 0, changed: 1, removed: 0 });
  const bare = Object.assign(Object.create(null) as Json, b);
  assert.deepEqual(compareServices({ services: [a] }, { services: [bare] }), { added: 0, changed: 0, removed: 0 });
  const withToJson = { ...b, toJSON: () => ({ port: 80 }) };
  assert.deepEqual(compareServices({ services: [a] }, { services: [withToJson] }), reference({ services: [a] }, { services: [withToJson] }));
});
