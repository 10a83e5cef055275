/** `/v1/logbook-cursor` and `/v1/logbook` (contract §2B.4): thin routes over the logbook use cases. */
import type { FastifyInstance } from 'fastify';
import type { AsmContext } from '../../../asm/index.ts';
import { createLogbookCursor, presentLogbookEvent, readLogbook } from '../../../asm/logbook/index.ts';
import { unwrap } from '../../../lib/problem.ts';

const config = { family: 'asm', auth: 'asm' } as const;
const tags = ['ASM Logbook'];

export async function logbookRoutes(app: FastifyInstance, ctx: AsmContext): Promise<void> {
  // The body is checked by the use case (10008 with a precise message); it may be absent.
  app.post<{ Body: unknown }>(
    '/v1/logbook-cursor',
    {
      schema: {
        tags,
        summary: 'Get a logbook cursor from an event id or a date, optionally for some event types',
        body: {
          description: '`{"idFrom": 123}` or `{"dateFrom": "2024-01-01T00:00:00Z"}`, optional `{"filter": {"type": ["HOST"]}}`; may be absent.',
        },
      },
      config,
    },
    async (req) => ({ cursor: unwrap(createLogbookCursor(req.body)) }),
  );

  app.get<{ Querystring: { cursor?: string } }>(
    '/v1/logbook',
    {
      schema: {
        tags,
        summary: 'A page of logbook events from a cursor (from the first event without one)',
        querystring: { type: 'object', properties: { cursor: { type: 'string' } } },
      },
      config,
    },
    async (req) => {
      const page = unwrap(await readLogbook(ctx, req.caller!.workspaceId, req.query.cursor));
      return { events: page.events.map(presentLogbookEvent), nextCursor: page.nextCursor, endOfEvents: page.endOfEvents };
    },
  );
}
