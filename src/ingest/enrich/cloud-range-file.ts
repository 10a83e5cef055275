/**
 * The address-range files cloud providers publish, recognised by their content (file names vary
 * and operators rename them):
 * - AWS `ip-ranges.json`: `prefixes[].ip_prefix`, `ipv6_prefixes[].ipv6_prefix`, `region`, `service`.
 * - Google Cloud `cloud.json`: `prefixes[].ipv4Prefix|ipv6Prefix`, `scope` (the region), `service`.
 * - Azure `ServiceTags_Public_YYYYMMDD.json`: `values[].properties.{addressPrefixes, region, systemService}`.
 * - Oracle `public_ip_ranges.json`: `regions[].region`, `regions[].cidrs[].{cidr, tags}`.
 * - Cloudflare `ips-v4` / `ips-v6`: one CIDR a line (a bare CIDR list is taken to be Cloudflare's,
 *   the only provider publishing that shape), or the `/client/v4/ips` JSON answer.
 */
import { isoTime, parseTimestamp } from '../../lib/time.ts';
import { CLOUD_PROVIDERS } from './cloud-providers.ts';

export type RangeFileFormat = 'aws' | 'google-cloud' | 'azure' | 'oracle' | 'cloudflare';

export interface CloudRangeEntry {
  readonly prefix: string;
  readonly region?: string;
  readonly service?: string;
  /** Among identical prefixes the higher priority wins (a regional tag over a global one). */
  readonly priority: number;
}

export interface ParsedRangeFile {
  readonly format: RangeFileFormat;
  readonly provider: string;
  readonly entries: CloudRangeEntry[];
  /** The publication time the file states about itself, when it states one. */
  readonly builtAt?: string;
  /** Where builtAt came from (`createDate`, `creationTime`, …). */
  readonly builtFrom?: string;
  /** The file's own version marker (`syncToken`, `changeNumber`, …). */
  readonly version?: string;
}

export type RangeFileResult = { ok: true; value: ParsedRangeFile } | { ok: false; error: string };

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function entry(prefix: unknown, region: unknown, service: unknown, priority: number): CloudRangeEntry | undefined {
  const p = str(prefix);
  if (!p) return undefined;
  const r = str(region);
  const s = str(service);
  return { prefix: p, ...(r ? { region: r } : {}), ...(s ? { service: s } : {}), priority };
}

