/**
 * `POST /beta/cloudConnector/addCloudAssets` (contract §2B.10): a cloud connector reports the
 * object storage it manages; each becomes a STORAGE_BUCKET asset of source CLOUD_CONNECTOR
 * (discovery never removes those), with an OBJECT_STORAGE ASSOCIATE logbook event when new.
 * Bucket ids are written as discovery writes them (`https://<bucket>.s3.amazonaws.com`,
 * `https://<bucket>.storage.googleapis.com`, `https://<account>.blob.core.windows.net[/<container>]`),
 * so a bucket both discovered and reported is one asset.
 */
import type { Asset, NewLogbookEvent } from '../../model/asm-asset.ts';
import { fail, ok, type Result } from '../../lib/problem.ts';
import type { AsmContext } from '../asm-context.ts';

export const MAX_CLOUD_ASSETS = 1000;

const PROVIDERS = { AWS: 'Amazon AWS', GCP: 'Google Cloud', AZURE: 'Microsoft Azure' } as const;
type CspLabel = keyof typeof PROVIDERS;

export interface CloudBucket {
  readonly url: string;
  readonly provider: (typeof PROVIDERS)[CspLabel];
  readonly bucket: string;
  readonly accountId?: string;
}

const S3_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const GCS_NAME = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;
const AZURE_ACCOUNT = /^[a-z0-9]{3,24}$/;
const AZURE_CONTAINER = /^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/;

/** The bucket a connector's `value` names (a name, URL, `s3://`/`gs://` URI or S3 ARN), or why not. */
export function cloudBucket(csp: CspLabel, raw: string): CloudBucket | string {
  const value = raw.trim();
  const lower = value.toLowerCase();
  let host = '';
  let path = '';
  if (/^https?:\/\//.test(lower)) {
    try {
      const u = new URL(lower);
      host = u.hostname;
      path = u.pathname.replace(/^\/+|\/+$/g, '');
    } catch {
      return `not a URL: ${JSON.stringify(raw)}`;
    }
  }
  if (csp === 'AWS') {
    let name = lower;
    if (lower.startsWith('arn:aws:s3:::')) name = lower.slice('arn:aws:s3:::'.length).split('/')[0];
    else if (lower.startsWith('s3://')) name = lower.slice(5).split('/')[0];
    else if (host) {
      const hosted = /^(.+)\.s3(?:[.-][a-z0-9-]+)?\.amazonaws\.com$/.exec(host);
      if (hosted) name = hosted[1];
      else if (/^s3(?:[.-][a-z0-9-]+)?\.amazonaws\.com$/.test(host)) name = path.split('/')[0];
      else return `not an S3 URL: ${JSON.stringify(raw)}`;
    }
    if (!S3_NAME.test(name) || name.includes('..')) return `not an S3 bucket name: ${JSON.stringify(raw)}`;
    return { url: `https://${name}.s3.amazonaws.com`, provider: PROVIDERS.AWS, bucket: name };
  }
  if (csp === 'GCP') {
    let name = lower;
    if (lower.startsWith('gs://')) name = lower.slice(5).split('/')[0];
    else if (host) {
      const hosted = /^(.+)\.storage\.googleapis\.com$/.exec(host);
      if (hosted) name = hosted[1];
      else if (host === 'storage.googleapis.com') name = path.split('/')[0];
      else return `not a Cloud Storage URL: ${JSON.stringify(raw)}`;
    }
    if (!GCS_NAME.test(name)) return `not a Cloud Storage bucket name: ${JSON.stringify(raw)}`;
    return { url: `https://${name}.storage.googleapis.com`, provider: PROVIDERS.GCP, bucket: name };
  }
  let account = lower;
  let container = '';
  if (host) {
    const m = /^([a-z0-9]+)\.blob\.core\.windows\.net$/.exec(host);
    if (!m) return `not an Azure Blob URL: ${JSON.stringify(raw)}`;
    account = m[1];
    container = path.split('/')[0] ?? '';
  } else if (lower.includes('/')) {
    [account, container] = lower.split('/', 2);
  }
  if (!AZURE_ACCOUNT.test(account)) return `not an Azure storage account name: ${JSON.stringify(raw)}`;
  if (container && !AZURE_CONTAINER.test(container)) return `not an Azure container name: ${JSON.stringify(raw)}`;
  return {
    url: `https://${account}.blob.core.windows.net${container ? `/${container}` : ''}`,
    provider: PROVIDERS.AZURE,
    bucket: container || account,
    accountId: account,
  };
}

interface CheckedAsset {
  readonly bucket: CloudBucket;
  readonly scanData: string;
}

function invalid(errors: string[]) {
  return fail<never>('invalid_request', `Invalid cloud asset data: ${errors[0]}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`, {
    asmCode: 10059,
    details: { errors },
  });
}

