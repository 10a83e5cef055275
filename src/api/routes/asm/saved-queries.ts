/** `/inventory/v1/saved-query` (contract §2B.9): thin routes over the saved-query use cases. */
import type { FastifyInstance } from 'fastify';
import type { AsmContext } from '../../../asm/index.ts';
import {
  addSavedQuery,
  deleteSavedQuery,
  editSavedQuery,
  getSavedQuery,
  listSavedQueries,
  presentSavedQuery,
} from '../../../asm/saved-queries/index.ts';
import { unwrap } from '../../../lib/problem.ts';

// Errors here use the inventory shape {error, statusCode, details} the newest client reads.
const config = { family: 'asm-inventory', auth: 'asm' } as const;
const tags = ['ASM Inventory'];
const idParams = { type: 'object', properties: { queryId: { type: 'string' } } } as const;
// Checked by the use case, so a wrong type is answered like any other bad input.
const body = { type: 'object' } as const;

interface ListQuery {
  pageSize?: number;
  page?: number;
  queryNamePrefix?: string;
  filterTerm?: string;
}

export async function savedQueryRoutes(app: FastifyInstance, ctx: AsmContext): Promise<void> {
  app.get<{ Querystring: ListQuery }>(
    '/inventory/v1/saved-query',
    {
      schema: {
        tags,
        summary: 'List saved queries, by name prefix and a term in name or query',
        querystring: {
          type: 'object',
          properties: {
            pageSize: { type: 'integer' },
            page: { type: 'integer' },
            queryNamePrefix: { type: 'string' },
            filterTerm: { type: 'string' },
          },
        },
      },
      config,
    },
    async (req) => {
      const r = unwrap(await listSavedQueries(ctx, req.caller!.workspaceId, req.query));
      return { results: r.items.map(presentSavedQuery), totalResults: r.total };
    },
  );

  app.post<{ Body: unknown }>(
    '/inventory/v1/saved-query',
    { schema: { tags, summary: 'Save a query (its syntax is checked)', body }, config },
    async (req) => ({ result: presentSavedQuery(unwrap(await addSavedQuery(ctx, req.caller!.workspaceId, req.body))) }),
  );

  app.get<{ Params: { queryId: string } }>(
    '/inventory/v1/saved-query/:queryId',
    { schema: { tags, summary: 'Get a saved query', params: idParams }, config },
    async (req) => ({ result: presentSavedQuery(unwrap(await getSavedQuery(ctx, req.caller!.workspaceId, req.params.queryId))) }),
  );

  app.put<{ Params: { queryId: string }; Body: unknown }>(
    '/inventory/v1/saved-query/:queryId',
    { schema: { tags, summary: 'Replace a saved query’s name and text', params: idParams, body }, config },
    async (req) => ({
      result: presentSavedQuery(unwrap(await editSavedQuery(ctx, req.caller!.workspaceId, req.params.queryId, req.body))),
    }),
  );

  app.delete<{ Params: { queryId: string } }>(
    '/inventory/v1/saved-query/:queryId',
    { schema: { tags, summary: 'Delete a saved query (answers {})', params: idParams }, config },
    async (req) => {
      unwrap(await deleteSavedQuery(ctx, req.caller!.workspaceId, req.params.queryId));
      // The newest CLI compares the body to {}: anything else, or no body, reads as a failure.
      return {};
    },
  );
}
