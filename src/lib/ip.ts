/**
 * IP addresses in one canonical, sortable form: 32 lower-case hex digits of the IPv6 address,
 * IPv4 mapped to ::ffff:a.b.c.d. String order of keys is numeric order of addresses, so ranges
 * and CIDR blocks become string ranges.
 */
import ipaddr from 'ipaddr.js';

export function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const t = text.trim();
  if (!ipaddr.isValid(t)) return undefined;
  // ipaddr.isValid accepts forms like "1" or "0x1"; only dotted quads or colon forms are IPs here.
  if (!t.includes(':') && !/^\d{1,3}(\.\d{1,3}){3}$/.test(t)) return undefined;
  try {
    return ipaddr.parse(t);
  } catch {
    return undefined;
  }
}

function toV6Bytes(addr: ipaddr.IPv4 | ipaddr.IPv6): number[] {
  return addr.kind() === 'ipv4' ? (addr as ipaddr.IPv4).toIPv4MappedAddress().toByteArray() : addr.toByteArray();
}

function hex(bytes: number[]): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** Canonical key of an IP, or undefined when `text` is not an IP. */
export function ipKey(text: string): string | undefined {
  const addr = parseIp(text);
  return addr ? hex(toV6Bytes(addr)) : undefined;
}

/** Normal text form (IPv6 compressed, IPv4 dotted). */
export function ipText(text: string): string | undefined {
  const addr = parseIp(text);
  return addr ? addr.toString() : undefined;
}

/** Back from a key to text. */
export function ipFromKey(key: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < 32; i += 2) bytes.push(parseInt(key.slice(i, i + 2), 16));
  const v6 = ipaddr.fromByteArray(bytes) as ipaddr.IPv6;
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address().toString() : v6.toString();
}

/** The inclusive key range of a CIDR block (`10.0.0.0/8`, `2001:db8::/32`), or undefined. */
export function cidrRange(text: string): { lo: string; hi: string } | undefined {
  const t = text.trim();
  const slash = t.indexOf('/');
  if (slash < 0) return undefined;
  const addr = parseIp(t.slice(0, slash));
  const bitsText = t.slice(slash + 1);
  if (!addr || !/^\d{1,3}$/.test(bitsText)) return undefined;
  let bits = Number(bitsText);
  const max = addr.kind() === 'ipv4' ? 32 : 128;
  if (bits > max) return undefined;
  if (addr.kind() === 'ipv4') bits += 96;
  const bytes = toV6Bytes(addr);
  const lo = bytes.slice();
  const hi = bytes.slice();
  for (let i = 0; i < 16; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    const mask = keep === 0 ? 0 : (0xff << (8 - keep)) & 0xff;
    lo[i] = bytes[i] & mask;
    hi[i] = (bytes[i] & mask) | (~mask & 0xff);
  }
  return { lo: hex(lo), hi: hex(hi) };
}

export function isIpv6(text: string): boolean {
  const addr = parseIp(text);
  return !!addr && addr.kind() === 'ipv6';
}
