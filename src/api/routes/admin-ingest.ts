/**
 * `POST /api/admin/v1/ingest?format=<name|auto>&dry_run=true|false`: remote scanners push their
 * output (any content type, gzip recognised by its magic bytes) and get the ingest summary back.
 *
 * Authentication is its own: `Authorization: Bearer <ingest token>`, checked against the token's
 * SHA-256 kept in the store's settings (main/admin-account.ts sets it from PERISCOPE_INGEST_TOKEN
 * or generates one on first start). The body is streamed through the pipeline, never buffered;
 * ingests run one at a time so two pushes about the same host cannot overwrite each other's merge.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Transform, pipeline, type Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { SearchContext } from '../../search/search-context.ts';
import { Indexer } from '../../search/indexer.ts';
import { ProblemError } from '../../lib/problem.ts';
import { recordEnrichSources, sharedEnricher, type EnrichSource, type Enrichment } from '../../ingest/enrich/index.ts';
import { checkFormat, formatNames, ingestStream, type IngestSummary } from '../../ingest/pipeline/index.ts';

/** Settings key holding the hex SHA-256 of the ingest token. */
export const INGEST_TOKEN_SETTING = 'ingest.token_sha256';

export function ingestTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface AdminIngestOptions {
  /** Largest accepted body in bytes (default 1 GiB). */
  readonly bodyLimit?: number;
  /** Rejected records listed in the answer (the count covers all). */
  readonly maxRejectedListed?: number;
  readonly enricher?: { enrich(ip: string): Enrichment | undefined; sources?(): EnrichSource[] };
  readonly serviceExpiryMs?: number;
  /** The server's indexer, so its listeners (ASM discovery) hear pushed documents; a private one otherwise. */
  readonly indexer?: Indexer;
}

class BodyTooLarge extends Error {}

function limited(input: Readable, max: number): Readable {
  let size = 0;
  const out = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > max) done(new BodyTooLarge(`request body larger than ${max} bytes`));
      else done(null, chunk);
    },
  });
  return pipeline(input, out, () => undefined);
}

function isReadable(v: unknown): v is Readable {
  return !!v && typeof (v as Readable).pipe === 'function' && typeof (v as Readable).on === 'function';
}

/** True when `header` is `Bearer <the instance's ingest token>` (shared by the admin routes). */
export async function tokenMatches(ctx: SearchContext, header: string | undefined): Promise<boolean> {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return false;
  const want = await ctx.store.settings.get(INGEST_TOKEN_SETTING);
  if (!want || !/^[0-9a-f]{64}$/.test(want)) return false;
  return timingSafeEqual(Buffer.from(ingestTokenHash(m[1]), 'hex'), Buffer.from(want, 'hex'));
}

function present(summary: IngestSummary, formats: { name: string; format?: string }[], listed: number): Record<string, unknown> {
  return {
    format: formats[0]?.format ?? null,
    dry_run: summary.dryRun,
    records: summary.records,
    host_observations: summary.hostObservations,
    certificate_observations: summary.certificateObservations,
    hosts: {
      created: summary.hosts.created,
      updated: summary.hosts.updated,
      unchanged: summary.hosts.unchanged,
      history_updated: summary.hosts.historyUpdated,
    },
    services: summary.services,
    certificates: { new: summary.certificates.new, seen_again: summary.certificates.seenAgain },
    rejected: { count: summary.rejected.count, records: summary.rejected.kept.slice(0, listed) },
  };
}

export async function adminIngestRoutes(app: FastifyInstance, ctx: SearchContext, options: AdminIngestOptions = {}): Promise<void> {
  const bodyLimit = options.bodyLimit ?? 1024 ** 3;
  const listed = options.maxRejectedListed ?? 1000;
  const indexer = options.indexer ?? new Indexer(ctx);
  let queue: Promise<unknown> = Promise.resolve();

  await app.register(async (scope) => {
    // Raw input of any type: hand the request stream to the handler unread.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.post(
      '/admin/v1/ingest',
      {
        bodyLimit,
        schema: {
          tags: ['Admin'],
          summary: 'Ingest scanner output or certificates (raw body; Bearer ingest token)',
          querystring: {
            type: 'object',
            properties: {
              format: { type: 'string', default: 'auto', description: `auto, or one of: ${formatNames().join(', ')}` },
              dry_run: { type: 'boolean', default: false },
            },
          },
        },
        config: { family: 'search', auth: 'none' },
      },
      async (req, reply) => {
        if (!(await tokenMatches(ctx, req.headers.authorization))) {
          throw new ProblemError({ code: 'unauthorized', message: 'Authenticate with Authorization: Bearer <ingest token>.' });
        }
        const q = req.query as { format?: string; dry_run?: boolean };
        const f = checkFormat(q.format);
        if (!f.ok) throw new ProblemError({ code: 'invalid_request', message: `${f.error}; known formats: auto, ${formatNames().join(', ')}` });
        const body = isReadable(req.body) ? req.body : req.raw;
        const run = queue.then(() =>
          ingestStream([{ name: '', open: () => limited(body, bodyLimit) }], q.format, {
            indexer,
            store: ctx.store,
            enricher: options.enricher ?? sharedEnricher(),
            now: ctx.now,
            dryRun: q.dry_run === true,
            serviceExpiryMs: options.serviceExpiryMs,
            maxRejectedKept: listed,
          }),
        );
        queue = run.catch(() => undefined);
        let result: Awaited<typeof run>;
        try {
          result = await run;
        } catch (e) {
          if (e instanceof BodyTooLarge) throw new ProblemError({ code: 'payload_too_large', message: e.message });
          throw e;
        }
        if (!result.ok) throw new ProblemError({ code: 'invalid_request', message: result.error });
        const { summary, formats } = result.value;
        if (!formats[0]?.format) {
          throw new ProblemError({ code: 'invalid_request', message: 'The input format was not recognised; name it with ?format=.' });
        }
        const enricher = options.enricher ?? sharedEnricher();
        if (!summary.dryRun && enricher.sources) await recordEnrichSources(ctx.store.settings, enricher.sources());
        return reply.send(present(summary, formats, listed));
      },
    );
  });
}
