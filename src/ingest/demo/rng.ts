/**
 * Seeded PRNG (sfc32 seeded through splitmix32) with the sampling helpers the generator needs.
 * `fork(label)` gives an independent stream per concern, so e.g. asking for more hosts does not
 * change the certificates.
 */

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a of a string, for deriving seeds from labels. */
export function hashString(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  readonly seed: number;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    const init = splitmix32(this.seed);
    this.a = init();
    this.b = init();
    this.c = init();
    this.d = init();
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** Independent stream derived from this seed and a label (does not advance this stream). */
  fork(label: string): Rng {
    return new Rng(hashString(label, this.seed ^ 0x5bd1e995));
  }

  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Items chosen by weight from `[item, weight]` pairs. */
  weighted<T>(pairs: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of pairs) total += w;
    let x = this.next() * total;
    for (const [item, w] of pairs) {
      x -= w;
      if (x < 0) return item;
    }
    return pairs[pairs.length - 1][0];
  }

  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i += 4) {
      const v = this.u32();
      for (let k = 0; k < 4 && i + k < n; k++) out[i + k] = (v >>> (k * 8)) & 0xff;
    }
    return out;
  }

  hex(nBytes: number): string {
    return this.bytes(nBytes).toString('hex');
  }

  /** A subset of `items`, each kept with probability p, order preserved. */
  subset<T>(items: readonly T[], p: number): T[] {
    return items.filter(() => this.chance(p));
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}

/** A reusable weighted sampler (cumulative table + bisection) for large or hot choices. */
export class WeightedTable<T> {
  private readonly items: T[];
  private readonly cumulative: Float64Array;

  constructor(pairs: readonly (readonly [T, number])[]) {
    this.items = pairs.map((p) => p[0]);
    this.cumulative = new Float64Array(pairs.length);
    let total = 0;
    pairs.forEach(([, w], i) => {
      total += w;
      this.cumulative[i] = total;
    });
  }

  get total(): number {
    return this.cumulative.length ? this.cumulative[this.cumulative.length - 1] : 0;
  }

  sample(rng: Rng): T {
    const x = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo];
  }
}

/** Zipf-like weights 1/(i+1)^s for n ranked items. */
export function zipfWeights(n: number, s = 1): number[] {
  return Array.from({ length: n }, (_, i) => 1 / Math.pow(i + 1, s));
}
