import type { ApiFamily } from './problem-status.ts';

/** Per-route settings read by the plugins (set in each route's `config`). */
export interface RouteConfig {
  /** Error body shape; also decides 401 vs 403 for bad credentials. */
  family?: ApiFamily;
  /** `basic`: Search API id/secret. `none`: public (OpenAPI, docs). */
  auth?: 'basic' | 'none';
  /** Counts one query against the caller's quota. */
  quota?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig extends RouteConfig {}
}
