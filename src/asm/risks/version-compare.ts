/**
 * Ordering of software version strings as banners and CPEs spell them (`8.9p1`, `1.0.1f`,
 * `2.4.49`, `1.3.5e`): numeric runs compare as numbers, letter runs as text, and a version that is
 * a prefix of another sorts first (`1.3.5` < `1.3.5a`, `8.5` < `8.5p1`).
 */

function tokens(v: string): (number | string)[] {
  return (v.toLowerCase().match(/\d+|[a-z]+/g) ?? []).map((t) => (/^\d/.test(t) ? Number(t) : t));
}

export function compareVersions(a: string, b: string): number {
  const x = tokens(a);
  const y = tokens(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i];
    const q = y[i];
    if (p === q) continue;
    if (typeof p === 'number' && typeof q === 'number') return p < q ? -1 : 1;
    // Mixed runs at one place are rare (`1.0rc1` vs `1.0.1`); numbers sorting last keeps the order total.
    if (typeof p === 'number') return 1;
    if (typeof q === 'number') return -1;
    return p < q ? -1 : 1;
  }
  return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
}

/** A set of versions: `exact` values, or `from` (inclusive) up to `below` (exclusive); either end may be open. */
export interface VersionRange {
  readonly exact?: readonly string[];
  readonly from?: string;
  readonly below?: string;
}

export function inRange(version: string, range: VersionRange): boolean {
  if (range.exact) return range.exact.some((e) => compareVersions(version, e) === 0);
  if (range.from !== undefined && compareVersions(version, range.from) < 0) return false;
  if (range.below !== undefined && compareVersions(version, range.below) >= 0) return false;
  return true;
}