function check(body: unknown): Result<{ connector: string; assets: CheckedAsset[] }> {
  const errors: string[] = [];
  const b = body as { cloudConnectorUid?: unknown; cloudAssets?: unknown };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return invalid(['the body must be an object with cloudConnectorUid and cloudAssets']);
  for (const k of Object.keys(b)) if (k !== 'cloudConnectorUid' && k !== 'cloudAssets') errors.push(`unknown key '${k}'`);
  if (typeof b.cloudConnectorUid !== 'string' || b.cloudConnectorUid.trim() === '') errors.push('cloudConnectorUid must be a non-empty string');
  if (!Array.isArray(b.cloudAssets)) errors.push('cloudAssets must be a list');
  else if (b.cloudAssets.length > MAX_CLOUD_ASSETS) errors.push(`at most ${MAX_CLOUD_ASSETS} cloudAssets per request`);
  const assets: CheckedAsset[] = [];
  if (Array.isArray(b.cloudAssets) && b.cloudAssets.length <= MAX_CLOUD_ASSETS) {
    b.cloudAssets.forEach((raw: unknown, i: number) => {
      const at = `cloudAssets[${i}]`;
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return errors.push(`${at} must be an object`);
      const a = raw as Record<string, unknown>;
      for (const k of Object.keys(a)) if (!['type', 'value', 'cspLabel', 'scanData'].includes(k)) errors.push(`${at}: unknown key '${k}'`);
      if (a.type !== 'OBJECT_STORAGE') return errors.push(`${at}.type must be OBJECT_STORAGE`);
      if (a.cspLabel !== 'AWS' && a.cspLabel !== 'AZURE' && a.cspLabel !== 'GCP') return errors.push(`${at}.cspLabel must be AWS, AZURE or GCP`);
      if (typeof a.value !== 'string' || a.value.trim() === '') return errors.push(`${at}.value must be a non-empty string`);
      if (typeof a.scanData !== 'string') return errors.push(`${at}.scanData must be a string`);
      const bucket = cloudBucket(a.cspLabel, a.value);
      if (typeof bucket === 'string') return errors.push(`${at}.value: ${bucket}`);
      assets.push({ bucket, scanData: a.scanData });
      return undefined;
    });
  }
  if (errors.length > 0) return invalid(errors);
  return ok({ connector: (b.cloudConnectorUid as string).trim(), assets });
}

function sameData(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function addCloudAssets(
  ctx: AsmContext,
  workspaceId: string,
  body: unknown,
): Promise<Result<{ addedAssets: string[]; removedAssets: string[]; updatedAssets: string[] }>> {
  const checked = check(body);
  if (!checked.ok) return checked;
  const now = ctx.now().toISOString();
  // The last report of a bucket in one request wins.
  const byUrl = new Map(checked.value.assets.map((a) => [a.bucket.url, a]));
  const existing = new Map(
    (await ctx.store.asmAssets.getMany(workspaceId, 'STORAGE_BUCKET', [...byUrl.keys()])).map((a) => [a.assetId, a]),
  );
  const upsert: Asset[] = [];
  const events: NewLogbookEvent[] = [];
  const added: string[] = [];
  const updated: string[] = [];
  for (const [url, { bucket, scanData }] of byUrl) {
    const prev = existing.get(url);
    const data = {
      ...(prev?.data ?? {}),
      provider: bucket.provider,
      bucket: bucket.bucket,
      ...(bucket.accountId ? { accountId: bucket.accountId } : {}),
      cloudConnectorUid: checked.value.connector,
      ...(scanData !== '' ? { scanData } : {}),
    };
    if (prev && prev.source === 'CLOUD_CONNECTOR' && prev.cloud === bucket.provider && sameData(prev.data, data)) continue;
    upsert.push({
      workspaceId,
      type: 'STORAGE_BUCKET',
      assetId: url,
      isSeed: false,
      source: 'CLOUD_CONNECTOR',
      associatedAt: prev?.associatedAt ?? now,
      updatedAt: now,
      trail: [],
      cloud: bucket.provider,
      data,
    });
    if (prev) updated.push(url);
    else {
      added.push(url);
      events.push({ type: 'OBJECT_STORAGE', operation: 'ASSOCIATE', entity: { bucketUrl: url }, timestamp: now });
    }
  }
  if (upsert.length > 0) {
    await ctx.store.asmAssets.apply(workspaceId, { upsert, remove: [] }, events);
    await ctx.assetsChanged.emit({ workspaceId, upserted: upsert, removed: [] }, ctx.reportError);
  }
  return ok({ addedAssets: added, removedAssets: [], updatedAssets: updated });
}
