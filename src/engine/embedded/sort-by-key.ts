/**
 * A stable sort of (key, value) pairs held in two typed arrays, by key: least-significant-digit
 * radix passes of 11 bits, so a pass's counters fit in the L1 cache and a million pairs with keys
 * below 2^22 sort in two linear passes, where a comparison sort would take twenty.
 */
const BITS = 11;
const RADIX = 1 << BITS;

/**
 * Sorts pairs [0, n) by key, keeping the order of equal keys. The result is in the returned
 * arrays, which are either the given ones or new ones (the given ones are then overwritten).
 */
export function sortByKey(keys: Uint32Array, values: Uint32Array, n: number): [Uint32Array, Uint32Array] {
  let max = 0;
  for (let i = 0; i < n; i++) if (keys[i] > max) max = keys[i];
  let k = keys;
  let v = values;
  let k2: Uint32Array | undefined;
  let v2: Uint32Array | undefined;
  const count = new Uint32Array(RADIX);
  for (let shift = 0; shift < 32 && max >>> shift > 0; shift += BITS) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(k[i] >>> shift) & (RADIX - 1)]++;
    for (let d = 0, at = 0; d < RADIX; d++) {
      const c = count[d];
      count[d] = at;
      at += c;
    }
    k2 ??= new Uint32Array(n);
    v2 ??= new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const at = count[(k[i] >>> shift) & (RADIX - 1)]++;
      k2[at] = k[i];
      v2[at] = v[i];
    }
    [k, k2] = [k2, k];
    [v, v2] = [v2, v];
  }
  return [k, v];
}
