import type ipaddr from 'ipaddr.js';
import { parseIp } from '../../lib/ip.ts';

/**
 * The text form to look an address up by in a geo database, or undefined when it has no public
 * location: not an IP, or not public unicast space (the databases answer for some private and
 * reserved blocks). IPv4-mapped IPv6 addresses are looked up as IPv4.
 */
export function publicAddress(ip: string): string | undefined {
  let addr = parseIp(ip);
  if (!addr) return undefined;
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() === 'unicast' ? addr.toString() : undefined;
}
