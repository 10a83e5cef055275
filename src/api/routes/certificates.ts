import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { SearchContext } from '../../search/search-context.ts';
import { searchDocuments } from '../../search/search-documents.ts';
import { aggregateDocuments } from '../../search/aggregate-documents.ts';
import { bulkCertificates, viewCertificateJson } from '../../search/view-document.ts';
import { certificateHosts, certificateObservations } from '../../search/host-history.ts';
import { parseFingerprint } from '../../search/document-ids.ts';
import { unwrap } from '../../lib/problem.ts';
import { listParam, sendSearchPage, sendV2Json, v2Result } from '../envelope.ts';
import { searchParams } from '../search-params.ts';
import { AggregateQuery, SearchBody, SearchQuery, StringOrList } from '../schemas.ts';

const tags = ['Certificates'];
const config = { family: 'search' as const, auth: 'basic' as const };
const FpParams = Type.Object({ fp: Type.String({ description: 'SHA-256 fingerprint (64 hex digits)' }) });

export async function certificateRoutes(app: FastifyInstance, ctx: SearchContext): Promise<void> {
  app.get<{ Querystring: Static<typeof SearchQuery> }>(
    '/v2/certificates/search',
    { schema: { tags, summary: 'Search certificates', querystring: SearchQuery }, config: { ...config, quota: true } },
    async (req, reply) => sendSearchPage(reply, await searchDocuments(ctx, 'certificates', searchParams(req.query))),
  );

  app.post<{ Body: Static<typeof SearchBody> }>(
    '/v2/certificates/search',
    { schema: { tags, summary: 'Search certificates (JSON body)', body: SearchBody }, config: { ...config, quota: true } },
    async (req, reply) => sendSearchPage(reply, await searchDocuments(ctx, 'certificates', searchParams(req.body))),
  );

  app.get<{ Querystring: Static<typeof AggregateQuery> }>(
    '/v2/certificates/aggregate',
    { schema: { tags, summary: 'Aggregate certificates by a field', querystring: AggregateQuery }, config: { ...config, quota: true } },
    async (req) => v2Result(aggregateDocuments(ctx, 'certificates', { q: req.query.q, field: req.query.field, numBuckets: req.query.num_buckets })),
  );

  app.get<{ Querystring: { fingerprints?: string[] } }>(
    '/v2/certificates/bulk',
    {
      schema: { tags, summary: 'View many certificates', querystring: Type.Object({ fingerprints: Type.Optional(Type.Array(Type.String())) }) },
      config: { ...config, quota: true },
    },
    async (req) => v2Result(await bulkCertificates(ctx, listParam(req.query.fingerprints) ?? [])),
  );

  app.post<{ Body: { fingerprints?: string | string[] } }>(
    '/v2/certificates/bulk',
    {
      schema: { tags, summary: 'View many certificates (JSON body)', body: Type.Object({ fingerprints: StringOrList }, { additionalProperties: true }) },
      config: { ...config, quota: true },
    },
    async (req) => v2Result(await bulkCertificates(ctx, listParam(req.body?.fingerprints) ?? [])),
  );

  app.get<{ Params: Static<typeof FpParams> }>(
    '/v2/certificates/:fp',
    { schema: { tags, summary: 'View a certificate', params: FpParams }, config: { ...config, quota: true } },
    async (req, reply) => sendV2Json(reply, await viewCertificateJson(ctx, req.params.fp)),
  );

  app.get<{ Params: Static<typeof FpParams>; Querystring: { cursor?: string } }>(
    '/v2/certificates/:fp/hosts',
    { schema: { tags, summary: 'Hosts presenting a certificate', params: FpParams, querystring: Type.Object({ cursor: Type.Optional(Type.String()) }) }, config },
    async (req) => {
      const fp = unwrap(parseFingerprint(req.params.fp));
      return v2Result(await certificateHosts(ctx, fp, req.query.cursor));
    },
  );

  const ObsQuery = Type.Object({
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    start_time: Type.Optional(Type.String()),
    end_time: Type.Optional(Type.String()),
    cursor: Type.Optional(Type.String()),
  });
  app.get<{ Params: Static<typeof FpParams>; Querystring: Static<typeof ObsQuery> }>(
    '/v2/certificates/:fp/observations',
    { schema: { tags, summary: 'Where and when a certificate was observed', params: FpParams, querystring: ObsQuery }, config },
    async (req) => {
      const fp = unwrap(parseFingerprint(req.params.fp));
      const q = req.query;
      return v2Result(await certificateObservations(ctx, fp, { perPage: q.per_page, startTime: q.start_time, endTime: q.end_time, cursor: q.cursor }));
    },
  );
}
