import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalJson, canonicalJsonReference, contentHash } from './canonical-json.ts';

function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => shuffleKeys(v, seed + i));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  const rotated = keys.slice(seed % Math.max(1, keys.length)).concat(keys.slice(0, seed % Math.max(1, keys.length))).reverse();
  const out: Record<string, unknown> = {};
  // Defined rather than assigned: a `__proto__` key must stay a key of the copy.
  for (const k of rotated) {
    Object.defineProperty(out, k, { value: shuffleKeys((value as Record<string, unknown>)[k], seed + 1), enumerable: true, writable: true, configurable: true });
  }
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

  it('writes exactly what the JSON.stringify reference writes, for any value', () => {
    const outcome = (f: () => string): string => {
      try {
        return f();
      } catch (e) {
        return `throws ${(e as Error).constructor.name}`;
      }
    };
    fc.assert(
      fc.property(
        fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withDate: true, withSparseArray: true, withNullPrototype: true, withObjectString: true, withBigInt: true, withTypedArray: true }),
        (value) => {
          assert.equal(outcome(() => canonicalJson(value)), outcome(() => canonicalJsonReference(value)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('honours toJSON with the property name, and falls back to the reference for deep and cyclic values', () => {
    const keyed = { toJSON: (k: string) => `key:${k}` };
    assert.equal(canonicalJson({ b: keyed, a: [keyed] }), '{"a":["key:0"],"b":"key:b"}');
    assert.equal(canonicalJson({ n: Number.NaN, i: -Infinity, z: -0, f: () => 1, s: Symbol('x') }), '{"i":null,"n":null,"z":0}');
    let deep: unknown = { leaf: true };
    for (let i = 0; i < 1000; i++) deep = { d: deep, a: [i] };
    assert.equal(canonicalJson(deep), canonicalJsonReference(deep));
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    // The reference's sorted copies hide the cycle from JSON.stringify: it overflows the stack.
    assert.throws(() => canonicalJson(cyclic), RangeError);
    assert.equal(canonicalJson({ b: 1, 10: 1, a: 1, 2: 1, '': 1, '01': 1 }), '{"2":1,"10":1,"":1,"01":1,"a":1,"b":1}');
  });
});
