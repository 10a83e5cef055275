/**
 * Inventory search (contract §2B.8): the Censys query language over a workspace's assets, with
 * keyset cursors as in the Search API — a cursor holds the edge hit's position and a fingerprint
 * of the request, so paging neither repeats nor skips an asset and a cursor cannot be replayed
 * against another query.
 */
import type { SortSpec } from '../../engine/search-engine.ts';
import { projectFields, validateFieldPaths } from '../../model/project-fields.ts';
import { fail, ok, type Result } from '../../lib/problem.ts';
import { decodeCursor, encodeCursor, isPagePosition, requestFingerprint, type PagePosition } from '../../search/cursor.ts';
import type { AsmContext } from '../asm-context.ts';
import { inventoryCatalogue } from './inventory-catalogue.ts';
import { compileInventoryQuery } from './compile-inventory-query.ts';
import { publicDocument } from './inventory-documents.ts';
import { inventoryEngine } from './inventory-cache.ts';

export const MAX_INVENTORY_PAGE_SIZE = 1000;

export interface InventorySearchInput {
  readonly workspaces?: readonly string[];
  readonly query?: string;
  readonly pageSize?: number;
  readonly cursor?: string;
  readonly sort?: readonly string[];
  readonly fields?: readonly string[];
}

export interface InventorySearchPage {
  totalHits: number;
  nextCursor?: string;
  previousCursor?: string;
  queryDurationMillis: number;
  hits: Record<string, unknown>[];
}

/**
 * The workspaces a request names, which must all be the caller's; none named means the caller's.
 * Periscope gives each user one workspace, so a search covers at most that one.
 */
export function workspacesOf(callerWorkspace: string, requested: readonly string[] | undefined): Result<string> {
  const named = (requested ?? []).map((w) => w.trim()).filter((w) => w !== '');
  const foreign = named.filter((w) => w !== callerWorkspace);
  if (foreign.length > 0) {
    return fail('forbidden', `Not allowed to query workspace ${JSON.stringify(foreign[0])}`, {
      details: foreign.map((w) => ({ workspace: w, reason: 'not a workspace of this API key' })),
    });
  }
  return ok(callerWorkspace);
}

/** `field`, `-field`, `+field`, `field:asc` or `field:desc`, comma-separated or repeated. */
export function parseInventorySort(sort: readonly string[] | undefined): Result<SortSpec[]> {
  const cat = inventoryCatalogue();
  const specs: SortSpec[] = [];
  for (const raw of (sort ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '')) {
    let field = raw;
    let descending = false;
    if (field.startsWith('-')) {
      descending = true;
      field = field.slice(1);
    } else if (field.startsWith('+')) field = field.slice(1);
    const colon = field.lastIndexOf(':');
    if (colon > 0) {
      const dir = field.slice(colon + 1).trim().toLowerCase();
      if (dir === 'asc' || dir === 'desc') {
        descending = dir === 'desc';
        field = field.slice(0, colon).trim();
      }
    }
    const def = cat.get(field);
    if (!def) {
      const s = cat.suggest(field);
      return fail('invalid_field', `Invalid sort field: '${field}'.${s ? ` Did you mean '${s}'?` : ''}`, {
        details: [{ field, ...(s ? { suggestion: s } : {}) }],
      });
    }
    specs.push({ field: def.path, descending });
  }
  return ok(specs);
}

export async function searchInventory(ctx: AsmContext, callerWorkspace: string, input: InventorySearchInput): Promise<Result<InventorySearchPage>> {
  const started = performance.now();
  const workspace = workspacesOf(callerWorkspace, input.workspaces);
  if (!workspace.ok) return workspace;
  const pageSize = input.pageSize ?? 50;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_INVENTORY_PAGE_SIZE) {
    return fail('invalid_request', `pageSize must be an integer from 1 to ${MAX_INVENTORY_PAGE_SIZE}`);
  }
  const query = compileInventoryQuery(input.query, ctx.now());
  if (!query.ok) return query;
  const sort = parseInventorySort(input.sort);
  if (!sort.ok) return sort;
  let docPaths: string[] | undefined;
  const fields = (input.fields ?? []).flatMap((f) => f.split(',')).map((f) => f.trim()).filter((f) => f !== '');
  if (fields.length > 0) {
    const checked = validateFieldPaths(inventoryCatalogue(), fields);
    if (!checked.ok) {
      const s = checked.suggestion;
      return fail('invalid_field', `Invalid field: '${checked.path}'.${s ? ` Did you mean '${s}'?` : ''}`, {
        details: [{ field: checked.path, ...(s ? { suggestion: s } : {}) }],
      });
    }
    // The hit type is always shown, so that a client can tell which key holds the payload.
    docPaths = ['type', ...checked.docPaths];
  }
  const fingerprint = requestFingerprint('inventory', workspace.value, input.query ?? '', sort.value);
  let position: PagePosition | undefined;
  if (input.cursor) {
    const decoded = decodeCursor(input.cursor, fingerprint, isPagePosition);
    if (!decoded.ok) return fail('invalid_cursor', decoded.problem.message, { details: [{ cursor: input.cursor, reason: decoded.problem.message }] });
    position = decoded.value;
  }
  const engine = await inventoryEngine(ctx, workspace.value, position !== undefined);
  const backwards = position?.dir === 'prev';
  const result = engine.page(query.value, sort.value, pageSize, position?.at, backwards);
  const hits = result.hits.map((h) => {
    const doc = publicDocument(engine.entry(h.id)!.doc);
    return { ...(docPaths ? projectFields(doc, docPaths) : doc), _details: {} };
  });
  const first = result.hits[0];
  const last = result.hits[result.hits.length - 1];
  const hasAfter = backwards ? true : result.more;
  const hasBefore = backwards ? result.more : position !== undefined;
  return ok({
    totalHits: result.total,
    // The newest client pages while nextCursor is present: the last page has none.
    ...(hasAfter && last ? { nextCursor: encodeCursor<PagePosition>(fingerprint, { dir: 'next', at: last.position }) } : {}),
    ...(hasBefore && first ? { previousCursor: encodeCursor<PagePosition>(fingerprint, { dir: 'prev', at: first.position }) } : {}),
    queryDurationMillis: Math.round(performance.now() - started),
    hits,
  });
}
