import { test } from 'node:test';
import assert from 'node:assert/strict';
import ipaddr from 'ipaddr.js';
import { parseIp } from '../../../src/lib/ip.ts';
import { publicAddress } from '../../../src/ingest/enrich/public-address.ts';

/** The definition the dotted-quad short cut must agree with: parse, unmap, range. */
function reference(ip: string): string | undefined {
  let addr = parseIp(ip);
  if (!addr) return undefined;
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() === 'unicast' ? addr.toString() : undefined;
}

test('publicAddress: the dotted-quad short cut agrees with parsing every address', () => {
  const cases = [
    '1.2.3.4', '8.8.8.8', '010.1.1.1', '1.2.3.04', '256.1.1.1', '1.2.3', '1.2.3.4.5', ' 1.2.3.4', '1..2.3', 'a.b.c.d',
    '0.0.0.0', '255.255.255.255', '10.0.0.1', '172.16.5.4', '192.168.1.1', '127.0.0.1', '169.254.1.1', '100.64.0.1',
    '192.0.2.1', '198.51.100.7', '203.0.113.9', '224.0.0.1', '240.0.0.1', '::ffff:1.2.3.4', '2001:db8::1', '2a00:1450::1',
    '1.2.3.', '.1.2.3', '1.2.3.4.', '00.1.2.3', '1.2.3.255', '1.2.3.1000', '', '.', '...', '1.2.3.-4', '1.2.3.4 ', '１.2.3.4',
  ];
  // Each special range's edges, and the addresses just outside them.
  const text = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
  for (const ranges of Object.values((ipaddr.IPv4.prototype as unknown as { SpecialRanges: Record<string, [ipaddr.IPv4, number][]> }).SpecialRanges)) {
    for (const [addr, bits] of ranges) {
      const first = addr.octets.reduce((n, o) => n * 256 + o, 0);
      const last = first + 2 ** (32 - bits) - 1;
      for (const n of [first - 1, first, first + 1, last - 1, last, last + 1]) if (n >= 0 && n <= 0xffffffff) cases.push(text(n));
    }
  }
  // A deterministic spread over the whole IPv4 space.
  let x = 12345;
  for (let i = 0; i < 20000; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    cases.push([x >>> 24, (x >>> 16) & 255, (x >>> 8) & 255, x & 255].join('.'));
  }
  for (const ip of cases) assert.equal(publicAddress(ip), reference(ip), ip);
});
