/**
 * The HTTP server: one Fastify app with both API families under /api (contract §1.1). Routes are
 * thin; the guard, error handling and OpenAPI are plugins registered here once.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { SearchContext } from '../search/search-context.ts';
import type { Indexer } from '../search/indexer.ts';
import type { Authenticator } from '../users/accounts.ts';
import { registerErrorHandling, registerJsonParser } from './plugins/errors.ts';
import { registerGuard, type RateLimit } from './plugins/guard.ts';
import { registerRenderAhead } from './plugins/render-ahead.ts';
import { registerEngineWarmer } from './plugins/warm-engine.ts';
import { hostRoutes } from './routes/hosts.ts';
import { certificateRoutes } from './routes/certificates.ts';
import { annotationRoutes } from './routes/annotations.ts';
import { accountRoutes } from './routes/account.ts';
import { v1CertificateRoutes } from './routes/v1-certificates.ts';
import { adminIngestRoutes } from './routes/admin-ingest.ts';
import { adminSourcesRoutes } from './routes/admin-sources.ts';
import './route-config.ts';
import { createAsmContext, withDiscovery, type AsmContext } from '../asm/index.ts';
import { registerAsmGuard } from './plugins/asm-guard.ts';
import { asmRoutes } from './routes/asm/index.ts';

export interface AppOptions {
  readonly ctx: SearchContext;
  readonly auth: Authenticator;
  readonly rateLimit: RateLimit;
  /** Largest accepted request body in bytes. */
  readonly bodyLimit: number;
  /** pino options, or false for no request logging. */
  readonly logger: boolean | Record<string, unknown>;
  readonly version: string;
  /** The ASM use cases' context; a plain one over ctx.store when absent. */
  readonly asm?: AsmContext;
  /** The runtime's indexer: documents pushed to the admin ingest endpoint reach its listeners (discovery). */
  readonly indexer?: Indexer;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger,
    bodyLimit: options.bodyLimit,
    // Ids such as `1.1.1.1+name` and IPv6 addresses are long; 2.1.9 risk types contain '/'.
    routerOptions: { maxParamLength: 2048, ignoreTrailingSlash: false },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false } },
  });
  registerJsonParser(app);
  registerErrorHandling(app);
  registerRenderAhead(app, options.ctx.store);
  registerEngineWarmer(app, options.ctx.engine);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Periscope',
        version: options.version,
        description:
          'Self-hosted internet asset search, wire-compatible with the Censys Search API v2. Authenticate with HTTP Basic (API id and secret).',
      },
      servers: [{ url: '/api' }],
      components: {
        securitySchemes: {
          basicAuth: { type: 'http', scheme: 'basic' },
          asmApiKey: { type: 'apiKey', in: 'header', name: 'Censys-Api-Key' },
          ingestToken: { type: 'http', scheme: 'bearer', description: 'the ingest token (admin endpoints)' },
        },
      },
      security: [{ basicAuth: [] }],
    },
  });
  await app.register(
    async (api) => {
      // The OpenAPI document states each route's credential from its config: ASM routes take the key header.
      api.addHook('onRoute', (route) => {
        const auth = (route.config as { auth?: string } | undefined)?.auth;
        if (auth === 'asm') route.schema = { ...route.schema, security: [{ asmApiKey: [] }] };
        else if (route.url.includes('/admin/')) route.schema = { ...route.schema, security: [{ ingestToken: [] }] };
        else if (auth === 'none' || auth === undefined) route.schema = { ...route.schema, security: [] };
      });
      registerGuard(api, { store: options.ctx.store, auth: options.auth, rateLimit: options.rateLimit, now: () => options.ctx.now() });
      await accountRoutes(api, options.ctx);
      await hostRoutes(api, options.ctx);
      await certificateRoutes(api, options.ctx);
      await annotationRoutes(api, options.ctx);
      await v1CertificateRoutes(api, options.ctx);
      await adminIngestRoutes(api, options.ctx, { indexer: options.indexer });
      await adminSourcesRoutes(api, options.ctx);
      // ASM API (contract §2B): Censys-Api-Key auth, ASM error shapes.
      registerAsmGuard(api, { auth: options.auth, rateLimit: options.rateLimit });
      await asmRoutes(
        api,
        options.asm ??
          withDiscovery(createAsmContext(options.ctx.store, () => options.ctx.now(), (err) => app.log.error({ err }, 'an ASM listener failed'), options.ctx)),
      );
      api.get('/openapi.json', { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger());
    },
    { prefix: '/api' },
  );
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { url: '/api/openapi.json' } as Record<string, unknown> });
  app.get('/', { schema: { hide: true } }, async (_req, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><meta charset="utf-8"><title>Periscope</title><h1>Periscope</h1>' +
          '<p>Censys-compatible search API at <code>/api</code>. Browse the API: <a href="/api/docs">/api/docs</a> · ' +
          '<a href="/api/openapi.json">OpenAPI document</a>.</p>',
      ),
  );
  return app;
}
