/** `/v1/clouds/...` (contract §2B.5): asset counts by cloud provider since a day. */
import type { FastifyInstance } from 'fastify';
import type { AsmContext } from '../../../asm/index.ts';
import { cloudCounts, unknownCounts, type CountedFamily } from '../../../asm/clouds/index.ts';
import { unwrap } from '../../../lib/problem.ts';

const config = { family: 'asm', auth: 'asm' } as const;
const tags = ['ASM Clouds'];
const sinceParams = { type: 'object', properties: { since: { type: 'string' } } } as const;

const ROUTES: readonly { path: string; family: CountedFamily; what: string }[] = [
  { path: 'hostCounts', family: 'hosts', what: 'hosts' },
  { path: 'domainCounts', family: 'domains', what: 'domains (in the cloud of the hosts their name resolves to)' },
  { path: 'subdomainCounts', family: 'subdomains', what: 'subdomains (in the cloud of the hosts their name resolves to)' },
];

export async function cloudRoutes(app: FastifyInstance, ctx: AsmContext): Promise<void> {
  for (const r of ROUTES) {
    app.get<{ Params: { since: string } }>(
      `/v1/clouds/${r.path}/:since`,
      { schema: { tags, summary: `Counts of ${r.what} by cloud provider; new = associated on or after {since} (YYYY-MM-DD)`, params: sinceParams }, config },
      async (req) => unwrap(await cloudCounts(ctx, req.caller!.workspaceId, r.family, req.params.since)),
    );
  }

  app.get<{ Params: { since: string }; Querystring: { source?: 'CENSYS_SCAN' | 'CLOUD_CONNECTOR' } }>(
    '/v1/clouds/objectStoreCounts/:since',
    {
      schema: {
        tags,
        summary: 'Counts of storage buckets by cloud provider, optionally of one source',
        params: sinceParams,
        querystring: { type: 'object', properties: { source: { type: 'string', enum: ['CENSYS_SCAN', 'CLOUD_CONNECTOR'] } } },
      },
      config,
    },
    async (req) =>
      unwrap(await cloudCounts(ctx, req.caller!.workspaceId, 'objectStores', req.params.since, req.query.source ? { source: req.query.source } : {})),
  );

  app.get(
    '/v1/clouds/unknownCounts',
    { schema: { tags, summary: 'Known hosts (in declared address space) and unknown ones (found through names), by cloud provider' }, config },
    async (req) => unknownCounts(ctx, req.caller!.workspaceId),
  );
}
