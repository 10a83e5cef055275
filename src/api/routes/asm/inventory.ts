/** `/inventory/v1` (contract §2B.8) and, registered from here, saved queries, clouds and beta. */
import type { FastifyInstance } from 'fastify';
import type { AsmContext } from '../../../asm/index.ts';
import { aggregateInventory, inventoryFields, searchInventory } from '../../../asm/inventory/index.ts';
import { unwrap } from '../../../lib/problem.ts';
import { savedQueryRoutes } from './saved-queries.ts';
import { cloudRoutes } from './clouds.ts';
import { betaRoutes } from './beta.ts';

// Errors here use the inventory shape {error, statusCode, details} the newest client reads.
const config = { family: 'asm-inventory', auth: 'asm' } as const;
const tags = ['ASM Inventory'];
const list = { type: 'array', items: { type: 'string' } } as const;

interface SearchQuery {
  workspaces?: string[];
  query?: string;
  pageSize?: number;
  cursor?: string;
  sort?: string[];
  fields?: string[];
}

export async function inventoryRoutes(app: FastifyInstance, ctx: AsmContext): Promise<void> {
  app.get<{ Querystring: SearchQuery }>(
    '/inventory/v1',
    {
      schema: {
        tags,
        summary: 'Search the workspace’s assets with the Censys query language on prefixed fields',
        querystring: {
          type: 'object',
          properties: { workspaces: list, query: { type: 'string' }, pageSize: { type: 'integer' }, cursor: { type: 'string' }, sort: list, fields: list },
        },
      },
      config,
    },
    async (req) => unwrap(await searchInventory(ctx, req.caller!.workspaceId, req.query)),
  );

  app.post<{ Body: { workspaces?: unknown; query?: unknown; aggregation?: unknown } }>(
    '/inventory/v1/aggregate',
    {
      schema: {
        tags,
        summary: 'Aggregate the workspace’s assets: term, rareTerm, cardinality, filter, nested, reverseNested, nestable',
        body: {
          type: 'object',
          properties: { workspaces: { type: 'array', nullable: true, items: { type: 'string' } }, query: { type: 'string', nullable: true }, aggregation: {} },
        },
      },
      config,
    },
    async (req) => {
      const b = req.body ?? {};
      return unwrap(
        await aggregateInventory(ctx, req.caller!.workspaceId, {
          workspaces: (b.workspaces as string[] | null | undefined) ?? undefined,
          query: b.query as string | null | undefined,
          aggregation: b.aggregation,
        }),
      );
    },
  );

  app.get<{ Querystring: { fields?: string[] } }>(
    '/inventory/v1/fields',
    {
      schema: { tags, summary: 'The inventory’s fields, or those named (paths or object prefixes)', querystring: { type: 'object', properties: { fields: list } } },
      config,
    },
    async (req) => ({ fields: unwrap(inventoryFields(req.query.fields)) }),
  );

  await savedQueryRoutes(app, ctx);
  await cloudRoutes(app, ctx);
  await betaRoutes(app, ctx);
}
