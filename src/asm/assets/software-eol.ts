/**
 * `isEol` of a host's software in asset data: the risk catalogue's end-of-life table (the same rows
 * the end-of-life risks fire on), read at `now`. Pages repeat the same few products thousands of
 * times, so rows are grouped by product and answers remembered per day.
 */
import { EOL_SOFTWARE, inRange, type EolRow } from '../risks/index.ts';

const BY_PRODUCT = new Map<string, EolRow[]>();
for (const row of EOL_SOFTWARE) {
  const rows = BY_PRODUCT.get(row.match.product) ?? [];
  rows.push(row);
  BY_PRODUCT.set(row.match.product, rows);
}

const MEMO_LIMIT = 10_000;
const memo = new Map<string, boolean>();

export function isEndOfLife(vendor: string | undefined, product: string | undefined, version: string | undefined, now: Date): boolean {
  if (!product) return false;
  const rows = BY_PRODUCT.get(product);
  if (!rows) return false;
  const today = now.toISOString().slice(0, 10);
  const key = `${today}\u0000${vendor ?? ''}\u0000${product}\u0000${version ?? ''}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const answer = rows.some(
    (row) =>
      (!row.match.vendors || (vendor !== undefined && row.match.vendors.includes(vendor))) &&
      (!row.versions || (version !== undefined && inRange(version, row.versions))) &&
      row.eol <= today,
  );
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, answer);
  return answer;
}
