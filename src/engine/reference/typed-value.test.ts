import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ipFromKey, ipKey } from '../../lib/ip.ts';
import { fastIpKey, fastIpText, keyString, queryValue, rangeBound, typedValue } from './typed-value.ts';

describe('typed values', () => {
  it('fastIpKey agrees with ipKey on dotted quads and anything else', () => {
    const octet = fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), fc.constantFrom('00', '010', '1e1', ' 1', '-1', ''));
    const quad = fc.tuple(octet, octet, octet, octet).map((o) => o.join('.'));
    fc.assert(
      fc.property(fc.oneof(quad, fc.ipV4(), fc.ipV6(), fc.string()), (text) => {
        assert.equal(fastIpKey(text), ipKey(text));
      }),
      { numRuns: 2000 },
    );
    assert.equal(fastIpKey('10.0.0.1'), ipKey('::ffff:10.0.0.1'));
  });

  it('fastIpText agrees with ipFromKey', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6(), fc.ipV4().map((ip) => `::ffff:${ip}`)), (text) => {
        const key = ipKey(text)!;
        assert.equal(fastIpText(key), ipFromKey(key));
      }),
      { numRuns: 1000 },
    );
  });

  it('types leaves strictly and prints keys', () => {
    assert.equal(typedValue('int', '80'), undefined);
    assert.equal(typedValue('keyword', 80), undefined);
    assert.equal(typedValue('date', '2024-01-01T01:00:00+01:00'), Date.parse('2024-01-01T00:00:00Z'));
    assert.equal(keyString('date', Date.parse('2024-01-01T01:00:00+01:00')), '2024-01-01T00:00:00.000Z');
    assert.equal(keyString('ip', typedValue('ip', '2001:DB8:0::1')!), '2001:db8::1');
    assert.equal(queryValue('bool', 'TRUE'), true);
    assert.equal(queryValue('int', ''), undefined);
    assert.equal(rangeBound('bool', 1), null);
    assert.equal(rangeBound('keyword', 5), '5');
  });
});
