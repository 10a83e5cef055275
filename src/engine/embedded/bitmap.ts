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
