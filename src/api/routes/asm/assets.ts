/**
 * Asset collections (contract §2B.3): hosts, certificates, domains, subdomains (both the newest
 * `/v1/assets/subdomains` and the 2.1.9 `/v1/assets/domains/{d}/subdomains` paths), web entities
 * and the beta object storages — list, get, comments and tags — as thin routes over asm/assets.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AsmContext } from '../../../asm/index.ts';
import {
  addComment,
  addTag,
  deleteComment,
  deleteTag,
  FAMILIES,
  getAsset,
  getComment,
  listAssets,
  listComments,
  listDomainSubdomains,
  webEntityInstances,
  TAG_OPERATORS,
  type AssetAddress,
  type AssetFamily,
  type PresentTarget,
} from '../../../asm/assets/index.ts';
import { unwrap } from '../../../lib/problem.ts';
import { queryFlag } from './query-flag.ts';

const config = { family: 'asm', auth: 'asm' } as const;

const listQuery = {
  type: 'object',
  properties: {
    pageNumber: { type: 'string' },
    pageSize: { type: 'string' },
    tag: { type: 'array', items: { type: 'string' } },
    tagOperator: { type: 'string', description: `one of ${TAG_OPERATORS.join(', ')}` },
    source: { type: 'array', items: { type: 'string' } },
    discoveryTrail: { type: 'string' },
  },
} as const;

const pageQuery = { type: 'object', properties: { pageNumber: { type: 'string' }, pageSize: { type: 'string' } } } as const;
const anyBody = {} as const;

interface ListQuery {
  pageNumber?: string;
  pageSize?: string;
  tag?: string[];
  tagOperator?: string;
  source?: string[];
  discoveryTrail?: string;
}

/** The API base as the caller reached it, so refUrls work behind any host name. */
export function apiBase(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}/api`;
}

function target(req: FastifyRequest, collectionPath: string): PresentTarget {
  const baseUrl = apiBase(req);
  return { baseUrl, collectionUrl: `${baseUrl}${collectionPath}`, includeTrail: false };
}

function author(req: FastifyRequest): string | null {
  return req.caller?.email ?? null;
}

/**
 * One family's routes below `prefix` (a collection path with `:domain` on 2.1.9 subdomain paths):
 * `prefix/:id`, `prefix/:id/comments[/:commentId]`, `prefix/:id/tags[/:name]`.
 */
async function memberRoutes(app: FastifyInstance, ctx: AsmContext, family: AssetFamily, prefix: string, tag: string): Promise<void> {
  const tags = [tag];
  type P = { id: string; domain?: string; commentId?: string; name?: string };
  const address = (p: P): AssetAddress => ({ family, rawId: p.id, ...(p.domain !== undefined ? { domain: p.domain } : {}) });
  const collection = (req: FastifyRequest<{ Params: P }>) => prefix.replace(':domain', req.params.domain ?? '');
  const ws = (req: FastifyRequest) => req.caller!.workspaceId;

  app.get<{ Params: P }>(`${prefix}/:id`, { schema: { tags, summary: `Get one of ${family.name}` }, config }, async (req) =>
    unwrap(await getAsset(ctx, ws(req), address(req.params), target(req, collection(req)))),
  );

  app.get<{ Params: P; Querystring: { pageNumber?: string; pageSize?: string } }>(
    `${prefix}/:id/comments`,
    { schema: { tags, summary: 'List comments (paged)', querystring: pageQuery }, config },
    async (req) => unwrap(await listComments(ctx, ws(req), address(req.params), req.query)),
  );

  app.get<{ Params: P }>(`${prefix}/:id/comments/:commentId`, { schema: { tags, summary: 'Get a comment' }, config }, async (req) =>
    unwrap(await getComment(ctx, ws(req), address(req.params), req.params.commentId!)),
  );

  app.post<{ Params: P; Body: unknown }>(
    `${prefix}/:id/comments`,
    { schema: { tags, summary: 'Add a comment {"markdown": "..."}', body: anyBody }, config },
    async (req) => unwrap(await addComment(ctx, ws(req), address(req.params), req.body, author(req))),
  );

  app.delete<{ Params: P }>(`${prefix}/:id/comments/:commentId`, { schema: { tags, summary: 'Delete a comment' }, config }, async (req) => {
    unwrap(await deleteComment(ctx, ws(req), address(req.params), req.params.commentId!));
    return {};
  });

  app.post<{ Params: P; Body: unknown }>(
    `${prefix}/:id/tags`,
    { schema: { tags, summary: 'Tag the asset {"name": "...", "color": "#rrggbb"?}', body: anyBody }, config },
    async (req) => unwrap(await addTag(ctx, ws(req), address(req.params), req.body)),
  );

  app.delete<{ Params: P }>(`${prefix}/:id/tags/:name`, { schema: { tags, summary: 'Remove a tag by name' }, config }, async (req) => {
    unwrap(await deleteTag(ctx, ws(req), address(req.params), req.params.name!));
    return {};
  });
}

async function collectionRoutes(app: FastifyInstance, ctx: AsmContext, family: AssetFamily, tag: string): Promise<void> {
  app.get<{ Querystring: ListQuery }>(
    family.path,
    { schema: { tags: [tag], summary: `List ${family.name} (paged; tag, source and discoveryTrail filters)`, querystring: listQuery }, config },
    async (req) => {
      const q = req.query;
      return unwrap(
        await listAssets(
          ctx,
          req.caller!.workspaceId,
          family,
          { ...q, discoveryTrail: queryFlag('discoveryTrail', q.discoveryTrail) },
          target(req, family.path),
        ),
      );
    },
  );
  await memberRoutes(app, ctx, family, family.path, tag);
}

export async function assetRoutes(app: FastifyInstance, ctx: AsmContext): Promise<void> {
  await collectionRoutes(app, ctx, FAMILIES.hosts, 'ASM Hosts');
  await collectionRoutes(app, ctx, FAMILIES.certificates, 'ASM Certificates');
  await collectionRoutes(app, ctx, FAMILIES.domains, 'ASM Domains');
  await collectionRoutes(app, ctx, FAMILIES.subdomains, 'ASM Subdomains');
  await collectionRoutes(app, ctx, FAMILIES['object-storages'], 'ASM Object Storages (beta)');

  // 2.1.9's subdomain class chains off the parent domain.
  const domainSubdomains = '/v1/assets/domains/:domain/subdomains';
  app.get<{ Params: { domain: string }; Querystring: ListQuery }>(
    domainSubdomains,
    { schema: { tags: ['ASM Subdomains'], summary: "List a domain's subdomains (paged)", querystring: listQuery }, config },
    async (req) => {
      const q = req.query;
      return unwrap(
        await listDomainSubdomains(
          ctx,
          req.caller!.workspaceId,
          req.params.domain,
          { ...q, discoveryTrail: queryFlag('discoveryTrail', q.discoveryTrail) },
          target(req, domainSubdomains.replace(':domain', req.params.domain)),
        ),
      );
    },
  );
  await memberRoutes(app, ctx, FAMILIES.subdomains, domainSubdomains, 'ASM Subdomains');

  // The clients list web entities through inventory search only; the list is here for completeness.
  const webEntities = FAMILIES['web-entities'];
  await collectionRoutes(app, ctx, webEntities, 'ASM Web Entities');
  app.get<{ Params: { id: string }; Querystring: { pageSize?: string; cursor?: string } }>(
    `${webEntities.path}/:id/instances`,
    {
      schema: {
        tags: ['ASM Web Entities'],
        summary: 'Hosts serving a web entity (cursor paging; cursor null on the last page)',
        querystring: { type: 'object', properties: { pageSize: { type: 'string' }, cursor: { type: 'string' } } },
      },
      config,
    },
    async (req) => unwrap(await webEntityInstances(ctx, req.caller!.workspaceId, req.params.id, req.query, target(req, webEntities.path))),
  );
}
