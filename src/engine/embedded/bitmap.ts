/** Roaring bitmaps (32-bit) for posting lists and query results. */
import roaring from 'roaring';

export const { RoaringBitmap32 } = roaring;
export type Bitmap = InstanceType<typeof RoaringBitmap32>;

export function emptyBitmap(): Bitmap {
  return new RoaringBitmap32();
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
