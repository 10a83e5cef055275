/**
 * The total order of hits (see engine/search-engine.ts): sort values (missing last in both
 * directions), then order key. Cursor values arrive from clients' cursors, so they are coerced
 * to the field's position type before comparing.
 */
import type { FieldType } from '../../model/field-def.ts';
import type { SortPosition, SortSpec } from '../search-engine.ts';
import { compareTyped } from './typed-value.ts';

export type PositionValue = string | number | null;

/** A cursor value in the position space of a field of `type` (null when unusable: sorts as missing). */
export function cursorValue(type: FieldType | undefined, v: string | number | null | undefined): PositionValue {
  if (v === null || v === undefined || type === undefined) return null;
  if (type === 'int' || type === 'float' || type === 'date' || type === 'bool') {
    const n = typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return String(v);
}

/** One sort column: missing (null) last whatever the direction. */
export function compareSortValue(a: PositionValue, b: PositionValue, descending: boolean): number {
  if (a === null) return b === null ? 0 : 1;
  if (b === null) return -1;
  const c = compareTyped(a, b);
  return descending ? -c : c;
}

/** Orders positions; 0 only when every sort value and the order key are equal. */
export function comparePositions(
  a: { readonly values: readonly PositionValue[]; readonly orderKey: string },
  b: SortPosition | { readonly values: readonly PositionValue[]; readonly orderKey: string },
  sort: readonly SortSpec[],
): number {
  for (let i = 0; i < sort.length; i++) {
    const c = compareSortValue(a.values[i] ?? null, b.values[i] ?? null, sort[i].descending);
    if (c !== 0) return c;
  }
  return compareTyped(a.orderKey, b.orderKey);
}
