/** `/beta/...` (contract §2B.10): logbook data, cloud-connector assets, input assets, counts, user workspaces. */
import type { FastifyInstance } from 'fastify';
import type { AsmContext } from '../../../asm/index.ts';
import { addCloudAssets, assetCounts, getLogbookData, hostCountsByCountry, inputAssets } from '../../../asm/beta/index.ts';
import { ProblemError, unwrap } from '../../../lib/problem.ts';

const config = { family: 'asm', auth: 'asm' } as const;
const tags = ['ASM Beta'];
const countsQuery = {
  type: 'object',
  properties: { since: { type: 'string' }, environment: { type: 'string' }, assetType: { type: 'string' } },
} as const;

export async function betaRoutes(app: FastifyInstance, ctx: AsmContext): Promise<void> {
  app.post<{ Body: { filters?: unknown; nextWindowCursor?: unknown } }>(
    '/beta/logbook/getLogbookData',
    {
      schema: {
        tags,
        summary: 'Logbook events in windows, with the beta filters; results [] means caught up',
        body: { type: 'object', properties: { filters: {}, nextWindowCursor: {} } },
      },
      config,
    },
    async (req) => unwrap(await getLogbookData(ctx, req.caller!.workspaceId, req.body ?? {})),
  );

  app.post<{ Body: unknown }>(
    '/beta/cloudConnector/addCloudAssets',
    { schema: { tags, summary: 'Add object storage reported by a cloud connector (STORAGE_BUCKET assets, source CLOUD_CONNECTOR)' }, config },
    async (req) => unwrap(await addCloudAssets(ctx, req.caller!.workspaceId, req.body)),
  );

  app.get<{ Querystring: { pageNumber?: number; pageSize?: number } }>(
    '/beta/assets/inputAssets',
    {
      schema: {
        tags,
        summary: 'The workspace’s seeds and cloud-connector inputs, one page',
        querystring: { type: 'object', properties: { pageNumber: { type: 'integer' }, pageSize: { type: 'integer' } } },
      },
      config,
    },
    async (req) => unwrap(await inputAssets(ctx, req.caller!.workspaceId, req.query.pageNumber, req.query.pageSize)),
  );

  app.get<{ Querystring: { since?: string; environment?: string; assetType?: string } }>(
    '/beta/assets/counts',
    { schema: { tags, summary: 'Asset counts by environment since a time', querystring: countsQuery }, config },
    async (req) => unwrap(await assetCounts(ctx, req.caller!.workspaceId, req.query)),
  );

  app.get<{ Querystring: { since?: string; environment?: string } }>(
    '/beta/assets/hostCountsByCountry',
    { schema: { tags, summary: 'Host counts by country and environment since a time', querystring: countsQuery }, config },
    async (req) => unwrap(await hostCountsByCountry(ctx, req.caller!.workspaceId, req.query)),
  );

  app.get<{ Params: { userUuid: string } }>(
    '/beta/users/:userUuid/workspaces',
    {
      schema: { tags, summary: 'The workspaces of a user (yourself; an admin may ask about anyone)', params: { type: 'object', properties: { userUuid: { type: 'string' } } } },
      config,
    },
    async (req) => {
      const caller = req.caller!;
      const user = req.params.userUuid === caller.id ? caller : undefined;
      if (!user && caller.role !== 'admin') {
        throw new ProblemError({ code: 'forbidden', message: 'Only your own workspaces can be listed' });
      }
      const target = user ?? (await ctx.store.users.get(req.params.userUuid));
      // A bare array (contract §2B.10).
      return target ? [{ workspace: target.workspaceId, roles: [target.role] }] : [];
    },
  );
}
