/**
 * `isEol` of a host's software in asset data: the risk catalogue's end-of-life table (the same rows
 * the end-of-life risks fire on), read at `now`.
 */
import { EOL_SOFTWARE, inRange } from '../risks/index.ts';

export function isEndOfLife(vendor: string | undefined, product: string | undefined, version: string | undefined, now: Date): boolean {
  if (!product) return false;
  const today = now.toISOString().slice(0, 10);
  return EOL_SOFTWARE.some(
    (row) =>
      row.match.product === product &&
      (!row.match.vendors || (vendor !== undefined && row.match.vendors.includes(vendor))) &&
      (!row.versions || (version !== undefined && inRange(version, row.versions))) &&
      row.eol <= today,
  );
}
