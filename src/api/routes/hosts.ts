import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { SearchContext } from '../../search/search-context.ts';
import { searchDocuments } from '../../search/search-documents.ts';
import { aggregateDocuments } from '../../search/aggregate-documents.ts';
import { viewHostJson } from '../../search/view-document.ts';
import { hostCertificates, hostDiff, hostEvents, hostNames } from '../../search/host-history.ts';
import { boolParam, sendSearchPage, sendV2Json, v2, v2Result } from '../envelope.ts';
import { searchParams } from '../search-params.ts';
import { AggregateQuery, SearchBody, SearchQuery } from '../schemas.ts';
import { SERVICE_NAMES } from '../../search/service-names.ts';

const tags = ['Hosts'];
const config = { family: 'search' as const, auth: 'basic' as const };

export async function hostRoutes(app: FastifyInstance, ctx: SearchContext): Promise<void> {
  app.get<{ Querystring: Static<typeof SearchQuery> }>(
    '/v2/hosts/search',
    { schema: { tags, summary: 'Search hosts', querystring: SearchQuery }, config: { ...config, quota: true } },
    async (req, reply) => sendSearchPage(reply, await searchDocuments(ctx, 'hosts', searchParams(req.query))),
  );

  app.post<{ Body: Static<typeof SearchBody> }>(
    '/v2/hosts/search',
    { schema: { tags, summary: 'Search hosts (JSON body)', body: SearchBody }, config: { ...config, quota: true } },
    async (req, reply) => sendSearchPage(reply, await searchDocuments(ctx, 'hosts', searchParams(req.body))),
  );

  app.get<{ Querystring: Static<typeof AggregateQuery> }>(
    '/v2/hosts/aggregate',
    { schema: { tags, summary: 'Aggregate hosts by a field', querystring: AggregateQuery }, config: { ...config, quota: true } },
    async (req) => {
      const q = req.query;
      return v2Result(aggregateDocuments(ctx, 'hosts', { q: q.q, field: q.field, numBuckets: q.num_buckets, virtualHosts: q.virtual_hosts }));
    },
  );

  app.get('/v2/metadata/hosts', { schema: { tags, summary: 'Service names scanned for' }, config }, async () => v2({ services: SERVICE_NAMES }));

  const IdParams = Type.Object({ id: Type.String({ description: 'IP address, or ip+name for a virtual host' }) });

  app.get<{ Params: Static<typeof IdParams>; Querystring: { at_time?: string } }>(
    '/v2/hosts/:id',
    {
      schema: { tags, summary: 'View a host (now, or at a past time)', params: IdParams, querystring: Type.Object({ at_time: Type.Optional(Type.String()) }) },
      config: { ...config, quota: true },
    },
    async (req, reply) => sendV2Json(reply, await viewHostJson(ctx, req.params.id, req.query.at_time)),
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: { per_page?: number; cursor?: string } }>(
    '/v2/hosts/:id/names',
    {
      schema: {
        tags,
        summary: 'Names of a host',
        params: IdParams,
        querystring: Type.Object({ per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })), cursor: Type.Optional(Type.String()) }),
      },
      config,
    },
    async (req) => v2Result(await hostNames(ctx, req.params.id, req.query.per_page, req.query.cursor)),
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: { ip_b?: string; at_time?: string; at_time_b?: string } }>(
    '/v2/hosts/:id/diff',
    {
      schema: {
        tags,
        summary: 'Differences between a host at two times, or two hosts',
        params: IdParams,
        querystring: Type.Object({ ip_b: Type.Optional(Type.String()), at_time: Type.Optional(Type.String()), at_time_b: Type.Optional(Type.String()) }),
      },
      config,
    },
    async (req) => v2Result(await hostDiff(ctx, req.params.id, { ipB: req.query.ip_b, atTime: req.query.at_time, atTimeB: req.query.at_time_b })),
  );

  const EventsQuery = Type.Object({
    start_time: Type.Optional(Type.String()),
    end_time: Type.Optional(Type.String()),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
    cursor: Type.Optional(Type.String()),
    reversed: Type.Optional(Type.String({ description: 'true/false (True/False accepted)' })),
  });
  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof EventsQuery> }>(
    '/v2/experimental/hosts/:id/events',
    { schema: { tags, summary: 'Events in the history of a host', params: IdParams, querystring: EventsQuery }, config },
    async (req) => {
      const q = req.query;
      return v2Result(
        await hostEvents(ctx, req.params.id, {
          startTime: q.start_time,
          endTime: q.end_time,
          perPage: q.per_page,
          cursor: q.cursor,
          reversed: boolParam(q.reversed),
        }),
      );
    },
  );

  const CertsQuery = Type.Object({
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    start_time: Type.Optional(Type.String()),
    cursor: Type.Optional(Type.String()),
  });
  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof CertsQuery> }>(
    '/v2/hosts/:id/certificates',
    { schema: { tags, summary: 'Certificates a host has presented', params: IdParams, querystring: CertsQuery }, config },
    async (req) =>
      v2Result(await hostCertificates(ctx, req.params.id, { perPage: req.query.per_page, startTime: req.query.start_time, cursor: req.query.cursor })),
  );
}
