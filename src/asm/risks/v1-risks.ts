/**
 * `GET /v1/risks` (contract §2B.7, the 2.1.9 `Risksv1` client): the workspace's open risks grouped
 * by type with the number of assets each affects, paged by page number under the keyword `data`.
 * Accepted risks (severity `accepted`) are left out unless asked for, and then form their own row.
 */
import { fail, ok, type Result } from '../../lib/problem.ts';
import type { AsmContext } from '../asm-context.ts';
import { effectiveTypes } from './effective-types.ts';

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

/** The big three, for `otherCloud` (contract: "risks not in AWS, GCP, or Azure"). */
const MAJOR_CLOUDS = new Set(['Amazon AWS', 'Google Cloud', 'Google', 'Microsoft Azure']);

/** Shared-hosting and CDN sub-environments; Periscope has no CDN classification, so they match nothing. */
const SHARED = new Set(['SHARED', 'CDN', 'Shared Web Hosting']);

/** Provider names of the spec's `cloud` enum; any other provider name is still accepted as itself. */
const CLOUD_WORDS = new Set(['CLOUD', 'anyCloud', 'otherCloud']);

export interface V1RisksRequest {
  readonly pageNumber?: string;
  readonly pageSize?: string;
  readonly cloud?: string;
  readonly environment?: string;
  readonly includeAcceptedRisks: boolean;
}

export interface V1RisksPage {
  readonly pageNumber: number;
  readonly pageSize: number;
  readonly totalPages: number;
  readonly totalItems: number;
  readonly environment: string;
  readonly data: Record<string, unknown>[];
}

/**
 * The numeric id v1 gives a risk type: FNV-1a of the type id, 31 bits. It depends on the id alone,
 * so it stays the same whatever types are added to the catalogue or in which order.
 */
export function riskInfoId(type: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < type.length; i++) {
    h ^= type.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h & 0x7fffffff) || 1;
}

function integer(raw: string): number | undefined {
  const text = raw.trim();
  return /^[+-]?\d{1,15}(\.0+)?$/.test(text) ? Number(text) : undefined;
}

/** Whether an asset in `cloud` (null: not a cloud address) belongs to a `cloud`/`environment` filter value. */
function inFilter(value: string, cloud: string | null): boolean {
  if (value === 'ALL') return true;
  if (value === 'CLOUD' || value === 'anyCloud') return cloud !== null;
  if (value === 'otherCloud') return cloud !== null && !MAJOR_CLOUDS.has(cloud);
  if (value === 'OTHER') return cloud === null;
  if (SHARED.has(value)) return false;
  return cloud === value;
}

export async function listV1Risks(ctx: AsmContext, workspaceId: string, req: V1RisksRequest): Promise<Result<V1RisksPage>> {
  let pageSize = DEFAULT_PAGE_SIZE;
  if (req.pageSize !== undefined && req.pageSize !== '') {
    const n = integer(req.pageSize);
    if (n === undefined || n < 1 || n > MAX_PAGE_SIZE) {
      return fail('invalid_request', `pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}, not ${JSON.stringify(req.pageSize)}.`, { asmCode: 10050 });
    }
    pageSize = n;
  }
  let pageNumber = 1;
  if (req.pageNumber !== undefined && req.pageNumber !== '') {
    const n = integer(req.pageNumber);
    if (n === undefined) return fail('invalid_request', `pageNumber must be an integer, not ${JSON.stringify(req.pageNumber)}.`);
    if (n < 1) return fail('invalid_request', `pageNumber starts at 1, not ${n}.`, { asmCode: 10051 });
    pageNumber = n;
  }
  for (const [name, v] of [['cloud', req.cloud], ['environment', req.environment]] as const) {
    if (v !== undefined && v.trim() === '') return fail('invalid_request', `'${name}' must not be empty.`, { asmCode: 10082 });
  }
  if (req.cloud !== undefined && (SHARED.has(req.cloud) || ['ALL', 'OTHER'].includes(req.cloud))) {
    return fail('invalid_request', `'cloud' names a cloud provider, CLOUD, anyCloud or otherCloud, not ${JSON.stringify(req.cloud)}; use 'environment' for ${req.cloud}.`, { asmCode: 10082 });
  }

  const types = effectiveTypes(await ctx.store.asmRisks.typeSettings(workspaceId));
  const rows = new Map<string, { type: string; accepted: boolean; assets: Set<string> }>();
  for (const i of await ctx.store.asmRisks.listInstances(workspaceId, { status: 'open' })) {
    if (req.cloud !== undefined && !inFilter(req.cloud, i.cloud)) continue;
    if (req.environment !== undefined && !inFilter(req.environment, i.cloud)) continue;
    const accepted = i.severityOverride === 'accepted';
    if (accepted && !req.includeAcceptedRisks) continue;
    const key = `${i.typeId}\u0000${accepted}`;
    const row = rows.get(key) ?? { type: i.typeId, accepted, assets: new Set<string>() };
    row.assets.add(`${i.assetType}\u0000${i.assetId}`);
    rows.set(key, row);
  }
  const data = [...rows.values()]
    .sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : Number(a.accepted) - Number(b.accepted)))
    .map((r) => {
      const t = types.get(r.type)!;
      return {
        riskInfoId: riskInfoId(r.type),
        type: r.type,
        name: t.catalogue.name,
        severity: r.accepted ? 'accepted' : t.severity,
        isSeverityModified: r.accepted || t.severityModified,
        categories: [...t.categories],
        affectedAssetsCount: r.assets.size,
        assetType: t.catalogue.subjectType,
      };
    });
  const totalPages = Math.ceil(data.length / pageSize);
  if (pageNumber > 1 && pageNumber > totalPages) {
    return fail('invalid_request', `Page ${pageNumber} is beyond the last page (${totalPages}) at pageSize ${pageSize}.`, { asmCode: 10051 });
  }
  const environment = req.environment ?? (req.cloud !== undefined && !CLOUD_WORDS.has(req.cloud) ? req.cloud : req.cloud !== undefined ? 'CLOUD' : 'ALL');
  return ok({ pageNumber, pageSize, totalPages, totalItems: data.length, environment, data: data.slice((pageNumber - 1) * pageSize, pageNumber * pageSize) });
}
