/**
 * In-place sorts for the short arrays of hot paths (an object's keys, a host's services).
 * `Array.prototype.sort` allocates work arrays on every call: in canonical JSON it was the largest
 * single source of garbage of an ingest (about 8 KB per zgrab2 line, docs/BENCHMARK.md, ingest
 * round 10), where an insertion sort of a dozen keys allocates nothing and takes half the time.
 * Longer arrays go to the built-in sort. Both orders are the built-in ones (stable; strings by
 * UTF-16 code units).
 */

/** Longest array sorted by insertion. */
const SMALL = 24;

/** `a` sorted in place as `a.sort()` sorts strings; returns `a`. */
export function sortStrings(a: string[]): string[] {
  if (a.length > SMALL) return a.sort();
  for (let i = 1; i < a.length; i++) {
    const x = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]! > x) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = x;
  }
  return a;
}

/** `a` sorted in place as `a.sort(compare)` sorts it (stable); returns `a`. */
export function sortSmall<T>(a: T[], compare: (x: T, y: T) => number): T[] {
  if (a.length > SMALL) return a.sort(compare);
  for (let i = 1; i < a.length; i++) {
    const x = a[i]!;
    let j = i - 1;
    while (j >= 0 && compare(a[j]!, x) > 0) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = x;
  }
  return a;
}
