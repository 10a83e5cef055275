/**
 * Draws host addresses from really announced ranges of the bundled ASN data, skewed toward big
 * cloud, hosting and access-network ASNs, with a long tail drawn by address-space size.
 */
import type { AsnLookup } from '../enrich/asn-lookup.ts';
import { bigIntToIpv6, formatIpv4 } from '../enrich/ip-words.ts';
import { Rng, WeightedTable } from './rng.ts';

export type NetworkKind = 'cloud' | 'hosting' | 'isp' | 'cdn' | 'mixed';

// Real AS numbers of large networks: [asn, weight, kind].
const BIG_ASNS: readonly (readonly [number, number, NetworkKind])[] = [
  [16509, 10, 'cloud'], [14618, 4, 'cloud'], [396982, 5, 'cloud'], [15169, 1.5, 'cloud'], [8075, 6, 'cloud'],
  [45102, 3, 'cloud'], [37963, 3, 'cloud'], [132203, 3, 'cloud'], [45090, 2, 'cloud'], [31898, 2, 'cloud'],
  [13335, 2.5, 'cdn'],
  [14061, 6, 'hosting'], [16276, 6, 'hosting'], [24940, 6, 'hosting'], [63949, 3, 'hosting'], [20473, 3, 'hosting'],
  [51167, 2, 'hosting'], [12876, 1, 'hosting'], [8560, 2, 'hosting'], [47583, 1, 'hosting'], [46606, 1, 'hosting'],
  [26496, 1, 'hosting'], [32244, 1, 'hosting'], [19318, 1, 'hosting'], [36352, 1, 'hosting'], [9009, 1, 'hosting'],
  [4134, 6, 'isp'], [4837, 4, 'isp'], [9808, 2, 'isp'], [7922, 3, 'isp'], [701, 2, 'isp'], [7018, 2, 'isp'],
  [20115, 2, 'isp'], [3320, 2, 'isp'], [3215, 2, 'isp'], [12322, 1, 'isp'], [2856, 1, 'isp'], [5089, 1, 'isp'],
  [12389, 2, 'isp'], [4766, 3, 'isp'], [9318, 1, 'isp'], [17676, 1, 'isp'], [4713, 1, 'isp'], [9829, 1, 'isp'],
  [55836, 1, 'isp'], [28573, 1, 'isp'], [18881, 1, 'isp'], [3269, 1, 'isp'], [3462, 2, 'isp'], [9121, 1, 'isp'],
  [8151, 1, 'isp'], [7552, 1, 'isp'], [45899, 1, 'isp'], [17974, 1, 'isp'], [9299, 1, 'isp'], [4788, 1, 'isp'],
  [45595, 1, 'isp'], [8452, 1, 'isp'], [36947, 1, 'isp'], [6830, 1, 'isp'], [8881, 1, 'isp'], [209, 1, 'isp'],
];

/** Share of IPv4 hosts drawn from the whole table instead of the big networks. */
const LONG_TAIL = 0.3;

interface AsnRanges {
  readonly asn: number;
  readonly kind: NetworkKind;
  readonly v4: WeightedTable<number>;
  readonly v6: number[];
}

export class AddressPicker {
  private readonly asn: AsnLookup;
  private readonly networks: WeightedTable<AsnRanges>;
  private readonly networksV6: WeightedTable<AsnRanges>;
  private readonly kinds = new Map<number, NetworkKind>();
  private readonly allStarts: Float64Array;
  private readonly count: number;

  constructor(asn: AsnLookup) {
    this.asn = asn;
    const withRanges: (readonly [AsnRanges, number])[] = [];
    for (const [n, w, kind] of BIG_ASNS) {
      const r = asn.rangesOf(n);
      if (!r.ipv4.length) continue;
      this.kinds.set(n, kind);
      const v4 = new WeightedTable(r.ipv4.map((i) => {
        const x = asn.ipv4Range(i);
        return [i, x.end - x.start + 1] as const;
      }));
      withRanges.push([{ asn: n, kind, v4, v6: r.ipv6 }, w]);
    }
    this.networks = new WeightedTable(withRanges);
    this.networksV6 = new WeightedTable(withRanges.filter(([r]) => r.v6.length > 0));
    // Cumulative address counts of the whole IPv4 table, for the size-weighted long tail.
    this.count = asn.counts().ipv4;
    this.allStarts = new Float64Array(this.count);
    let total = 0;
    for (let i = 0; i < this.count; i++) {
      const x = asn.ipv4Range(i);
      total += x.end - x.start + 1;
      this.allStarts[i] = total;
    }
  }

  /** Kind of network an AS number stands for ('mixed' outside the big list). */
  kindOf(asn: number | undefined): NetworkKind {
    return (asn !== undefined && this.kinds.get(asn)) || 'mixed';
  }

  /** A public IPv4 address inside an announced range (avoids .0 and .255 host parts). */
  ipv4(rng: Rng): string {
    let index: number;
    if (rng.chance(LONG_TAIL)) {
      const x = rng.next() * this.allStarts[this.count - 1];
      let lo = 0;
      let hi = this.count - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.allStarts[mid] > x) hi = mid;
        else lo = mid + 1;
      }
      index = lo;
    } else {
      index = this.networks.sample(rng).v4.sample(rng);
    }
    const r = this.asn.ipv4Range(index);
    const size = r.end - r.start + 1;
    let addr = r.start + rng.int(size);
    if (size > 4) {
      for (let tries = 0; tries < 4 && ((addr & 255) === 0 || (addr & 255) === 255); tries++) addr = r.start + rng.int(size);
    }
    return formatIpv4(addr >>> 0);
  }

  /** An IPv6 address inside an announced range of a big network (server-style interface ids). */
  ipv6(rng: Rng): string {
    const net = this.networksV6.sample(rng);
    const r = this.asn.ipv6Range(rng.pick(net.v6));
    const size = r.end - r.start + 1n;
    const span = size > 1n << 80n ? 1n << 80n : size;
    const rand = (BigInt(rng.u32()) << 64n) | (BigInt(rng.u32()) << 32n) | BigInt(rng.u32());
    let addr = r.start + (rand % span);
    if (size > 1n << 64n) {
      const subnet = addr >> 64n << 64n;
      const iid = rng.chance(0.5) ? BigInt(rng.range(1, 255)) : (BigInt(rng.u32()) << 32n) | BigInt(rng.u32());
      addr = subnet + iid;
      if (addr > r.end) addr = r.start + 1n;
    }
    return bigIntToIpv6(addr);
  }
}
