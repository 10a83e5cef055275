/**
 * Sorting byte strings held in one buffer (entry i is `bytes[at[i], at[i + 1])`) by multikey
 * quicksort: each step partitions a range three ways on four bytes at one position, and only
 * the range equal there moves on to the next four. A dictionary's values share long prefixes
 * (timestamps share 12-16 characters, banners and pages far more); sorting them as JavaScript
 * strings with a comparator re-read that prefix on every comparison through V8's generic string
 * compare (about 150 ns a comparison here), and a part's checkpoint spent two thirds of its time
 * so. Here each byte is read about once per partitioning level, from a typed array.
 */

/** Below this many entries a range is finished by insertion sort. */
const SMALL = 12;

/**
 * Sorts `order[lo, hi)` — entry numbers — so that their bytes ascend (unsigned, a prefix before
 * its extensions). Equal entries may end in any order among themselves.
 */
export function sortByteStrings(bytes: Uint8Array, at: Uint32Array, order: Uint32Array, lo = 0, hi = order.length): void {
  // Entry e's four bytes at depth d as one number: the bytes big-endian (those past its end as
  // 0), times 5, plus how many of the four it has (0-4). Keys order as the bytes do, a prefix
  // first; equal keys with fewer than four bytes are equal entries. Four bytes a step take a
  // quarter of the passes over a shared prefix.
  const keyAt = (e: number, d: number): number => {
    const p = at[e] + d;
    const n = at[e + 1] - p;
    if (n >= 4) return (bytes[p] * 0x1000000 + ((bytes[p + 1] << 16) | (bytes[p + 2] << 8) | bytes[p + 3])) * 5 + 4;
    if (n <= 0) return 0;
    const w = n === 1 ? bytes[p] * 0x1000000 : n === 2 ? bytes[p] * 0x1000000 + (bytes[p + 1] << 16) : bytes[p] * 0x1000000 + ((bytes[p + 1] << 16) | (bytes[p + 2] << 8));
    return w * 5 + n;
  };
  // Keys of the entries at order[lo, hi), aligned with order and swapped with it: the passes
  // over a range at one depth read them in sequence, and each entry's bytes are read once per
  // depth it reaches, not once per pass.
  const keys = new Float64Array(order.length);
  const fill = (a: number, b: number, d: number): void => {
    for (let i = a; i < b; i++) keys[i] = keyAt(order[i], d);
  };
  fill(lo, hi, 0);
  // An explicit stack of (lo, hi, depth), keys filled for that depth: long shared prefixes
  // would recurse once per step.
  const stack: number[] = [lo, hi, 0];
  while (stack.length > 0) {
    let d = stack.pop()!;
    let b = stack.pop()!;
    let a = stack.pop()!;
    for (;;) {
      const n = b - a;
      if (n < 2) break;
      if (n < SMALL) {
        insertionSort(bytes, at, order, a, b, d);
        break;
      }
      const pivot = medianOf3(keys[a], keys[a + (n >>> 1)], keys[b - 1]);
      let lt = a;
      let gt = b - 1;
      let i = a;
      while (i <= gt) {
        const c = keys[i];
        if (c < pivot) {
          keys[i] = keys[lt];
          keys[lt] = c;
          const t = order[lt];
          order[lt++] = order[i];
          order[i++] = t;
        } else if (c > pivot) {
          keys[i] = keys[gt];
          keys[gt] = c;
          const t = order[gt];
          order[gt--] = order[i];
          order[i] = t;
        } else i++;
      }
      if (lt - a > 1) stack.push(a, lt, d);
      if (b - (gt + 1) > 1) stack.push(gt + 1, b, d);
      // The middle range shares the pivot's bytes at d: go on with it four bytes further, unless
      // they all ended there (equal entries).
      if (pivot % 5 !== 4) break;
      a = lt;
      b = gt + 1;
      d += 4;
      fill(a, b, d);
    }
  }
}

/** Compares `a[aoff, aoff + alen)` with `b[boff, boff + blen)` as unsigned bytes, a prefix first. */
export function compareBytes(a: Uint8Array, aoff: number, alen: number, b: Uint8Array, boff: number, blen: number): number {
  const max = Math.min(alen, blen);
  for (let i = 0; i < max; i++) if (a[aoff + i] !== b[boff + i]) return a[aoff + i] - b[boff + i];
  return alen - blen;
}

function medianOf3(x: number, y: number, z: number): number {
  return x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
}

function insertionSort(bytes: Uint8Array, at: Uint32Array, order: Uint32Array, a: number, b: number, d: number): void {
  for (let i = a + 1; i < b; i++) {
    // Entries of the range are equal before depth d: compare from there.
    const o = order[i];
    const op = at[o] + d;
    const ol = at[o + 1] - op;
    let j = i - 1;
    while (j >= a && compareBytes(bytes, at[order[j]] + d, at[order[j] + 1] - at[order[j]] - d, bytes, op, ol) > 0) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = o;
  }
}