function arrayOf(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** AWS writes `2023-11-14-22-13-09` (UTC). */
function awsDate(text: unknown): string | undefined {
  const m = typeof text === 'string' ? /^(\d{4})-(\d{2})-(\d{2})-(\d{2})-(\d{2})-(\d{2})$/.exec(text) : null;
  if (!m) return undefined;
  const t = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return Number.isNaN(t) ? undefined : isoTime(t);
}

/** Timestamps without a zone (Google, Oracle) are UTC. */
function utcDate(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  const t = parseTimestamp(zoned) ?? Date.parse(zoned);
  return t === undefined || Number.isNaN(t) ? undefined : isoTime(t);
}

function aws(doc: Json): ParsedRangeFile {
  const entries: CloudRangeEntry[] = [];
  // `AMAZON` lists every Amazon prefix; a service-specific listing of the same prefix says more.
  const prio = (service: unknown) => (service === 'AMAZON' ? 0 : 1);
  for (const p of arrayOf(doc.prefixes)) if (isObject(p)) pushDefined(entries, entry(p.ip_prefix, p.region, p.service, prio(p.service)));
  for (const p of arrayOf(doc.ipv6_prefixes)) if (isObject(p)) pushDefined(entries, entry(p.ipv6_prefix, p.region, p.service, prio(p.service)));
  const builtAt = awsDate(doc.createDate);
  return {
    format: 'aws',
    provider: CLOUD_PROVIDERS.aws,
    entries,
    ...(builtAt ? { builtAt, builtFrom: 'createDate' } : {}),
    ...(doc.syncToken !== undefined ? { version: `syncToken ${String(doc.syncToken)}` } : {}),
  };
}

function google(doc: Json): ParsedRangeFile {
  const entries: CloudRangeEntry[] = [];
  for (const p of arrayOf(doc.prefixes)) {
    if (!isObject(p)) continue;
    pushDefined(entries, entry(p.ipv4Prefix ?? p.ipv6Prefix, p.scope, p.service, 1));
  }
  let builtAt = utcDate(doc.creationTime);
  let builtFrom = builtAt ? 'creationTime' : undefined;
  // The sync token is the publication time in milliseconds.
  if (!builtAt && typeof doc.syncToken === 'string' && /^\d{12,14}$/.test(doc.syncToken)) {
    builtAt = isoTime(Number(doc.syncToken));
    builtFrom = 'syncToken';
  }
  return {
    format: 'google-cloud',
    provider: CLOUD_PROVIDERS.gcp,
    entries,
    ...(builtAt ? { builtAt, builtFrom } : {}),
    ...(doc.syncToken !== undefined ? { version: `syncToken ${String(doc.syncToken)}` } : {}),
  };
}

function azure(doc: Json, fileName: string): ParsedRangeFile {
  const entries: CloudRangeEntry[] = [];
  for (const v of arrayOf(doc.values)) {
    if (!isObject(v) || !isObject(v.properties)) continue;
    const props = v.properties;
    const region = str(props.region);
    const service = str(props.systemService);
    const priority = (region ? 1 : 0) + (service ? 1 : 0);
    for (const prefix of arrayOf(props.addressPrefixes)) pushDefined(entries, entry(prefix, region, service, priority));
  }
  // The file states only a change number; Microsoft puts the publication date in the file name.
  const m = /(\d{4})(\d{2})(\d{2})\D*$/.exec(fileName.replace(/\.json$/i, ''));
  const t = m ? Date.UTC(+m[1], +m[2] - 1, +m[3]) : Number.NaN;
  return {
    format: 'azure',
    provider: CLOUD_PROVIDERS.azure,
    entries,
    ...(!Number.isNaN(t) ? { builtAt: isoTime(t), builtFrom: 'file name' } : {}),
    ...(doc.changeNumber !== undefined ? { version: `changeNumber ${String(doc.changeNumber)}` } : {}),
  };
}

function oracle(doc: Json): ParsedRangeFile {
  const entries: CloudRangeEntry[] = [];
  for (const r of arrayOf(doc.regions)) {
    if (!isObject(r)) continue;
    for (const c of arrayOf(r.cidrs)) {
      if (!isObject(c)) continue;
      const tags = arrayOf(c.tags).filter((t): t is string => typeof t === 'string');
      pushDefined(entries, entry(c.cidr, r.region, tags.join(','), 1));
    }
  }
  const builtAt = utcDate(doc.last_updated_timestamp);
  return {
    format: 'oracle',
    provider: CLOUD_PROVIDERS.oracle,
    entries,
    ...(builtAt ? { builtAt, builtFrom: 'last_updated_timestamp' } : {}),
    ...(typeof doc.last_updated_timestamp === 'string' ? { version: doc.last_updated_timestamp } : {}),
  };
}

function cloudflareApi(doc: Json): ParsedRangeFile {
  const result = doc.result as Json;
  const entries: CloudRangeEntry[] = [];
  for (const p of [...arrayOf(result.ipv4_cidrs), ...arrayOf(result.ipv6_cidrs)]) pushDefined(entries, entry(p, undefined, undefined, 1));
  return {
    format: 'cloudflare',
    provider: CLOUD_PROVIDERS.cloudflare,
    entries,
    ...(typeof result.etag === 'string' ? { version: `etag ${result.etag}` } : {}),
  };
}

function pushDefined<T>(list: T[], v: T | undefined): void {
  if (v !== undefined) list.push(v);
}

const CIDR_LINE = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:.]*:[0-9a-f:.]*)\/\d{1,3}$/i;

/** Recognises and reads one range file; `fileName` helps only where the content has no date. */
export function parseRangeFile(text: string, fileName = ''): RangeFileResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'empty file' };
  if (trimmed.startsWith('{')) {
    let doc: unknown;
    try {
      doc = JSON.parse(trimmed);
    } catch (e) {
      return { ok: false, error: `not valid JSON: ${(e as Error).message}` };
    }
    if (!isObject(doc)) return { ok: false, error: 'JSON is not an object' };
    const first = (list: unknown) => arrayOf(list).find(isObject);
    const p = first(doc.prefixes);
    if (Array.isArray(doc.ipv6_prefixes) || (p && 'ip_prefix' in p)) return { ok: true, value: aws(doc) };
    if (p && ('ipv4Prefix' in p || 'ipv6Prefix' in p)) return { ok: true, value: google(doc) };
    const v = first(doc.values);
    if (v && isObject(v.properties) && Array.isArray(v.properties.addressPrefixes)) return { ok: true, value: azure(doc, fileName) };
    const r = first(doc.regions);
    if (r && Array.isArray(r.cidrs)) return { ok: true, value: oracle(doc) };
    if (isObject(doc.result) && (Array.isArray(doc.result.ipv4_cidrs) || Array.isArray(doc.result.ipv6_cidrs))) {
      return { ok: true, value: cloudflareApi(doc) };
    }
    return { ok: false, error: 'JSON of no known range-file shape (AWS, Google Cloud, Azure, Oracle, Cloudflare)' };
  }
  const lines = trimmed.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  const bad = lines.findIndex((l) => !CIDR_LINE.test(l));
  if (bad >= 0) return { ok: false, error: `not a CIDR list (line '${lines[bad].slice(0, 60)}')` };
  return {
    ok: true,
    value: { format: 'cloudflare', provider: CLOUD_PROVIDERS.cloudflare, entries: lines.map((prefix) => ({ prefix, priority: 1 })) },
  };
}
