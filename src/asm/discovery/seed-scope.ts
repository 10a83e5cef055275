/**
 * A workspace's seeds as something to test documents against: which IP, CIDR or ASN seed holds an
 * address, which domain seed a name falls under. Used by discovery to attach trails and by the
 * incremental path to decide whether a changed document can matter to a workspace at all.
 */
import { cidrRange, ipKey } from '../../lib/ip.ts';
import type { Seed } from '../../store/store.ts';
import type { TrailStep } from '../../model/asm-asset.ts';

export interface SeedScope {
  readonly ipSeeds: ReadonlySet<string>;
  readonly cidrs: readonly { readonly value: string; readonly lo: string; readonly hi: string }[];
  readonly asns: ReadonlySet<number>;
  /** Lower-case domain seeds, longest first (a name under two seeds is attributed to the closer one). */
  readonly domains: readonly string[];
}

export function seedScope(seeds: readonly Seed[]): SeedScope {
  const ipSeeds = new Set<string>();
  const cidrs: { value: string; lo: string; hi: string }[] = [];
  const asns = new Set<number>();
  const domains = new Set<string>();
  for (const s of seeds) {
    if (s.type === 'IP_ADDRESS') ipSeeds.add(s.value);
    else if (s.type === 'CIDR') {
      const r = cidrRange(s.value);
      if (r) cidrs.push({ value: s.value, ...r });
    } else if (s.type === 'ASN') asns.add(Number(s.value));
    else if (s.type === 'DOMAIN_NAME') domains.add(s.value.toLowerCase());
  }
  return { ipSeeds, cidrs, asns, domains: [...domains].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)) };
}

export function isEmptyScope(scope: SeedScope): boolean {
  return scope.ipSeeds.size === 0 && scope.cidrs.length === 0 && scope.asns.size === 0 && scope.domains.length === 0;
}

/** The domain seed `name` equals or lies under (closest first), if any. */
export function domainOf(scope: SeedScope, name: string): string | undefined {
  const n = name.toLowerCase();
  return scope.domains.find((d) => n === d || n.endsWith('.' + d));
}

/** The seed step(s) that put an address in scope, shortest (IP seed before CIDR before ASN). */
export function addressTrail(scope: SeedScope, ip: string, asn: number | undefined): TrailStep[] | undefined {
  if (scope.ipSeeds.has(ip)) return [];
  const key = ipKey(ip);
  if (key !== undefined) {
    // The narrowest CIDR: the one that says most about the address.
    let best: { value: string; lo: string; hi: string } | undefined;
    for (const c of scope.cidrs) {
      if (key >= c.lo && key <= c.hi && (!best || prefixLength(c.value) > prefixLength(best.value))) best = c;
    }
    if (best) return [{ type: 'CIDR', assetId: best.value, isSeed: true }];
  }
  if (asn !== undefined && scope.asns.has(asn)) return [{ type: 'ASN', assetId: String(asn), isSeed: true }];
  return undefined;
}

function prefixLength(cidr: string): number {
  return Number(cidr.slice(cidr.indexOf('/') + 1));
}

/** A DNS name as discovery accepts it: lower-case labels, no wildcard, no trailing dot. */
export function cleanName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const n = value.trim().toLowerCase().replace(/\.$/, '');
  if (n.length === 0 || n.length > 253 || !/^[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/.test(n)) return undefined;
  return n;
}
