/** Bucket order of aggregations: count descending, then key ascending (code-unit order). */
export interface Bucket {
  readonly key: string;
  readonly count: number;
}

export function compareBuckets(a: Bucket, b: Bucket): number {
  return b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/**
 * Puts `b` into `top` (in bucket order, at most `k` long) when it ranks among the best `k`:
 * a binary-searched insert, so choosing the best of many groups sorts none of the others.
 */
export function keepBest(top: Bucket[], b: Bucket, k: number): void {
  if (k <= 0 || (top.length === k && compareBuckets(b, top[k - 1]) >= 0)) return;
  let lo = 0;
  let hi = top.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareBuckets(top[mid], b) < 0) lo = mid + 1;
    else hi = mid;
  }
  top.splice(lo, 0, b);
  if (top.length > k) top.pop();
}
