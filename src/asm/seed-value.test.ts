import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkSeedValue, cidrSizeBits } from './seed-value.ts';
import { isReservedSeed } from './reserved-seeds.ts';
import type { SeedType } from '../store/store.ts';

function value(type: SeedType, raw: unknown): string | undefined {
  const r = checkSeedValue(type, raw);
  return r.ok ? r.value : undefined;
}

describe('seed values', () => {
  it('normalises valid values', () => {
    const cases: [SeedType, unknown, string][] = [
      ['IP_ADDRESS', ' 1.2.3.4 ', '1.2.3.4'],
      ['IP_ADDRESS', '0.0.0.0', '0.0.0.0'],
      ['IP_ADDRESS', '2001:DB8:0:0::1', '2001:db8::1'],
      ['IP_ADDRESS', '::ffff:1.2.3.4', '1.2.3.4'],
      ['CIDR', '1.2.3.4/24', '1.2.3.0/24'],
      ['CIDR', '1.2.3.4/32', '1.2.3.4/32'],
      ['CIDR', '0.0.0.0/0', '0.0.0.0/0'],
      ['CIDR', '2001:db8::1/64', '2001:db8::/64'],
      ['DOMAIN_NAME', 'WWW.Censys.IO.', 'www.censys.io'],
      ['DOMAIN_NAME', 'münchen.de', 'xn--mnchen-3ya.de'],
      ['DOMAIN_NAME', 'a-b.c0.io', 'a-b.c0.io'],
      ['DOMAIN_NAME', 'localhost', 'localhost'],
      ['ASN', 13335, '13335'],
      ['ASN', ' 4294967295 ', '4294967295'],
      ['ASN', '007', '7'],
    ];
    for (const [type, raw, want] of cases) assert.equal(value(type, raw), want, `${type} ${JSON.stringify(raw)}`);
  });

  it('rejects invalid values with a reason', () => {
    const cases: [SeedType, unknown][] = [
      ['IP_ADDRESS', '256.1.1.1'],
      ['IP_ADDRESS', '1.2.3'],
      ['IP_ADDRESS', '1.2.3.04'],
      ['IP_ADDRESS', '0x1.2.3.4'],
      ['IP_ADDRESS', 'fe80::1%eth0'],
      ['IP_ADDRESS', '1.2.3.4/32'],
      ['IP_ADDRESS', 1234],
      ['IP_ADDRESS', ''],
      ['IP_ADDRESS', null],
      ['CIDR', '1.2.3.0/'],
      ['CIDR', '/24'],
      ['CIDR', '1.2.3.0/-1'],
      ['CIDR', '1.2.3.0/33'],
      ['CIDR', '::/129'],
      ['CIDR', '1.2.3.0/24/8'],
      ['DOMAIN_NAME', 'com'],
      ['DOMAIN_NAME', 'a..b'],
      ['DOMAIN_NAME', 'a_b.com'],
      ['DOMAIN_NAME', '*.censys.io'],
      ['DOMAIN_NAME', 'bad-.com'],
      ['DOMAIN_NAME', `${'a'.repeat(64)}.com`],
      ['DOMAIN_NAME', `${'a.'.repeat(127)}com`],
      ['DOMAIN_NAME', '10.0.0.1'],
      ['ASN', 0],
      ['ASN', -1],
      ['ASN', 2.5],
      ['ASN', 4294967296],
      ['ASN', 'AS13335'],
      ['ASN', '1e3'],
      ['ASN', true],
    ];
    for (const [type, raw] of cases) {
      const r = checkSeedValue(type, raw);
      assert.equal(r.ok, false, `${type} ${JSON.stringify(raw)}`);
      if (!r.ok) assert.ok(r.reason.length > 0);
    }
  });

  it('measures blocks in address bits', () => {
    assert.equal(cidrSizeBits('10.0.0.0/8'), 24);
    assert.equal(cidrSizeBits('1.2.3.4/32'), 0);
    assert.equal(cidrSizeBits('2001:db8::/32'), 96);
  });
});

describe('reserved seeds', () => {
  it('knows special-use addresses, blocks, domains and ASNs', () => {
    const reserved: [SeedType, string][] = [
      ['IP_ADDRESS', '10.255.255.255'],
      ['IP_ADDRESS', '172.31.0.1'],
      ['IP_ADDRESS', '100.64.0.1'],
      ['IP_ADDRESS', '169.254.1.1'],
      ['IP_ADDRESS', '198.18.0.1'],
      ['IP_ADDRESS', '198.51.100.1'],
      ['IP_ADDRESS', '224.0.0.1'],
      ['IP_ADDRESS', '255.255.255.255'],
      ['IP_ADDRESS', '0.0.0.0'],
      ['IP_ADDRESS', '::1'],
      ['IP_ADDRESS', 'fd00::1'],
      ['IP_ADDRESS', 'ff02::1'],
      ['CIDR', '192.168.0.0/16'],
      ['CIDR', '192.168.4.0/24'],
      ['CIDR', '2001:db8:1::/48'],
      ['DOMAIN_NAME', 'example.com'],
      ['DOMAIN_NAME', 'a.b.example.org'],
      ['DOMAIN_NAME', 'router.home.arpa'],
      ['DOMAIN_NAME', 'site.test'],
      ['DOMAIN_NAME', 'x.onion'],
      ['ASN', '23456'],
      ['ASN', '64496'],
      ['ASN', '65534'],
      ['ASN', '65551'],
      ['ASN', '4294967295'],
    ];
    for (const [type, v] of reserved) assert.equal(isReservedSeed(type, v), true, `${type} ${v}`);
  });

  it('leaves public values alone, including blocks that only partly overlap reserved space', () => {
    const open: [SeedType, string][] = [
      ['IP_ADDRESS', '8.8.8.8'],
      ['IP_ADDRESS', '172.32.0.1'],
      ['IP_ADDRESS', '11.0.0.1'],
      ['IP_ADDRESS', '2606:4700::1111'],
      ['CIDR', '192.0.0.0/8'],
      ['CIDR', '172.0.0.0/8'],
      ['DOMAIN_NAME', 'myexample.com'],
      ['DOMAIN_NAME', 'example.co.uk'],
      ['DOMAIN_NAME', 'testing.io'],
      ['ASN', '13335'],
      ['ASN', '131072'],
      ['ASN', '4199999999'],
    ];
    for (const [type, v] of open) assert.equal(isReservedSeed(type, v), false, `${type} ${v}`);
  });
});
