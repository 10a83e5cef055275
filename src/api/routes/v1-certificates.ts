/**
 * The legacy v1 certificate endpoints that censys-python 2.1.9 (SDK and CLI) still call: page-
 * numbered search, view, report and bulk, without the v2 envelope. v1 field names such as
 * `parsed.names` map onto the v2 schema.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { SearchContext } from '../../search/search-context.ts';
import { compile } from '../../search/compile.ts';
import { aggregateDocuments } from '../../search/aggregate-documents.ts';
import { parseFingerprint } from '../../search/document-ids.ts';
import { viewCertificate } from '../../search/view-document.ts';
import { valuesOf } from '../../model/values-of.ts';
import { projectFields } from '../../model/project-fields.ts';
import { ProblemError, unwrap } from '../../lib/problem.ts';
import type { SortPosition } from '../../engine/search-engine.ts';

const config = { family: 'search-v1' as const, auth: 'basic' as const, quota: true };
const tags = ['Legacy v1'];
const V1_ALIASES = /\bparsed\.(names|fingerprint_sha256|fingerprint_sha1|fingerprint_md5|tbs_fingerprint_sha256)\b/g;
export const V1_PAGE_SIZE = 100;
const MAX_V1_PAGES = 1000;

function v2Path(ctx: SearchContext, v1: string): string | undefined {
  const cat = ctx.catalogues.certificates;
  if (cat.get(v1) || cat.isPrefix(v1)) return cat.get(v1)?.docPath ?? v1;
  if (v1.startsWith('parsed.')) {
    const rest = v1.slice('parsed.'.length);
    if (cat.get(rest) || cat.isPrefix(rest)) return cat.get(rest)?.docPath ?? rest;
  }
  return undefined;
}

function crossesArray(doc: unknown, path: string): boolean {
  let node = doc;
  for (const part of path.split('.')) {
    if (Array.isArray(node)) return true;
    if (node === null || typeof node !== 'object') return false;
    node = (node as Record<string, unknown>)[part];
  }
  return Array.isArray(node);
}

function v1Query(q: string | undefined): string {
  return (q ?? '').replace(V1_ALIASES, '$1');
}

export async function v1CertificateRoutes(app: FastifyInstance, ctx: SearchContext): Promise<void> {
  const SearchBody = Type.Object(
    {
      query: Type.Optional(Type.String()),
      page: Type.Optional(Type.Integer({ minimum: 1 })),
      fields: Type.Optional(Type.Array(Type.String())),
      flatten: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: true },
  );
  app.post<{ Body: Static<typeof SearchBody> }>(
    '/v1/search/certificates',
    { schema: { tags, summary: 'Search certificates by page (v1)', body: SearchBody }, config },
    async (req) => {
      const started = performance.now();
      const body = req.body ?? {};
      const page = body.page ?? 1;
      if (page > MAX_V1_PAGES) throw new ProblemError({ code: 'invalid_request', message: `page is limited to ${MAX_V1_PAGES}` });
      const query = unwrap(compile(ctx, 'certificates', v1Query(body.query)));
      const fields = body.fields && body.fields.length > 0 ? body.fields : ['parsed.fingerprint_sha256', 'parsed.subject_dn', 'parsed.issuer_dn'];
      const paths = fields.map((f) => {
        const p = v2Path(ctx, f);
        if (!p) throw new ProblemError({ code: 'invalid_field', message: `Invalid field: '${f}'` });
        return { v1: f, path: p };
      });
      let after: SortPosition | undefined;
      let total = 0;
      let ids: string[] = [];
      for (let p = 1; p <= page; p++) {
        const r = ctx.engine.search('certificates', { query, limit: V1_PAGE_SIZE, ...(after ? { after } : {}) });
        total = r.total;
        ids = r.hits.map((h) => h.id);
        if (r.hits.length === 0) break;
        after = r.hits[r.hits.length - 1].position;
      }
      const docs = new Map((await ctx.store.documents.getMany('certificates', ids)).map((d) => [d.id, d.doc]));
      const results = ids.flatMap((id) => {
        const doc = docs.get(id);
        if (!doc) return [];
        if (body.flatten === false) return [projectFields(doc, paths.map((p) => p.path))];
        const out: Record<string, unknown> = {};
        for (const p of paths) {
          const values = valuesOf(doc, p.path);
          if (values.length === 0) continue;
          // A value stored as a list stays a list (`parsed.names`); a scalar stays a scalar.
          out[p.v1] = values.length === 1 && !crossesArray(doc, p.path) ? values[0] : values;
        }
        return [out];
      });
      return {
        status: 'ok',
        metadata: {
          count: total,
          query: body.query ?? '',
          page,
          pages: Math.max(1, Math.ceil(total / V1_PAGE_SIZE)),
          backend_time: Math.round(performance.now() - started),
        },
        results,
      };
    },
  );

  app.get<{ Params: { fp: string } }>(
    '/v1/view/certificates/:fp',
    { schema: { tags, summary: 'View a certificate (v1)', params: Type.Object({ fp: Type.String() }) }, config },
    async (req) => unwrap(await viewCertificate(ctx, req.params.fp)),
  );

  const ReportBody = Type.Object(
    { query: Type.Optional(Type.String()), field: Type.String(), buckets: Type.Optional(Type.Integer({ minimum: 1 })) },
    { additionalProperties: true },
  );
  app.post<{ Body: Static<typeof ReportBody> }>(
    '/v1/report/certificates',
    { schema: { tags, summary: 'Aggregate certificates (v1)', body: ReportBody }, config },
    async (req) => {
      const field = v2Path(ctx, req.body.field) ?? req.body.field;
      const r = unwrap(aggregateDocuments(ctx, 'certificates', { q: v1Query(req.body.query), field, numBuckets: req.body.buckets ?? 50 }));
      return {
        status: 'ok',
        results: r.buckets.map((b) => ({ key: b.key, doc_count: b.count })),
        metadata: {
          count: r.total,
          backend_time: r.duration_ms,
          nonnull_count: r.total,
          other_result_count: r.total_omitted,
          buckets: r.buckets.length,
          error_bound: 0,
          query: req.body.query ?? '',
        },
      };
    },
  );

  const BulkBody = Type.Object({ fingerprints: Type.Array(Type.String(), { maxItems: 50 }) }, { additionalProperties: true });
  app.post<{ Body: Static<typeof BulkBody> }>(
    '/v1/bulk/certificates',
    { schema: { tags, summary: 'View up to 50 certificates (v1)', body: BulkBody }, config },
    async (req) => {
      const out: Record<string, unknown> = {};
      const valid: string[] = [];
      for (const raw of req.body.fingerprints) {
        const fp = parseFingerprint(raw);
        if (fp.ok) valid.push(fp.value);
        else out[raw] = { error: fp.problem.message, error_type: 'invalid', status: 'error' };
      }
      const docs = new Map((await ctx.store.documents.getMany('certificates', valid)).map((d) => [d.id, d.doc]));
      for (const fp of valid) {
        out[fp] = docs.get(fp) ?? { error: 'We do not know anything about this certificate.', error_type: 'unknown', status: 'error' };
      }
      return out;
    },
  );

  app.get('/v1/data', { schema: { tags, summary: 'Data series (none are published by this instance)' }, config: { ...config, quota: false } }, async () => ({
    primary_series: {},
    raw_series: {},
  }));
}
