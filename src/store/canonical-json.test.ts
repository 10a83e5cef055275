import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalJson, contentHash } from './canonical-json.ts';

function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => shuffleKeys(v, seed + i));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  const rotated = keys.slice(seed % Math.max(1, keys.length)).concat(keys.slice(0, seed % Math.max(1, keys.length))).reverse();
  const out: Record<string, unknown> = {};
  for (const k of rotated) out[k] = shuffleKeys((value as Record<string, unknown>)[k], seed + 1);
  return out;
}

describe('canonicalJson', () => {
  it('sorts keys recursively and keeps array order', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } }), '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
  });

  it('follows JSON.stringify for undefined, dates and top-level scalars', () => {
    assert.equal(canonicalJson({ a: undefined, b: [undefined], d: new Date(0) }), '{"b":[null],"d":"1970-01-01T00:00:00.000Z"}');
    assert.equal(canonicalJson('x'), '"x"');
    assert.equal(canonicalJson(undefined), 'null');
  });

  it('is blind to key order and parses back to an equal value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, seed) => {
        const text = canonicalJson(value);
        assert.equal(canonicalJson(shuffleKeys(value, seed)), text);
        assert.equal(contentHash(shuffleKeys(value, seed)), contentHash(value));
        assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('keeps a __proto__ key as data', () => {
    const doc = JSON.parse('{"headers":{"__proto__":{"x":1},"a":2}}') as unknown;
    assert.equal(canonicalJson(doc), '{"headers":{"__proto__":{"x":1},"a":2}}');
    assert.notEqual(contentHash(doc), contentHash({ headers: { a: 2 } }));
  });

  it('hashes different content differently', () => {
    assert.notEqual(contentHash({ a: 1 }), contentHash({ a: '1' }));
    assert.match(contentHash({}), /^[0-9a-f]{64}$/);
  });
});
