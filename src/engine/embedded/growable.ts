/**
 * Append-only typed arrays: compact columns without per-entry objects. They grow by half their
 * size rather than doubling, so a large column wastes at most a third of its capacity (a half
 * when doubling) and a grow step needs 2.5x the column at its peak instead of 3x.
 */
export class GrowableU32 {
  data: Uint32Array;
  length = 0;

  constructor(capacity = 16) {
    this.data = new Uint32Array(capacity);
  }

  /** Wraps `a` (taken over, not copied) as a full column. */
  static of(a: Uint32Array): GrowableU32 {
    const g = new GrowableU32(0);
    g.data = a.length > 0 ? a : new Uint32Array(16);
    g.length = a.length;
    return g;
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }

  /** Grows to at least `n` entries (zero-filled) so `data[i]` can be written for i < n. */
  ensureLength(n: number): void {
    if (n > this.data.length) this.grow(n);
    if (n > this.length) this.length = n;
  }

  private grow(n: number): void {
    const next = new Uint32Array(Math.max(n, 16, this.data.length + (this.data.length >>> 1)));
    next.set(this.data);
    this.data = next;
  }

  /** First index i with data[i] >= v (the array must be sorted ascending). */
  lowerBound(v: number): number {
    let lo = 0;
    let hi = this.length;
    const d = this.data;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (d[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
