/** `/v1/seeds` (contract §2B.2): thin routes over the seed use cases. */
import type { FastifyInstance } from 'fastify';
import {
  addSeeds,
  deleteSeed,
  deleteSeedsByLabel,
  getSeed,
  listSeeds,
  replaceSeedsByLabel,
  type AsmContext,
} from '../../../asm/index.ts';
import { ProblemError, unwrap } from '../../../lib/problem.ts';
import { presentRemovedSeed, presentSeed } from './seed-presenter.ts';
import { queryFlag } from './query-flag.ts';

const config = { family: 'asm', auth: 'asm' } as const;
const tags = ['ASM Seeds'];

// Seed items are checked by the use case, which answers 10038/10007 rather than a schema's 10008;
// extra keys (id, source, createdOn from an exported list) are accepted and ignored.
const seedsBody = {
  type: 'object',
  required: ['seeds'],
  properties: { seeds: { type: 'array', items: {} } },
} as const;

const idParams = { type: 'object', properties: { id: { type: 'string' } } } as const;

function requiredLabel(label: string | undefined): string {
  // An empty label would silently address every unlabelled seed; scripts that mean it can't send it.
  if (!label) throw new ProblemError({ code: 'invalid_request', message: "Query parameter 'label' is required and must not be empty." });
  return label;
}

export async function seedRoutes(app: FastifyInstance, ctx: AsmContext): Promise<void> {
  app.get<{ Querystring: { type?: string; label?: string } }>(
    '/v1/seeds',
    {
      schema: {
        tags,
        summary: 'List seeds, optionally by type and label',
        querystring: { type: 'object', properties: { type: { type: 'string' }, label: { type: 'string' } } },
      },
      config,
    },
    async (req) => {
      const seeds = unwrap(await listSeeds(ctx, req.caller!.workspaceId, { type: req.query.type, label: req.query.label }));
      return { seeds: seeds.map(presentSeed) };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/v1/seeds/:id',
    { schema: { tags, summary: 'Get a seed', params: idParams }, config },
    async (req) => presentSeed(unwrap(await getSeed(ctx, req.caller!.workspaceId, req.params.id))),
  );

  app.post<{ Querystring: { force?: string }; Body: { seeds: unknown[] } }>(
    '/v1/seeds',
    {
      schema: {
        tags,
        summary: 'Add seeds; reserved values are skipped unless force=True',
        querystring: { type: 'object', properties: { force: { type: 'string' } } },
        body: seedsBody,
      },
      config,
    },
    async (req) => {
      const force = queryFlag('force', req.query.force);
      const r = unwrap(await addSeeds(ctx, req.caller!.workspaceId, req.body.seeds, force));
      return { addedSeeds: r.added.map(presentSeed), skippedReservedSeeds: r.skippedReserved };
    },
  );

  app.put<{ Querystring: { label?: string; force?: string }; Body: { seeds: unknown[] } }>(
    '/v1/seeds',
    {
      schema: {
        tags,
        summary: 'Replace the seeds of a label',
        querystring: {
          type: 'object',
          required: ['label'],
          properties: { label: { type: 'string' }, force: { type: 'string' } },
        },
        body: seedsBody,
      },
      config,
    },
    async (req) => {
      const label = requiredLabel(req.query.label);
      const force = queryFlag('force', req.query.force);
      const r = unwrap(await replaceSeedsByLabel(ctx, req.caller!.workspaceId, label, req.body.seeds, force));
      return {
        addedSeeds: r.added.map(presentSeed),
        removedSeeds: r.removed.map(presentRemovedSeed),
        skippedReservedSeeds: r.skippedReserved,
      };
    },
  );

  app.delete<{ Querystring: { label?: string } }>(
    '/v1/seeds',
    {
      schema: {
        tags,
        summary: 'Delete the seeds of a label',
        querystring: { type: 'object', required: ['label'], properties: { label: { type: 'string' } } },
      },
      config,
    },
    async (req) => {
      unwrap(await deleteSeedsByLabel(ctx, req.caller!.workspaceId, requiredLabel(req.query.label)));
      return {};
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/v1/seeds/:id',
    { schema: { tags, summary: 'Delete a seed', params: idParams }, config },
    async (req) => {
      unwrap(await deleteSeed(ctx, req.caller!.workspaceId, req.params.id));
      return {};
    },
  );
}
