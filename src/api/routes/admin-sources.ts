/**
 * `GET /api/admin/v1/sources`: the enrichment sources this server uses (version, build date, load
 * time of each) and the ones recorded by the last ingest run, so operators can see what enriched
 * their data. Same authentication as the admin ingest endpoint (Bearer ingest token).
 */
import type { FastifyInstance } from 'fastify';
import type { SearchContext } from '../../search/search-context.ts';
import { ProblemError } from '../../lib/problem.ts';
import { ENRICH_SOURCES_SETTING, sharedEnricher, sourceJson, type EnrichSource, type Enricher } from '../../ingest/enrich/index.ts';
import { tokenMatches } from './admin-ingest.ts';

export interface AdminSourcesOptions {
  /** The enricher whose sources are shown (default: the process-wide one). */
  readonly enricher?: Pick<Enricher, 'sources'> & { cloudRanges?: Pick<NonNullable<Enricher['cloudRanges']>, 'skipped'> };
}

function lastIngest(text: string | undefined): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as { recordedAt?: string; sources?: EnrichSource[] };
    return { recorded_at: v.recordedAt ?? null, sources: (v.sources ?? []).map(sourceJson) };
  } catch {
    return null;
  }
}

export async function adminSourcesRoutes(app: FastifyInstance, ctx: SearchContext, options: AdminSourcesOptions = {}): Promise<void> {
  app.get(
    '/admin/v1/sources',
    {
      schema: { tags: ['Admin'], summary: 'Enrichment sources with versions and build dates (Bearer ingest token)' },
      config: { family: 'search', auth: 'none' },
    },
    async (req, reply) => {
      if (!(await tokenMatches(ctx, req.headers.authorization))) {
        throw new ProblemError({ code: 'unauthorized', message: 'Authenticate with Authorization: Bearer <ingest token>.' });
      }
      const enricher = options.enricher ?? sharedEnricher();
      return reply.send({
        sources: enricher.sources().map(sourceJson),
        skipped: enricher.cloudRanges?.skipped() ?? [],
        last_ingest: lastIngest(await ctx.store.settings.get(ENRICH_SOURCES_SETTING)),
      });
    },
  );
}
