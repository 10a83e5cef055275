/** `/inventory/v1` (contract §2B.8) and, registered from here, saved queries, clouds and beta. */
import type { FastifyInstance } from 'fastify';
import type { AsmContext } from '../../../asm/index.ts';
import { savedQueryRoutes } from './saved-queries.ts';

export async function inventoryRoutes(app: FastifyInstance, ctx: AsmContext): Promise<void> {
  await savedQueryRoutes(app, ctx);
}
