import type { ApiFamily } from './problem-status.ts';

/** Per-route settings read by the plugins (set in each route's `config`). */
export interface RouteConfig {
  /** Error body shape; also decides 401 vs 403 for bad credentials. */
  family?: ApiFamily;
  /** `basic`: Search API id/secret. `asm`: the `Censys-Api-Key` header. `none`: public (OpenAPI, docs). */
  auth?: 'basic' | 'asm' | 'none';
  /** Counts one query against the caller's quota. */
  quota?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig extends RouteConfig {}
}
