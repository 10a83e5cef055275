/**
 * Seed values as clients send them, checked and brought to one form, so that the same network
 * written two ways is one seed: IPv4 dotted quads without leading zeros, IPv6 compressed lower
 * case (an IPv4-mapped address becomes its IPv4), CIDR blocks on their network address, domain
 * names lower case in ASCII (IDNA) without a trailing dot, ASNs as decimal text.
 */
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';
import type { SeedType } from '../store/store.ts';

export const SEED_TYPES: readonly SeedType[] = ['IP_ADDRESS', 'DOMAIN_NAME', 'CIDR', 'ASN'];

export function isSeedType(value: unknown): value is SeedType {
  return typeof value === 'string' && (SEED_TYPES as readonly string[]).includes(value);
}

export type SeedValueCheck = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly reason: string };

const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);
const MAX_ASN = 4_294_967_295;

function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (IPV4.test(text)) return ipaddr.IPv4.parse(text);
  // Zone ids (fe80::1%eth0) name an interface on one machine, not an internet address.
  if (!text.includes(':') || text.includes('%') || !ipaddr.IPv6.isValid(text)) return undefined;
  const v6 = ipaddr.IPv6.parse(text);
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
}

function ipAddress(raw: unknown): SeedValueCheck {
  if (typeof raw !== 'string') return { ok: false, reason: 'an IP address must be a string' };
  const addr = parseAddress(raw.trim());
  return addr ? { ok: true, value: addr.toString() } : { ok: false, reason: 'not a valid IPv4 or IPv6 address' };
}

function cidr(raw: unknown): SeedValueCheck {
  if (typeof raw !== 'string') return { ok: false, reason: 'a CIDR block must be a string' };
  const text = raw.trim();
  const slash = text.indexOf('/');
  const addr = slash > 0 ? parseAddress(text.slice(0, slash)) : undefined;
  const bitsText = text.slice(slash + 1);
  if (!addr || !/^[0-9]{1,3}$/.test(bitsText)) return { ok: false, reason: 'not a CIDR block (address/prefix length)' };
  const bits = Number(bitsText);
  const max = addr.kind() === 'ipv4' ? 32 : 128;
  if (bits > max) return { ok: false, reason: `prefix length must be between 0 and ${max}` };
  const network = addr.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${addr}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${addr}/${bits}`);
  return { ok: true, value: `${network.toString()}/${bits}` };
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function domainName(raw: unknown): SeedValueCheck {
  if (typeof raw !== 'string') return { ok: false, reason: 'a domain name must be a string' };
  let text = raw.trim().toLowerCase();
  if (text.endsWith('.')) text = text.slice(0, -1);
  if (/[^\x21-\x7e]/.test(text)) text = domainToASCII(text);
  if (!text || text.length > 253) return { ok: false, reason: 'not a valid domain name' };
  const labels = text.split('.');
  // One label names no domain, except `localhost`, which people do type (and which is reserved).
  if (labels.length < 2 && text !== 'localhost') return { ok: false, reason: 'a domain name needs at least two labels (name.tld)' };
  if (!labels.every((l) => LABEL.test(l))) return { ok: false, reason: 'not a valid domain name (letters, digits and inner hyphens only)' };
  if (/^[0-9]+$/.test(labels[labels.length - 1])) return { ok: false, reason: 'an address is not a domain name' };
  return { ok: true, value: text };
}

function asn(raw: unknown): SeedValueCheck {
  let n: number | undefined;
  if (typeof raw === 'number') n = raw;
  else if (typeof raw === 'string' && /^[0-9]{1,10}$/.test(raw.trim())) n = Number(raw.trim());
  if (n === undefined || !Number.isInteger(n) || n < 1 || n > MAX_ASN) {
    return { ok: false, reason: `an ASN must be an integer from 1 to ${MAX_ASN}` };
  }
  return { ok: true, value: String(n) };
}

const CHECKS: Readonly<Record<SeedType, (raw: unknown) => SeedValueCheck>> = {
  IP_ADDRESS: ipAddress,
  CIDR: cidr,
  DOMAIN_NAME: domainName,
  ASN: asn,
};

export function checkSeedValue(type: SeedType, raw: unknown): SeedValueCheck {
  if (raw === undefined || raw === null || raw === '') return { ok: false, reason: 'a value is required' };
  return CHECKS[type](raw);
}

/** Addresses in a block, as a power of two: a /8 of IPv4 is 24. */
export function cidrSizeBits(value: string): number {
  const [addr, bits] = value.split('/');
  return (addr.includes(':') ? 128 : 32) - Number(bits);
}
