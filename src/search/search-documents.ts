import type { IndexName } from '../model/field-def.ts';
import { validateFieldPaths } from '../model/project-fields.ts';
import type { Result } from '../lib/problem.ts';
import { fail, ok } from '../lib/problem.ts';
import type { SearchContext } from './search-context.ts';
import { compile, type VirtualHosts } from './compile.ts';
import { parseSort } from './parse-sort.ts';
import { decodeCursor, encodeCursor, isPagePosition, requestFingerprint, type PagePosition } from './cursor.ts';
import { defaultHits, projectedHits } from './page-hits.ts';

export interface SearchParams {
  readonly q?: string;
  readonly perPage?: number;
  readonly cursor?: string;
  readonly fields?: readonly string[];
  readonly sort?: string | readonly string[];
  readonly virtualHosts?: VirtualHosts;
}

export interface SearchPage {
  query: string;
  total: number;
  duration_ms: number;
  /** Each hit as JSON text (pages are sent without parsing and re-serialising their hits). */
  hits: string[];
  links: { prev: string; next: string };
}

/**
 * The page as the `result` of the v2 envelope, in JSON text, between `before` and `after` (the
 * envelope). Built by one join, so a page of 100 hits (~110 KB) is copied once: joining the hits
 * and then wrapping them made V8 copy it again when it was written.
 */
export function searchPageJson(page: SearchPage, before = '', after = ''): string {
  const head = `${before}{"query":${JSON.stringify(page.query)},"total":${page.total},"duration_ms":${page.duration_ms},"hits":[`;
  const tail = `],"links":${JSON.stringify(page.links)}}${after}`;
  const hits = page.hits;
  if (hits.length === 0) return head + tail;
  const parts = hits.slice();
  parts[0] = head + parts[0];
  parts[parts.length - 1] += tail;
  return parts.join(',');
}

export const MAX_PER_PAGE = 100;

/**
 * One page of hits. Paging is keyset-based: a cursor holds the position of the page's edge hit
 * in the total order (sort values, then index order), so writes between requests can neither
 * repeat nor skip a document that exists throughout.
 */
export async function searchDocuments(ctx: SearchContext, index: IndexName, params: SearchParams): Promise<Result<SearchPage>> {
  const started = performance.now();
  const perPage = params.perPage ?? 50;
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
    return fail('invalid_request', `per_page must be an integer from 1 to ${MAX_PER_PAGE}`);
  }
  const query = compile(ctx, index, params.q, params.virtualHosts ?? 'EXCLUDE');
  if (!query.ok) return query;
  const sort = parseSort(ctx, index, params.sort);
  if (!sort.ok) return sort;
  let docPaths: readonly string[] | undefined;
  if (params.fields && params.fields.length > 0) {
    const checked = validateFieldPaths(ctx.catalogues[index], params.fields);
    if (!checked.ok) {
      return fail('invalid_field', `Invalid field: '${checked.path}'.${checked.suggestion ? ` Did you mean '${checked.suggestion}'?` : ''}`);
    }
    docPaths = checked.docPaths;
  }
  const fingerprint = requestFingerprint(index, params.q ?? '', sort.value, params.virtualHosts ?? 'EXCLUDE');
  let position: PagePosition | undefined;
  if (params.cursor) {
    const decoded = decodeCursor(params.cursor, fingerprint, isPagePosition);
    if (!decoded.ok) return decoded;
    position = decoded.value;
  }
  const backwards = position?.dir === 'prev';
  const result = ctx.engine.search(index, {
    query: query.value,
    sort: sort.value,
    limit: perPage,
    ...(position ? { after: position.at, backwards } : {}),
  });
  const ids = result.hits.map((h) => h.id);
  const byId = docPaths ? await projectedHits(ctx.store, index, ids, docPaths) : await defaultHits(ctx.store, index, ids);
  const hits: string[] = [];
  for (const id of ids) {
    const hit = byId.get(id);
    // A document removed between the engine answering and the read is left out of the page.
    if (hit !== undefined) hits.push(hit);
  }
  const first = result.hits[0];
  const last = result.hits[result.hits.length - 1];
  const hasAfter = backwards ? true : result.more;
  const hasBefore = backwards ? result.more : position !== undefined;
  const links = {
    prev: hasBefore && first ? encodeCursor<PagePosition>(fingerprint, { dir: 'prev', at: first.position }) : '',
    next: hasAfter && last ? encodeCursor<PagePosition>(fingerprint, { dir: 'next', at: last.position }) : '',
  };
  return ok({
    query: params.q ?? '',
    total: result.total,
    duration_ms: Math.round(performance.now() - started),
    hits,
    links,
  });
}
