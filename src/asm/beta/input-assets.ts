/**
 * `GET /beta/assets/inputAssets` (contract §2B.10): what the workspace put in — its seeds and the
 * object storage its cloud connectors reported — one page at a time (seeds first, oldest first).
 */
import { fail, ok, type Result } from '../../lib/problem.ts';
import type { AsmContext } from '../asm-context.ts';

export const MAX_INPUT_PAGE_SIZE = 1000;

export interface InputAsset {
  type: string;
  value: string;
  source: string;
  label: string;
}

export interface InputAssetsPage {
  pageNumber: number;
  pageSize: number;
  totalPages: number;
  totalItems: number;
  assets: InputAsset[];
}

export async function inputAssets(ctx: AsmContext, workspaceId: string, pageNumber = 1, pageSize = 100): Promise<Result<InputAssetsPage>> {
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_INPUT_PAGE_SIZE) {
    return fail('invalid_request', `pageSize must be an integer from 1 to ${MAX_INPUT_PAGE_SIZE}`, { asmCode: 10050 });
  }
  if (!Number.isInteger(pageNumber) || pageNumber < 1) return fail('invalid_request', 'pageNumber must be an integer from 1', { asmCode: 10051 });
  const seeds: InputAsset[] = (await ctx.store.seeds.list(workspaceId)).map((s) => ({ type: s.type, value: s.value, source: s.source, label: s.label }));
  const buckets: InputAsset[] = (await ctx.store.asmAssets.list(workspaceId, 'STORAGE_BUCKET', { offset: 0, limit: 1_000_000 }, { sources: ['CLOUD_CONNECTOR'] })).items.map(
    (a) => ({ type: 'OBJECT_STORAGE', value: a.assetId, source: 'CLOUD_CONNECTOR', label: typeof a.data.cloudConnectorUid === 'string' ? a.data.cloudConnectorUid : '' }),
  );
  const all = [...seeds, ...buckets];
  const start = (pageNumber - 1) * pageSize;
  return ok({
    pageNumber,
    pageSize,
    totalPages: Math.ceil(all.length / pageSize),
    totalItems: all.length,
    assets: all.slice(start, start + pageSize),
  });
}
