import type { FieldCatalogue, IndexName } from '../model/field-def.ts';
import type { ResolvedQuery } from '../query/resolved.ts';
import { compileQuery } from '../query/index.ts';
import type { Result } from '../lib/problem.ts';
import { fail, ok } from '../lib/problem.ts';
import type { SearchContext } from './search-context.ts';

export type VirtualHosts = 'EXCLUDE' | 'INCLUDE' | 'ONLY';

/** Compiled queries by catalogue and text: clients repeat the same queries, page after page. */
const cache = new WeakMap<FieldCatalogue, Map<string, Result<ResolvedQuery>>>();
const CACHE_SIZE = 1000;

/**
 * Query text → resolved query, with the virtual-host filter of hosts searches folded in. Results
 * are remembered, except for queries that may mention `now` (their meaning moves with the clock).
 */
export function compile(ctx: SearchContext, index: IndexName, q: string | undefined, virtualHosts?: VirtualHosts): Result<ResolvedQuery> {
  const text = q ?? '';
  if (/now/i.test(text)) return compileUncached(ctx, index, text, virtualHosts);
  const catalogue = ctx.catalogues[index];
  let known = cache.get(catalogue);
  if (!known) {
    known = new Map();
    cache.set(catalogue, known);
  }
  const key = `${index}\n${virtualHosts ?? ''}\n${text}`;
  let result = known.get(key);
  if (result) {
    // Most recently used last: the first entry is the one to evict.
    known.delete(key);
  } else {
    result = compileUncached(ctx, index, text, virtualHosts);
    if (known.size >= CACHE_SIZE) known.delete(known.keys().next().value!);
  }
  known.set(key, result);
  return result;
}

function compileUncached(ctx: SearchContext, index: IndexName, q: string, virtualHosts: VirtualHosts | undefined): Result<ResolvedQuery> {
  const catalogue = ctx.catalogues[index];
  const compiled = compileQuery(q, catalogue, { now: ctx.now() });
  if (!compiled.ok) {
    const e = compiled.error;
    return fail('invalid_query', `Invalid search. Your query could not be parsed: ${e.message}`, {
      position: e.position,
      ...(e.suggestion ? { suggestion: e.suggestion } : {}),
    });
  }
  if (index !== 'hosts' || virtualHosts === 'INCLUDE') return ok(compiled.query);
  const nameField = catalogue.get('name');
  if (!nameField) return ok(compiled.query);
  const hasName: ResolvedQuery = { kind: 'field', field: nameField, predicate: { op: 'exists' } };
  const filter: ResolvedQuery = virtualHosts === 'ONLY' ? hasName : { kind: 'not', child: hasName };
  return ok(compiled.query.kind === 'all' ? filter : { kind: 'and', children: [compiled.query, filter] });
}
