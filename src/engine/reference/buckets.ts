/** Bucket order of aggregations: count descending, then key ascending (code-unit order). */
export interface Bucket {
  readonly key: string;
  readonly count: number;
}

export function compareBuckets(a: Bucket, b: Bucket): number {
  return b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}
