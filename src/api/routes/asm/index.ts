/** The ASM API's routes (contract §2B), all behind the `Censys-Api-Key` guard. */
import type { FastifyInstance } from 'fastify';
import type { AsmContext } from '../../../asm/index.ts';
import { workspaceAccountRoutes } from './account.ts';
import { seedRoutes } from './seeds.ts';
import { logbookRoutes } from './logbook.ts';
import { riskRoutes } from './risks.ts';
import { assetRoutes } from './assets.ts';
import { inventoryRoutes } from './inventory.ts';

export async function asmRoutes(app: FastifyInstance, ctx: AsmContext): Promise<void> {
  await workspaceAccountRoutes(app, ctx);
  await seedRoutes(app, ctx);
  await logbookRoutes(app, ctx);
  await riskRoutes(app, ctx);
  await assetRoutes(app, ctx);
  await inventoryRoutes(app, ctx);
}
