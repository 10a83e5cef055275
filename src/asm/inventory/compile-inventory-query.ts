import type { ResolvedQuery } from '../../query/resolved.ts';
import { compileQuery } from '../../query/index.ts';
import { fail, ok, type Result } from '../../lib/problem.ts';
import { inventoryCatalogue } from './inventory-catalogue.ts';

/** Inventory query text → resolved query over inventory documents; empty text matches every asset. */
export function compileInventoryQuery(text: string | undefined | null, now: Date): Result<ResolvedQuery> {
  const compiled = compileQuery(text ?? '', inventoryCatalogue(), { now });
  if (compiled.ok) return ok(compiled.query);
  const e = compiled.error;
  return fail('invalid_query', `Invalid query: ${e.message}`, {
    position: e.position,
    ...(e.suggestion ? { suggestion: e.suggestion } : {}),
    details: [{ message: e.message, position: e.position, ...(e.suggestion ? { suggestion: e.suggestion } : {}) }],
  });
}
