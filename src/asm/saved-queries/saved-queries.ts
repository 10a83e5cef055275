/**
 * Saved inventory queries (contract §2B.9): named query texts of a workspace. A query is only
 * kept when it compiles, so running a saved query never fails on its syntax (fields can still
 * match nothing).
 */
import type { AsmContext } from '../asm-context.ts';
import type { SavedQuery } from '../../store/store.ts';
import { fail, ok, type Result } from '../../lib/problem.ts';
import { compileInventoryQuery } from '../inventory/compile-inventory-query.ts';

export const MAX_SAVED_QUERY_PAGE_SIZE = 1000;
export const MAX_QUERY_NAME_LENGTH = 256;
export const MAX_SAVED_QUERY_LENGTH = 8192;

export interface SavedQueryListInput {
  readonly pageSize?: number;
  readonly page?: number;
  readonly queryNamePrefix?: string;
  readonly filterTerm?: string;
}

function positiveInt(name: string, value: number | undefined, fallback: number, max: number): Result<number> {
  if (value === undefined) return ok(fallback);
  if (!Number.isInteger(value) || value < 1 || value > max) return fail('invalid_request', `${name} must be an integer from 1 to ${max}`);
  return ok(value);
}

export async function listSavedQueries(
  ctx: AsmContext,
  workspaceId: string,
  input: SavedQueryListInput,
): Promise<Result<{ items: SavedQuery[]; total: number }>> {
  const pageSize = positiveInt('pageSize', input.pageSize, 50, MAX_SAVED_QUERY_PAGE_SIZE);
  if (!pageSize.ok) return pageSize;
  const page = positiveInt('page', input.page, 1, Number.MAX_SAFE_INTEGER);
  if (!page.ok) return page;
  const filter = {
    ...(input.queryNamePrefix ? { namePrefix: input.queryNamePrefix } : {}),
    ...(input.filterTerm ? { term: input.filterTerm } : {}),
  };
  return ok(await ctx.store.asmSavedQueries.list(workspaceId, filter, { offset: (page.value - 1) * pageSize.value, limit: pageSize.value }));
}

/** The `{query, queryName}` body of add and edit, checked; the query must compile. */
function checkBody(ctx: AsmContext, body: unknown): Result<{ name: string; query: string }> {
  const b = (body ?? {}) as { query?: unknown; queryName?: unknown };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail('invalid_request', 'The body must be a JSON object with query and queryName');
  if (typeof b.queryName !== 'string' || b.queryName.trim() === '') return fail('invalid_request', 'queryName must be a non-empty string');
  if (b.queryName.length > MAX_QUERY_NAME_LENGTH) return fail('invalid_request', `queryName must be at most ${MAX_QUERY_NAME_LENGTH} characters`);
  if (typeof b.query !== 'string') return fail('invalid_request', 'query must be a string');
  if (b.query.length > MAX_SAVED_QUERY_LENGTH) return fail('invalid_request', `query must be at most ${MAX_SAVED_QUERY_LENGTH} characters`);
  const compiled = compileInventoryQuery(b.query, ctx.now());
  if (!compiled.ok) return compiled;
  return ok({ name: b.queryName, query: b.query });
}

const notFound = (id: string) => fail<never>('not_found', `Saved query ${JSON.stringify(id)} not found`);

export async function addSavedQuery(ctx: AsmContext, workspaceId: string, body: unknown): Promise<Result<SavedQuery>> {
  const checked = checkBody(ctx, body);
  if (!checked.ok) return checked;
  return ok(await ctx.store.asmSavedQueries.add(workspaceId, checked.value.name, checked.value.query, ctx.now().toISOString()));
}

export async function getSavedQuery(ctx: AsmContext, workspaceId: string, id: string): Promise<Result<SavedQuery>> {
  const q = await ctx.store.asmSavedQueries.get(workspaceId, id);
  return q ? ok(q) : notFound(id);
}

export async function editSavedQuery(ctx: AsmContext, workspaceId: string, id: string, body: unknown): Promise<Result<SavedQuery>> {
  const checked = checkBody(ctx, body);
  if (!checked.ok) return checked;
  const q = await ctx.store.asmSavedQueries.update(workspaceId, id, checked.value.name, checked.value.query, ctx.now().toISOString());
  return q ? ok(q) : notFound(id);
}

export async function deleteSavedQuery(ctx: AsmContext, workspaceId: string, id: string): Promise<Result<void>> {
  return (await ctx.store.asmSavedQueries.remove(workspaceId, id)) ? ok(undefined) : notFound(id);
}

/** The wire's SavedQuery (contract §2B.9). */
export function presentSavedQuery(q: SavedQuery): Record<string, unknown> {
  return { queryId: q.id, queryName: q.name, query: q.query, createdAt: q.createdAt, updatedAt: q.updatedAt };
}
