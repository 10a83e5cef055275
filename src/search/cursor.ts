/**
 * Opaque paging cursors: base64url JSON holding what the next request needs and a fingerprint of
 * the request it belongs to, so a cursor replayed with another query is rejected (422) instead of
 * silently paging something else.
 */
import { createHash } from 'node:crypto';
import type { Result } from '../lib/problem.ts';
import { fail, ok } from '../lib/problem.ts';
import type { SortPosition } from '../engine/search-engine.ts';

export interface CursorBody<P> {
  /** Fingerprint of the request the cursor continues. */
  readonly h: string;
  readonly p: P;
}

export function requestFingerprint(...parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export function encodeCursor<P>(fingerprint: string, position: P): string {
  return Buffer.from(JSON.stringify({ v: 1, h: fingerprint, p: position })).toString('base64url');
}

export function decodeCursor<P>(cursor: string, fingerprint: string, check: (p: unknown) => p is P): Result<P> {
  let body: unknown;
  try {
    if (!/^[A-Za-z0-9_=-]+$/.test(cursor) || cursor.length > 4096) throw new Error('shape');
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return fail('invalid_cursor', 'Invalid cursor');
  }
  const b = body as { v?: unknown; h?: unknown; p?: unknown };
  if (b === null || typeof b !== 'object' || b.v !== 1 || typeof b.h !== 'string' || !check(b.p)) {
    return fail('invalid_cursor', 'Invalid cursor');
  }
  if (b.h !== fingerprint) return fail('invalid_cursor', 'Invalid cursor: it belongs to a different query');
  return ok(b.p);
}

export function isOffset(p: unknown): p is number {
  return typeof p === 'number' && Number.isInteger(p) && p >= 0;
}

/** A keyset cursor's position: the edge hit of the page served and the direction to go from it. */
export interface PagePosition {
  readonly dir: 'next' | 'prev';
  readonly at: SortPosition;
}

export function isPagePosition(p: unknown): p is PagePosition {
  const x = p as PagePosition;
  return (
    x !== null &&
    typeof x === 'object' &&
    (x.dir === 'next' || x.dir === 'prev') &&
    x.at !== null &&
    typeof x.at === 'object' &&
    typeof x.at.orderKey === 'string' &&
    Array.isArray(x.at.values) &&
    x.at.values.every((v) => v === null || typeof v === 'string' || typeof v === 'number')
  );
}
