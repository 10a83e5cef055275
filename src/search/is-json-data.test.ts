import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalJson } from '../store/canonical-json.ts';
import { demoStream } from '../ingest/demo/index.ts';
import { isJsonData } from './is-json-data.ts';

/** Values canonicalJson writes differently from what they are, mixed into JSON data. */
const awkward = fc.oneof(
  fc.constantFrom<unknown>(-0, NaN, Infinity, -Infinity, undefined, 1n, Symbol('s'), () => 1, new Date(0), new String('s'), new Number(1)),
  fc.constant(Object.create(null) as unknown),
  fc.constant({ toJSON: () => 'replaced' } as unknown),
  fc.constant(new Map([['a', 1]]) as unknown),
  fc.constant(new (class Point {
    x = 1;
  })() as unknown),
  fc.constant(Object.assign(['a'], { extra: 1 }) as unknown),
  // eslint-disable-next-line no-sparse-arrays
  fc.constant([1, , 3] as unknown),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('\u0000', '\uE000', '\uE000\uE0000', '\ud800', '\udc00x', '__proto__'),
);

const mixed = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue(),
    awkward,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constant('__proto__'), fc.constant('toJSON')), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('isJsonData', () => {
  it('accepts only values that read back from canonical JSON as they are', () => {
    fc.assert(
      fc.property(mixed, (value) => {
        if (!isJsonData(value)) return;
        assert.deepStrictEqual(JSON.parse(canonicalJson(value)), value);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts whatever JSON.parse returns (but -0)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assert.ok(isJsonData(JSON.parse(JSON.stringify(value))));
      }),
    );
    assert.ok(isJsonData(JSON.parse('{"__proto__":{"a":[1,"\\u0000",null,true]},"toJSON":"text"}')));
    assert.equal(isJsonData(JSON.parse('-0')), false);
  });

  it('refuses what canonicalJson would change', () => {
    const refused: unknown[] = [undefined, -0, NaN, Infinity, 1n, new Date(0), Object.create(null), { toJSON: () => 1 }, new Map(), [undefined], Object.assign([1], { x: 2 })];
    refused.forEach((v, i) => assert.equal(isJsonData({ a: [{ b: v }] }), false, `value ${i}`));
    // eslint-disable-next-line no-sparse-arrays
    assert.equal(isJsonData([1, , 3]), false);
    let deep: unknown = 1;
    for (let i = 0; i < 300; i++) deep = [deep];
    assert.equal(isJsonData(deep), false);
  });

  it('accepts the demo documents', () => {
    const demo = demoStream({ hosts: 200, certificates: 20, seed: 7 });
    for (const c of demo.certificates) assert.ok(isJsonData(c.doc), String(c.doc.fingerprint_sha256));
    for (const h of demo.hosts) for (const v of h.versions) assert.ok(isJsonData(v.doc), h.id);
  });
});
