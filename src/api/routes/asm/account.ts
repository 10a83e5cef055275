import type { FastifyInstance } from 'fastify';
import type { AsmContext } from '../../../asm/index.ts';

/** The caller's workspace (contract §2B.1); the newest CLI reads `workspaceId`. */
export async function workspaceAccountRoutes(app: FastifyInstance, ctx: AsmContext): Promise<void> {
  app.get(
    '/integrations/v1/account',
    { schema: { tags: ['ASM'], summary: 'The workspace of the ASM API key' }, config: { family: 'asm', auth: 'asm' } },
    async (req) => {
      const user = req.caller!;
      const workspace = await ctx.store.users.getWorkspace(user.workspaceId);
      return { workspaceId: user.workspaceId, workspaceName: workspace?.name ?? '', email: user.email };
    },
  );
}
