import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { IndexName } from '../../model/field-def.ts';
import type { SearchContext } from '../../search/search-context.ts';
import * as uc from '../../search/annotations.ts';
import { unwrap } from '../../lib/problem.ts';
import { noContent, v2 } from '../envelope.ts';
import { CommentBody, TagBody } from '../schemas.ts';

const config = { family: 'search' as const, auth: 'basic' as const };

function caller(req: FastifyRequest): uc.Caller {
  // The guard runs before every route with auth 'basic' and sets the caller.
  const u = req.caller!;
  return { userId: u.id, workspaceId: u.workspaceId };
}

const DOCS: readonly { index: IndexName; path: string; key: 'ip' | 'fingerprint'; tag: string }[] = [
  { index: 'hosts', path: 'hosts', key: 'ip', tag: 'Hosts' },
  { index: 'certificates', path: 'certificates', key: 'fingerprint', tag: 'Certificates' },
];

export async function annotationRoutes(app: FastifyInstance, ctx: SearchContext): Promise<void> {
  const DocParams = Type.Object({ id: Type.String() });
  const CommentParams = Type.Object({ id: Type.String(), commentId: Type.String() });
  const TagParams = Type.Object({ id: Type.String(), tagId: Type.String() });

  for (const d of DOCS) {
    const tags = [d.tag, 'Comments'];
    app.get<{ Params: Static<typeof DocParams> }>(
      `/v2/${d.path}/:id/comments`,
      { schema: { tags, summary: `Comments on a ${d.index === 'hosts' ? 'host' : 'certificate'}`, params: DocParams }, config },
      async (req) => {
        const r = unwrap(await uc.listComments(ctx, caller(req), d.index, req.params.id));
        return v2({ [d.key]: r.docId, comments: r.comments.map(uc.presentComment) });
      },
    );
    app.get<{ Params: Static<typeof CommentParams> }>(
      `/v2/${d.path}/:id/comments/:commentId`,
      { schema: { tags, summary: 'One comment', params: CommentParams }, config },
      async (req) => v2(uc.presentComment(unwrap(await uc.getComment(ctx, caller(req), d.index, req.params.id, req.params.commentId)))),
    );
    app.post<{ Params: Static<typeof DocParams>; Body: Static<typeof CommentBody> }>(
      `/v2/${d.path}/:id/comments`,
      { schema: { tags, summary: 'Add a comment (markdown)', params: DocParams, body: CommentBody }, config },
      async (req) => v2(uc.presentComment(unwrap(await uc.addComment(ctx, caller(req), d.index, req.params.id, req.body?.contents)))),
    );
    app.put<{ Params: Static<typeof CommentParams>; Body: Static<typeof CommentBody> }>(
      `/v2/${d.path}/:id/comments/:commentId`,
      { schema: { tags, summary: 'Change a comment', params: CommentParams, body: CommentBody }, config },
      async (req) =>
        v2(uc.presentComment(unwrap(await uc.updateComment(ctx, caller(req), d.index, req.params.id, req.params.commentId, req.body?.contents)))),
    );
    app.delete<{ Params: Static<typeof CommentParams> }>(
      `/v2/${d.path}/:id/comments/:commentId`,
      { schema: { tags, summary: 'Delete a comment', params: CommentParams }, config },
      async (req, reply) => {
        const remaining = unwrap(await uc.deleteComment(ctx, caller(req), d.index, req.params.id, req.params.commentId));
        // Hosts answer 204, certificates 200 with the remaining comments (contract §2A.10).
        if (d.index === 'hosts') return noContent(reply);
        return v2({ [d.key]: remaining.docId, comments: remaining.comments.map(uc.presentComment) });
      },
    );
    app.get<{ Params: Static<typeof DocParams> }>(
      `/v2/${d.path}/:id/tags`,
      { schema: { tags: [d.tag, 'Tags'], summary: 'Tags on a document', params: DocParams }, config },
      async (req) => {
        const r = unwrap(await uc.tagsOfDocument(ctx, caller(req), d.index, req.params.id));
        return v2({ [d.key]: r.docId, tags: r.tags.map(uc.presentTag) });
      },
    );
    app.put<{ Params: Static<typeof TagParams> }>(
      `/v2/${d.path}/:id/tags/:tagId`,
      { schema: { tags: [d.tag, 'Tags'], summary: 'Tag a document', params: TagParams }, config },
      async (req, reply) => {
        unwrap(await uc.tagDocument(ctx, caller(req), d.index, req.params.id, req.params.tagId, true));
        return noContent(reply);
      },
    );
    app.delete<{ Params: Static<typeof TagParams> }>(
      `/v2/${d.path}/:id/tags/:tagId`,
      { schema: { tags: [d.tag, 'Tags'], summary: 'Untag a document', params: TagParams }, config },
      async (req, reply) => {
        unwrap(await uc.tagDocument(ctx, caller(req), d.index, req.params.id, req.params.tagId, false));
        return noContent(reply);
      },
    );
  }

  const tags = ['Tags'];
  const TagId = Type.Object({ id: Type.String() });
  app.get('/v2/tags', { schema: { tags, summary: 'Tags of your workspace' }, config }, async (req) =>
    v2({ tags: (await ctx.store.tags.list(caller(req).workspaceId)).map(uc.presentTag) }),
  );
  app.post<{ Body: Static<typeof TagBody> }>('/v2/tags', { schema: { tags, summary: 'Create a tag', body: TagBody }, config }, async (req) =>
    v2(uc.presentTag(unwrap(await uc.createTag(ctx, caller(req), req.body)))),
  );
  app.get<{ Params: Static<typeof TagId> }>('/v2/tags/:id', { schema: { tags, summary: 'One tag', params: TagId }, config }, async (req) =>
    v2(uc.presentTag(unwrap(await uc.getTag(ctx, caller(req), req.params.id)))),
  );
  app.put<{ Params: Static<typeof TagId>; Body: Static<typeof TagBody> }>(
    '/v2/tags/:id',
    { schema: { tags, summary: 'Rename or recolour a tag', params: TagId, body: TagBody }, config },
    async (req) => v2(uc.presentTag(unwrap(await uc.updateTag(ctx, caller(req), req.params.id, req.body)))),
  );
  app.delete<{ Params: Static<typeof TagId> }>('/v2/tags/:id', { schema: { tags, summary: 'Delete a tag', params: TagId }, config }, async (req, reply) => {
    unwrap(await uc.deleteTag(ctx, caller(req), req.params.id));
    return noContent(reply);
  });
  app.get<{ Params: Static<typeof TagId> }>('/v2/tags/:id/hosts', { schema: { tags, summary: 'Hosts with a tag', params: TagId }, config }, async (req) =>
    v2({ hosts: unwrap(await uc.documentsWithTag(ctx, caller(req), req.params.id, 'hosts')).map((d) => ({ ip: d.docId, tagged_at: d.taggedAt })) }),
  );
  app.get<{ Params: Static<typeof TagId> }>(
    '/v2/tags/:id/certificates',
    { schema: { tags, summary: 'Certificates with a tag', params: TagId }, config },
    async (req) =>
      v2({ certs: unwrap(await uc.documentsWithTag(ctx, caller(req), req.params.id, 'certificates')).map((d) => ({ fingerprint: d.docId, tagged_at: d.taggedAt })) }),
  );
}
