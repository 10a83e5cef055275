import type { IndexName } from '../model/field-def.ts';
import type { SortSpec } from '../engine/search-engine.ts';
import type { Result } from '../lib/problem.ts';
import { fail, ok } from '../lib/problem.ts';
import type { SearchContext } from './search-context.ts';

/**
 * `sort` as clients send it: hosts use RELEVANCE | ASCENDING | DESCENDING (| RANDOM from the CLI);
 * certificates a list of fields, `-field` or `field:desc` for descending. Hosts also accept field
 * lists. Without scoring, RELEVANCE and RANDOM use the index order (address, then name), which
 * is stable and so pages consistently; DESCENDING reverses it.
 */
export function parseSort(ctx: SearchContext, index: IndexName, sort: string | readonly string[] | undefined): Result<SortSpec[]> {
  const items = (Array.isArray(sort) ? sort : sort === undefined ? [] : [sort])
    .flatMap((s: string) => s.split(','))
    .map((s: string) => s.trim())
    .filter((s: string) => s !== '');
  const specs: SortSpec[] = [];
  for (const item of items) {
    const upper = item.toUpperCase();
    if (upper === 'RELEVANCE' || upper === 'RANDOM' || upper === 'ASCENDING') continue;
    if (upper === 'DESCENDING') {
      specs.push({ field: index === 'hosts' ? 'ip' : 'fingerprint_sha256', descending: true });
      continue;
    }
    let field = item;
    let descending = false;
    if (field.startsWith('-')) {
      descending = true;
      field = field.slice(1);
    } else if (field.startsWith('+')) field = field.slice(1);
    const colon = field.lastIndexOf(':');
    if (colon > 0) {
      const dir = field.slice(colon + 1).toLowerCase();
      if (dir === 'asc' || dir === 'desc') {
        descending = dir === 'desc';
        field = field.slice(0, colon);
      }
    }
    const def = ctx.catalogues[index].get(field);
    if (!def) {
      const s = ctx.catalogues[index].suggest(field);
      return fail('invalid_field', `Invalid sort field: '${field}'.${s ? ` Did you mean '${s}'?` : ''}`, s ? { suggestion: s } : {});
    }
    specs.push({ field: def.path, descending });
  }
  return ok(specs);
}
