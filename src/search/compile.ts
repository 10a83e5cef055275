import type { IndexName } from '../model/field-def.ts';
import type { ResolvedQuery } from '../query/resolved.ts';
import { compileQuery } from '../query/index.ts';
import type { Result } from '../lib/problem.ts';
import { fail, ok } from '../lib/problem.ts';
import type { SearchContext } from './search-context.ts';

export type VirtualHosts = 'EXCLUDE' | 'INCLUDE' | 'ONLY';

/** Query text → resolved query, with the virtual-host filter of hosts searches folded in. */
export function compile(ctx: SearchContext, index: IndexName, q: string | undefined, virtualHosts?: VirtualHosts): Result<ResolvedQuery> {
  const catalogue = ctx.catalogues[index];
  const compiled = compileQuery(q ?? '', catalogue, { now: ctx.now() });
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
