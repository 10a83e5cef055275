/**
 * Risks (contract §2B.6, §2B.7): `/v2/risk-events`, `/v2/risk-instances[...]`, `/v2/risk-types[...]`
 * and the 2.1.9 client's `/v1/risks` — thin routes over the risk use cases.
 */
import type { FastifyInstance } from 'fastify';
import type { AsmContext } from '../../../asm/index.ts';
import {
  getRiskInstance,
  getRiskType,
  listRiskInstances,
  listRiskTypes,
  listV1Risks,
  patchRiskInstance,
  patchRiskInstances,
  patchRiskType,
  readRiskEvents,
  searchRiskInstances,
} from '../../../asm/risks/index.ts';
import { unwrap } from '../../../lib/problem.ts';
import { queryFlag } from './query-flag.ts';

const config = { family: 'asm', auth: 'asm' } as const;
const tags = ['ASM Risks'];

// Bodies are checked by the use cases, which answer precise 10008 messages; any JSON is let through.
const anyBody = {} as const;
const includeEventsQuery = { type: 'object', properties: { includeEvents: { type: 'string' } } } as const;

/** A repeated query key arrives as an array, a single one as a string. */
function list(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  return (Array.isArray(raw) ? raw : [raw]).map(String);
}

function single(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  return Array.isArray(raw) ? String(raw[raw.length - 1]) : String(raw);
}

/** The risk type of a wildcard path: 2.1.9 sends `/` raw, the newest client `%2F` (decoded by the router either way). */
function typeParam(params: unknown): string {
  const raw = (params as Record<string, string | undefined>)['*'] ?? '';
  try {
    return decodeURIComponent(raw.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
  } catch {
    return raw;
  }
}

export async function riskRoutes(app: FastifyInstance, ctx: AsmContext): Promise<void> {
  app.get<{ Querystring: Record<string, unknown> }>(
    '/v2/risk-events',
    {
      schema: {
        tags,
        summary: 'Risk events in id order, by time range, after an id, or from a cursor',
        querystring: {
          type: 'object',
          properties: { start: { type: 'string' }, end: { type: 'string' }, afterID: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' } },
        },
      },
      config,
    },
    async (req) => {
      const q = req.query;
      return unwrap(
        await readRiskEvents(ctx, req.caller!.workspaceId, {
          start: single(q.start),
          end: single(q.end),
          afterID: single(q.afterID),
          limit: single(q.limit),
          cursor: single(q.cursor),
        }),
      );
    },
  );

  app.get<{ Querystring: { includeEvents?: string } }>(
    '/v2/risk-instances',
    { schema: { tags, summary: 'Every risk instance of the workspace', querystring: includeEventsQuery }, config },
    async (req) => ({ risks: await listRiskInstances(ctx, req.caller!.workspaceId, queryFlag('includeEvents', req.query.includeEvents)) }),
  );

  app.patch(
    '/v2/risk-instances',
    { schema: { tags, summary: 'Change several risk instances (user status, severity, categories, metadata)', body: anyBody }, config },
    async (req) => unwrap(await patchRiskInstances(ctx, req.caller!.workspaceId, req.body, req.caller!.id)),
  );

  app.post(
    '/v2/risk-instances/search',
    { schema: { tags, summary: 'Search risk instances: {fields, limit, page, query, sort}', body: anyBody }, config },
    async (req) => unwrap(await searchRiskInstances(ctx, req.caller!.workspaceId, req.body)),
  );

  app.get<{ Params: { id: string }; Querystring: { includeEvents?: string } }>(
    '/v2/risk-instances/:id',
    {
      schema: { tags, summary: 'A risk instance', params: { type: 'object', properties: { id: { type: 'string' } } }, querystring: includeEventsQuery },
      config,
    },
    async (req) => unwrap(await getRiskInstance(ctx, req.caller!.workspaceId, req.params.id, queryFlag('includeEvents', req.query.includeEvents))),
  );

  app.patch<{ Params: { id: string } }>(
    '/v2/risk-instances/:id',
    { schema: { tags, summary: 'Change a risk instance', params: { type: 'object', properties: { id: { type: 'string' } } }, body: anyBody }, config },
    async (req) => unwrap(await patchRiskInstance(ctx, req.caller!.workspaceId, req.params.id, req.body, req.caller!.id)),
  );

  app.get<{ Querystring: Record<string, unknown> }>(
    '/v2/risk-types',
    {
      schema: {
        tags,
        summary: 'Risk types with the workspace settings, sorted (sort=severity&sort=type:asc) and paged (page, limit)',
        querystring: {
          type: 'object',
          properties: {
            sort: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
            includeEvents: { type: 'string' },
            page: { type: 'string' },
            limit: { type: 'string' },
          },
        },
      },
      config,
    },
    async (req) => {
      const q = req.query;
      return unwrap(
        await listRiskTypes(ctx, req.caller!.workspaceId, {
          sort: list(q.sort),
          includeEvents: queryFlag('includeEvents', single(q.includeEvents)),
          page: single(q.page),
          limit: single(q.limit),
        }),
      );
    },
  );

  app.get<{ Querystring: { includeEvents?: string } }>(
    '/v2/risk-types/*',
    { schema: { tags, summary: 'A risk type (its id may contain / raw or as %2F)', querystring: includeEventsQuery }, config },
    async (req) => unwrap(await getRiskType(ctx, req.caller!.workspaceId, typeParam(req.params), queryFlag('includeEvents', req.query.includeEvents))),
  );

  app.patch(
    '/v2/risk-types/*',
    { schema: { tags, summary: 'Change a risk type: enabled, severity, categories, config', body: anyBody }, config },
    async (req) => unwrap(await patchRiskType(ctx, req.caller!.workspaceId, typeParam(req.params), req.body, req.caller!.id)),
  );

  app.get<{ Querystring: Record<string, unknown> }>(
    '/v1/risks',
    {
      schema: {
        tags,
        summary: 'Open risks grouped by type with affected asset counts (2.1.9 Risksv1), paged under `data`',
        querystring: {
          type: 'object',
          properties: {
            pageNumber: { type: 'string' },
            pageSize: { type: 'string' },
            cloud: { type: 'string' },
            environment: { type: 'string' },
            includeAcceptedRisks: { type: 'string' },
          },
        },
      },
      config,
    },
    async (req) => {
      const q = req.query;
      return unwrap(
        await listV1Risks(ctx, req.caller!.workspaceId, {
          pageNumber: single(q.pageNumber),
          pageSize: single(q.pageSize),
          cloud: single(q.cloud),
          environment: single(q.environment),
          includeAcceptedRisks: queryFlag('includeAcceptedRisks', single(q.includeAcceptedRisks)),
        }),
      );
    },
  );
}
