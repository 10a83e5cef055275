import ipaddr from 'ipaddr.js';
import { parseIp } from '../../lib/ip.ts';

/**
 * The text form to look an address up by in a geo database, or undefined when it has no public
 * location: not an IP, or not public unicast space (the databases answer for some private and
 * reserved blocks). IPv4-mapped IPv6 addresses are looked up as IPv4.
 */
export function publicAddress(ip: string): string | undefined {
  const quad = plainQuad(ip);
  // A plain dotted quad is its own normal form; only its range needs ipaddr.js.
  if (quad) return new ipaddr.IPv4(quad).range() === 'unicast' ? ip : undefined;
  let addr = parseIp(ip);
  if (!addr) return undefined;
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() === 'unicast' ? addr.toString() : undefined;
}

/** The octets of a dotted quad without leading zeros or spaces (ingest's host ids), else undefined. */
function plainQuad(ip: string): number[] | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (p.length === 0 || p.length > 3 || (p.length > 1 && p.charCodeAt(0) === 48)) return undefined;
    let n = 0;
    for (let i = 0; i < p.length; i++) {
      const c = p.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return undefined;
      n = n * 10 + c;
    }
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}
