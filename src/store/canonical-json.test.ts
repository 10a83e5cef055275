import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalEqual, canonicalJson, canonicalJsonOfData, canonicalJsonReference, contentHash } from './canonical-json.ts';
import { isJsonData } from '../search/is-json-data.ts';

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

  it('writes what the reference writes for JSON data in any key order (the sorted-copy path)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, seed) => {
        const shuffled = shuffleKeys(value, seed);
        assert.equal(canonicalJson(shuffled), canonicalJsonReference(shuffled));
        assert.equal(canonicalJson(JSON.parse(JSON.stringify(shuffled))), canonicalJsonReference(value));
      }),
      { numRuns: 2000 },
    );
    assert.equal(canonicalJson({ b: [1, -0, { d: 'x', c: null }], a: { z: true, '': 'e' } }), '{"a":{"":"e","z":true},"b":[1,0,{"c":null,"d":"x"}]}');
    // Accessors are read as the values they return (a value that changes between reads is not data).
    const withGetters = { get a() {
      return { y: 1, x: [2] };
    }, b: 1 };
    assert.equal(canonicalJson(withGetters), '{"a":{"x":[2],"y":1},"b":1}');
    assert.equal(canonicalJson({ c: 0, ...withGetters }), '{"a":{"x":[2],"y":1},"b":1,"c":0}');
  });

  it('says a value is JSON data only when isJsonData would, with the same text', () => {
    fc.assert(
      fc.property(fc.anything({ withBoxedValues: true, withDate: true, withSparseArray: true, withNullPrototype: true }), (value) => {
        const { text, data } = canonicalJsonOfData(value);
        assert.equal(text, canonicalJson(value));
        if (data) assert.ok(isJsonData(value), text);
      }),
      { numRuns: 2000 },
    );
    // What JSON.parse returns is data, -0 and infinities aside (the writer thread's answer for
    // `periscope import` lines); the fast walk declines keys that sort or serialise specially.
    const declined = (v: unknown): boolean =>
      v !== null && typeof v === 'object' && (Array.isArray(v) ? v.some(declined) : Object.keys(v).some((k) => /^\d/.test(k) || k === '__proto__' || k === 'toJSON' || declined((v as Record<string, unknown>)[k])));
    let saidData = 0;
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed: unknown = JSON.parse(JSON.stringify(value));
        const { data } = canonicalJsonOfData(parsed);
        assert.equal(data, !declined(parsed));
        if (data) saidData++;
      }),
      { numRuns: 1000 },
    );
    assert.ok(saidData > 500);
    for (const text of ['{"n":-0}', '[1,-0.0e5]', '{"a":{"b":1e400}}', '{"t":-1e-400}']) {
      const r = canonicalJsonOfData(JSON.parse(text));
      assert.equal(r.data, false, text);
      assert.equal(r.text, canonicalJsonReference(JSON.parse(text)));
    }
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

  describe('canonicalEqual', () => {
    const sameText = (a: unknown, b: unknown): string => {
      try {
        return String(canonicalJson(a) === canonicalJson(b));
      } catch (e) {
        return `throws ${(e as Error).constructor.name}`;
      }
    };
    const equal = (a: unknown, b: unknown): string => {
      try {
        return String(canonicalEqual(a, b));
      } catch (e) {
        return `throws ${(e as Error).constructor.name}`;
      }
    };
    // A small domain, so that independent values are often equal or nearly so.
    const { tiny } = fc.letrec((tie) => ({
      tiny: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, 0, -0, 1, Number.NaN, Infinity, 'a', '', '0', true, false, undefined, () => 1, Symbol.for('s')),
        fc.array(tie('tiny'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', '1', '__proto__', 'toString'), tie('tiny'), { maxKeys: 3 }),
      ),
    }));

    it('answers whether the canonical texts are equal, for small values', () => {
      fc.assert(
        fc.property(tiny, tiny, fc.nat(), (a, b, seed) => {
          assert.equal(equal(a, b), sameText(a, b));
          assert.equal(equal(a, shuffleKeys(a, seed)), sameText(a, shuffleKeys(a, seed)));
        }),
        { numRuns: 5000 },
      );
    });

    it('answers whether the canonical texts are equal, for JSON and for anything', () => {
      fc.assert(
        fc.property(fc.jsonValue(), fc.jsonValue(), fc.nat(), (a, b, seed) => {
          assert.equal(canonicalEqual(a, shuffleKeys(a, seed)), true);
          assert.equal(equal(a, b), sameText(a, b));
        }),
      );
      const anything = fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withDate: true, withSparseArray: true, withNullPrototype: true, withObjectString: true, withBigInt: true, withTypedArray: true });
      // Values canonicalJson cannot write (BigInts, cycles) are outside the contract: an early
      // difference answers false without looking at the rest.
      fc.assert(
        fc.property(anything, anything, (a, b) => {
          const expected = sameText(a, b);
          if (!expected.startsWith('throws')) assert.equal(equal(a, b), expected);
        }),
        { numRuns: 2000 },
      );
    });

    it('treats skipped values, non-finite numbers and -0 as their text does', () => {
      assert.equal(canonicalEqual({ a: 1, b: undefined, c: () => 1 }, { a: 1 }), true);
      assert.equal(canonicalEqual([undefined, () => 1, Number.NaN, -Infinity], [null, null, null, null]), true);
      assert.equal(canonicalEqual(undefined, null), true);
      assert.equal(canonicalEqual({ z: -0 }, { z: 0 }), true);
      assert.equal(canonicalEqual({ a: [1, { b: 'x', c: 'y' }] }, { a: [1, { c: 'y', b: 'x' }] }), true);
      assert.equal(canonicalEqual({ a: 1 }, { a: '1' }), false);
      assert.equal(canonicalEqual({ a: 1 }, { a: 1, b: null }), false);
      assert.equal(canonicalEqual([1], [1, undefined]), false);
      // Text beyond the data (toJSON, boxed values) is compared as text.
      assert.equal(canonicalEqual({ d: new Date(0) }, { d: '1970-01-01T00:00:00.000Z' }), true);
      assert.equal(canonicalEqual(JSON.parse('{"__proto__":{"x":1}}'), {}), false);
    });
  });
});
