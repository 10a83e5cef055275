/** Roaring bitmaps (32-bit) for posting lists and query results. */
import roaring from 'roaring';

export const { RoaringBitmap32 } = roaring;
export type Bitmap = InstanceType<typeof RoaringBitmap32>;

export function emptyBitmap(): Bitmap {
  return new RoaringBitmap32();
}

/**
 * Frees a bitmap's containers now, when the caller owns it and is done with it. Roaring reports
 * its native memory to V8 as external memory, and V8 starts a full collection of the heap each
 * time that grows by 64 MB: a query that leaves its bitmaps to the collector costs, besides its
 * own time, a share of marking the whole heap. With ten parts of 1.1M hosts (a 5 GB heap, every
 * query leaving ~1.5-6.6 MB) that made a term query 69x one part's time instead of 10x
 * (docs/BENCHMARK.md, "10 parts: the collector").
 */
export function release(b: Bitmap): void {
  b.clear();
}

/** `acc` narrowed to `other`, which the caller owned and is released. */
export function andConsuming(acc: Bitmap, other: Bitmap): Bitmap {
  acc.andInPlace(other);
  release(other);
  return acc;
}

/** `acc` with `other` added, which is released. */
export function orConsuming(acc: Bitmap, other: Bitmap): Bitmap {
  acc.orInPlace(other);
  release(other);
  return acc;
}

/** `acc` less `other`, which is released. */
export function andNotConsuming(acc: Bitmap, other: Bitmap): Bitmap {
  acc.andNotInPlace(other);
  release(other);
  return acc;
}

/** `map(b)`, a new bitmap; `b` is released. */
export function mapConsuming(b: Bitmap, map: (b: Bitmap) => Bitmap): Bitmap {
  const out = map(b);
  release(b);
  return out;
}

/** Ids in ascending order as a typed array (one native call). */
export function idsOf(b: Bitmap): Uint32Array {
  return b.toUint32Array();
}

/** A bitmap of ascending ids already in a typed array: one bulk native call (several times faster than from()). */
export function bitmapOfSorted(ids: Uint32Array): Bitmap {
  if (ids.length === 0) return new RoaringBitmap32();
  return RoaringBitmap32.deserialize(new Uint8Array(ids.buffer, ids.byteOffset, ids.length * 4), 'uint32_array');
}

/** From this many bitmaps on, unionMany goes through the complement. */
const UNION_BY_COMPLEMENT = 32;

/**
 * The union of `bitmaps` as a new bitmap (they are left as they were). Roaring's orMany merges
 * sorted arrays container by container, one bitmap after another, so many lists of a few
 * hundred ids each cost it time quadratic in their number: 269 random lists of about 140,000 ids
 * in all (shaped like the 269 port values of `services.port: [8000 TO 9000]` at 1M hosts) took
 * 2 ms. From UNION_BY_COMPLEMENT bitmaps on, the union is the span of their ids less the ids in
 * none of them: subtracting each from the span only clears bits once the span's containers are
 * bitsets (0.18 ms there, 0.13 ms against 0.38 for 51 lists of 500). Below that, the span's
 * fixed cost (a bitset per 65,536 ids) outweighs what it saves.
 */
export function unionMany(bitmaps: readonly Bitmap[]): Bitmap {
  if (bitmaps.length < UNION_BY_COMPLEMENT) return RoaringBitmap32.orMany(bitmaps);
  let lo = Infinity;
  let hi = -1;
  for (const b of bitmaps) {
    if (b.isEmpty) continue;
    lo = Math.min(lo, b.minimum());
    hi = Math.max(hi, b.maximum());
  }
  if (hi < 0) return new RoaringBitmap32();
  const span = RoaringBitmap32.fromRange(lo, hi + 1);
  const none = span.clone();
  for (const b of bitmaps) none.andNotInPlace(b);
  span.andNotInPlace(none);
  release(none);
  return span;
}
