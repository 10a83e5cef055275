import type { FastifyInstance } from 'fastify';
import type { SearchContext } from '../../search/search-context.ts';
import { accountTime } from '../../lib/time.ts';
import { quotaPeriod, quotaResetsAt } from '../plugins/guard.ts';

export async function accountRoutes(app: FastifyInstance, ctx: SearchContext): Promise<void> {
  app.get(
    '/v1/account',
    { schema: { tags: ['Account'], summary: 'Your account and query quota (no envelope)' }, config: { family: 'search', auth: 'basic' } },
    async (req) => {
      const user = (await ctx.store.users.get(req.caller!.id)) ?? req.caller!;
      const now = ctx.now();
      return {
        login: user.email,
        email: user.email,
        first_login: accountTime(user.firstLoginAt ?? user.createdAt),
        // The CLI cuts the last 7 characters: keep exactly six fractional digits.
        last_login: accountTime(user.lastLoginAt ?? user.createdAt, true),
        quota: {
          used: await ctx.store.quota.used(user.id, quotaPeriod(now)),
          allowance: Math.max(1, user.quotaAllowance),
          resets_at: accountTime(quotaResetsAt(now).toISOString()),
        },
      };
    },
  );
}
