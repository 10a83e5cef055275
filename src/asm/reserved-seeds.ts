/**
 * Values that name no one's internet presence: private, loopback, link-local, shared, benchmark,
 * documentation and multicast address space (the IANA special-purpose registries, RFC 6890 and
 * successors), special-use domain names (RFC 2606, 6761, 6762, 7686, 8375, 9476) and private,
 * documentation and reserved AS numbers (RFC 5398, 6996, 7300, 6793). Adding one is almost always
 * a mistake, so it is skipped unless the caller insists (`force`).
 */
import { cidrRange, ipKey } from '../lib/ip.ts';
import type { SeedType } from '../store/store.ts';

const RESERVED_BLOCKS = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/127',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  '3fff::/20',
  '5f00::/16',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
].map((block) => cidrRange(block)!);

const RESERVED_DOMAINS = [
  'localhost',
  'localdomain',
  'local',
  'example',
  'test',
  'invalid',
  'internal',
  'onion',
  'alt',
  'home.arpa',
  'example.com',
  'example.net',
  'example.org',
];

const RESERVED_ASNS: readonly (readonly [number, number])[] = [
  [0, 0],
  [23456, 23456],
  [64496, 131071],
  [4_200_000_000, 4_294_967_295],
];

function withinReserved(range: { lo: string; hi: string }): boolean {
  return RESERVED_BLOCKS.some((r) => range.lo >= r.lo && range.hi <= r.hi);
}

/** `value` is in the normal form of seed-value.ts. A block is reserved when it lies wholly in reserved space. */
export function isReservedSeed(type: SeedType, value: string): boolean {
  switch (type) {
    case 'IP_ADDRESS': {
      const key = ipKey(value);
      return key !== undefined && withinReserved({ lo: key, hi: key });
    }
    case 'CIDR': {
      const range = cidrRange(value);
      return range !== undefined && withinReserved(range);
    }
    case 'DOMAIN_NAME':
      return RESERVED_DOMAINS.some((d) => value === d || value.endsWith(`.${d}`));
    case 'ASN': {
      const n = Number(value);
      return RESERVED_ASNS.some(([lo, hi]) => n >= lo && n <= hi);
    }
  }
}
