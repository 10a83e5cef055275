/**
 * Sorting unit ids (uint32 below a known bound) by least-significant-digit radix: two linear
 * passes of 11-bit digits sort the ids of an index of up to 4M units. Node 20's native typed-array
 * sort and roaring's unsorted bulk add both cost several hundred ns per id on tens of thousands
 * of ids (a CIDR's hosts), radix sorting about 20.
 */

const DIGIT = 11;
const RADIX = 1 << DIGIT;

/** `ids` (each below `bound`) in ascending order, duplicates kept: a new array; `ids` is left as it was. */
export function radixSorted(ids: Uint32Array, bound: number): Uint32Array {
  let bits = 0;
  while (bits < 32 && bound - 1 >= 2 ** bits) bits++;
  const passes = Math.max(1, Math.ceil(bits / DIGIT));
  const n = ids.length;
  let src: Uint32Array = ids;
  let dst: Uint32Array = new Uint32Array(n);
  let spare: Uint32Array | undefined;
  const counts = new Uint32Array(RADIX);
  for (let pass = 0, shift = 0; pass < passes; pass++, shift += DIGIT) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(src[i] >>> shift) & (RADIX - 1)]++;
    let sum = 0;
    for (let d = 0; d < RADIX; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const v = src[i];
      dst[counts[(v >>> shift) & (RADIX - 1)]++] = v;
    }
    // The input is never written: the second buffer is allocated on the second pass.
    const done = dst;
    dst = src === ids ? (spare ??= new Uint32Array(n)) : src;
    src = done;
  }
  return src;
}
