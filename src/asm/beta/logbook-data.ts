/**
 * `POST /beta/logbook/getLogbookData` (contract §2B.10): the logbook read in windows with the
 * beta filters. A window cursor holds the id after the last event looked at and is bound to the
 * filters; every answer carries one, so a client can come back for later events. An empty
 * `results` means it has caught up.
 */
import type { LogbookEvent, LogbookEventType } from '../../model/asm-asset.ts';
import { cidrRange, ipKey } from '../../lib/ip.ts';
import { fail, ok, type Problem, type Result } from '../../lib/problem.ts';
import { decodeCursor, encodeCursor, requestFingerprint } from '../../search/cursor.ts';
import type { AsmContext } from '../asm-context.ts';

/** Results per window. */
export const LOGBOOK_WINDOW = 1000;
const READ_BATCH = 1000;

type Json = Record<string, unknown>;
type Test = (e: LogbookEvent) => boolean;

const bad = (message: string): Problem => ({ code: 'invalid_request', message: `filters${message}`, details: { message: `filters${message}` } });

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function only(o: Json, keys: readonly string[], at: string): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw bad(`${at}: unknown key '${k}'`);
}

function obj(v: unknown, at: string): Json {
  if (!isObject(v)) throw bad(`${at}: must be an object`);
  return v;
}

function strs(v: unknown, at: string): string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw bad(`${at}: must be a list of strings`);
  return v as string[];
}

function nums(v: unknown, at: string): number[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) throw bad(`${at}: must be a list of numbers`);
  return v as number[];
}

function bool(v: unknown, at: string): boolean {
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw bad(`${at}: must be true or false`);
  return v;
}

function time(v: unknown, at: string): string | undefined {
  if (v === undefined) return undefined;
  const ms = typeof v === 'string' ? Date.parse(v) : NaN;
  if (Number.isNaN(ms)) throw bad(`${at}: must be an RFC 3339 time`);
  return new Date(ms).toISOString();
}

/** `{items, inverted}` over the values an event yields (lower-cased). */
function itemsTest(v: unknown, at: string, valuesOf: (e: LogbookEvent) => string[], key = 'items'): Test {
  const o = obj(v, at);
  only(o, [key, 'inverted'], at);
  const items = new Set(strs(o[key], `${at}.${key}`).map((s) => s.toLowerCase()));
  const inverted = bool(o.inverted, `${at}.inverted`);
  return (e) => valuesOf(e).some((x) => items.has(x.toLowerCase())) !== inverted;
}

const str = (v: unknown): string[] => (typeof v === 'string' ? [v] : []);
const ipOf = (e: LogbookEvent): string | undefined => (typeof e.entity.ipAddress === 'string' ? e.entity.ipAddress : undefined);
const dataOf = (e: LogbookEvent): Json => (e.data ?? {}) as Json;

function namesOf(e: LogbookEvent): string[] {
  return [...str(e.entity.domain), ...str(e.entity.subdomain), ...str(e.entity.hostname), ...str(e.entity.name)];
}

function hashesOf(e: LogbookEvent): string[] {
  return [...str(e.entity.sha256), ...str(dataOf(e).sha256)].map((h) => h.toLowerCase());
}

function inRanges(ranges: readonly { lo: string; hi: string }[], ip: string | undefined): boolean {
  const k = ip === undefined ? undefined : ipKey(ip);
  return k !== undefined && ranges.some((r) => k >= r.lo && k <= r.hi);
}

function ranges(list: string[], at: string): { lo: string; hi: string }[] {
  return list.map((t, i) => {
    const r = cidrRange(t) ?? (ipKey(t) ? { lo: ipKey(t)!, hi: ipKey(t)! } : undefined);
    if (!r) throw bad(`${at}[${i}]: not an IP address or CIDR block: ${JSON.stringify(t)}`);
    return r;
  });
}

/** Type sections: each selects one event type, with its operations and value constraints. */
const SECTIONS: Readonly<Record<string, { type: LogbookEventType; ops: readonly string[]; values?: Readonly<Record<string, (e: LogbookEvent) => string[]>> }>> = {
  host: { type: 'HOST', ops: ['ASSOCIATE', 'DISASSOCIATE'] },
  hostPort: { type: 'HOST_PORT', ops: ['ADD', 'REMOVE'] },
  hostSoftware: { type: 'HOST_SOFTWARE', ops: ['ADD', 'REMOVE'] },
  hostProtocol: { type: 'HOST_PROTOCOL', ops: ['ADD', 'REMOVE'], values: { app: (e) => str(dataOf(e).protocol) } },
  hostCve: { type: 'HOST_VULNERABILITY', ops: ['ADD', 'CHANGE', 'REMOVE'], values: { cve: (e) => str(dataOf(e).cve) } },
  hostCert: { type: 'HOST_CERT', ops: ['ADD', 'REMOVE'] },
  cert: { type: 'CERT', ops: ['ASSOCIATE', 'DISASSOCIATE'] },
  domain: { type: 'DOMAIN', ops: ['ASSOCIATE', 'DISASSOCIATE'] },
  expires: { type: 'DOMAIN_EXPIRATION_DATE', ops: ['ADD', 'CHANGE', 'REMOVE'] },
  nameserver: { type: 'DOMAIN_NAME_SERVER', ops: ['ADD', 'REMOVE'], values: { nameservers: (e) => str(dataOf(e).nameserver ?? dataOf(e).nameServer) } },
  registrar: { type: 'DOMAIN_REGISTRAR', ops: ['ADD', 'CHANGE', 'REMOVE'], values: { registrars: (e) => str(dataOf(e).registrar) } },
  mxServer: { type: 'DOMAIN_MAIL_EXCHANGE_SERVER', ops: ['ADD', 'REMOVE'], values: { mxServers: (e) => str(dataOf(e).mxServer ?? dataOf(e).mailServer) } },
  dns: { type: 'DOMAIN_SUBDOMAIN', ops: ['ADD', 'REMOVE'], values: { subdomains: (e) => str(dataOf(e).subdomain) } },
};

function sectionTest(name: string, raw: unknown): Test {
  const sec = SECTIONS[name];
  const at = `.${name}`;
  const o = obj(raw, at);
  const extra = name === 'hostPort' ? ['ports'] : name === 'hostSoftware' ? ['software'] : name === 'hostCve' ? ['cvss'] : name === 'expires' ? ['dateRange'] : [];
  only(o, ['includedEventTypes', ...Object.keys(sec.values ?? {}), ...extra], at);
  const tests: Test[] = [(e) => e.type === sec.type];
  if (o.includedEventTypes !== undefined) {
    const ops = strs(o.includedEventTypes, `${at}.includedEventTypes`);
    for (const op of ops) if (!sec.ops.includes(op)) throw bad(`${at}.includedEventTypes: '${op}' is not one of ${sec.ops.join(', ')}`);
    tests.push((e) => ops.includes(e.operation));
  }
  for (const [key, valuesOf] of Object.entries(sec.values ?? {})) {
    if (o[key] !== undefined) tests.push(itemsTest(o[key], `${at}.${key}`, valuesOf));
  }
  if (o.ports !== undefined) {
    const p = obj(o.ports, `${at}.ports`);
    only(p, ['value', 'inverted'], `${at}.ports`);
    const ports = new Set(nums(p.value, `${at}.ports.value`));
    const inverted = bool(p.inverted, `${at}.ports.inverted`);
    tests.push((e) => ports.has(Number(dataOf(e).port)) !== inverted);
  }
  if (o.software !== undefined) {
    const s = obj(o.software, `${at}.software`);
    only(s, ['vendorProduct', 'version'], `${at}.software`);
    if (typeof s.vendorProduct !== 'string') throw bad(`${at}.software.vendorProduct: must be a string`);
    if (s.version !== undefined && s.version !== null && typeof s.version !== 'string') throw bad(`${at}.software.version: must be a string or null`);
    const want = s.vendorProduct.toLowerCase();
    const version = s.version as string | null | undefined;
    tests.push((e) => {
      const d = dataOf(e);
      const vp = [d.softwareVendor, d.softwareProduct].filter((x) => typeof x === 'string').join(' ').toLowerCase();
      return vp.includes(want) && (version === undefined || version === null || d.softwareVersion === version);
    });
  }
  if (o.cvss !== undefined) {
    const c = obj(o.cvss, `${at}.cvss`);
    only(c, ['operator', 'value'], `${at}.cvss`);
    if ((c.operator !== 'gte' && c.operator !== 'lte') || typeof c.value !== 'number') throw bad(`${at}.cvss: needs operator gte|lte and a numeric value`);
    const { operator, value } = c as { operator: 'gte' | 'lte'; value: number };
    tests.push((e) => {
      const v = Number(dataOf(e).cvss);
      return Number.isFinite(v) && (operator === 'gte' ? v >= value : v <= value);
    });
  }
  if (o.dateRange !== undefined) {
    const d = obj(o.dateRange, `${at}.dateRange`);
    only(d, ['start', 'end'], `${at}.dateRange`);
    const start = time(d.start, `${at}.dateRange.start`);
    const end = time(d.end, `${at}.dateRange.end`);
    tests.push((e) => {
      const t = typeof dataOf(e).expires === 'string' ? Date.parse(dataOf(e).expires as string) : NaN;
      if (Number.isNaN(t)) return false;
      const iso = new Date(t).toISOString();
      return (start === undefined || iso >= start) && (end === undefined || iso <= end);
    });
  }
  return (e) => tests.every((t) => t(e));
}

export interface CompiledFilters {
  readonly test: Test;
  /** Tag conditions need the workspace's tags; resolved per request. */
  readonly tags?: { readonly items: readonly string[]; readonly inverted: boolean; readonly comparison: 'IN' | 'OVERLAPS' };
  /** The lowest id the filters can match (idRange), to start reading there. */
  readonly fromId: number;
}

const GENERAL_KEYS = ['includedIpCidr', 'excludedIpCidr', 'domains', 'includedSslHash', 'excludedSslHash', 'types', 'tags'];
const TOP_KEYS = ['general', ...Object.keys(SECTIONS), 'dateRange', 'idRange'];

/** Checks the filters (unknown keys and wrong types are 10008) and compiles them into a test. */
export function compileLogbookFilters(raw: unknown): Result<CompiledFilters> {
  try {
    if (raw === undefined || raw === null) return ok({ test: () => true, fromId: 1 });
    const f = obj(raw, '');
    only(f, TOP_KEYS, '');
    const tests: Test[] = [];
    let tags: CompiledFilters['tags'];
    let fromId = 1;
    if (f.general !== undefined) {
      const g = obj(f.general, '.general');
      only(g, GENERAL_KEYS, '.general');
      if (g.types !== undefined) {
        const types = new Set(strs(g.types, '.general.types'));
        tests.push((e) => types.has(e.type));
      }
      if (g.includedIpCidr !== undefined) {
        const r = ranges(strs(g.includedIpCidr, '.general.includedIpCidr'), '.general.includedIpCidr');
        tests.push((e) => inRanges(r, ipOf(e)));
      }
      if (g.excludedIpCidr !== undefined) {
        const r = ranges(strs(g.excludedIpCidr, '.general.excludedIpCidr'), '.general.excludedIpCidr');
        tests.push((e) => !inRanges(r, ipOf(e)));
      }
      if (g.domains !== undefined) {
        const d = obj(g.domains, '.general.domains');
        only(d, ['items', 'inverted'], '.general.domains');
        const items = strs(d.items, '.general.domains.items').map((x) => x.toLowerCase());
        const inverted = bool(d.inverted, '.general.domains.inverted');
        // A domain covers its subdomains.
        tests.push((e) => namesOf(e).some((n) => items.some((i) => n.toLowerCase() === i || n.toLowerCase().endsWith('.' + i))) !== inverted);
      }
      if (g.includedSslHash !== undefined) {
        const h = new Set(strs(g.includedSslHash, '.general.includedSslHash').map((x) => x.toLowerCase()));
        tests.push((e) => hashesOf(e).some((x) => h.has(x)));
      }
      if (g.excludedSslHash !== undefined) {
        const h = new Set(strs(g.excludedSslHash, '.general.excludedSslHash').map((x) => x.toLowerCase()));
        tests.push((e) => !hashesOf(e).some((x) => h.has(x)));
      }
      if (g.tags !== undefined) {
        const t = obj(g.tags, '.general.tags');
        only(t, ['items', 'inverted', 'comparison'], '.general.tags');
        if (t.comparison !== 'IN' && t.comparison !== 'OVERLAPS') throw bad('.general.tags.comparison: must be IN or OVERLAPS');
        tags = { items: strs(t.items, '.general.tags.items'), inverted: bool(t.inverted, '.general.tags.inverted'), comparison: t.comparison };
      }
    }
    const sections = Object.keys(SECTIONS).filter((k) => f[k] !== undefined);
    if (sections.length > 0) {
      const any = sections.map((k) => sectionTest(k, f[k]));
      tests.push((e) => any.some((t) => t(e)));
    }
    if (f.dateRange !== undefined) {
      const d = obj(f.dateRange, '.dateRange');
      only(d, ['start', 'end', 'excludeStart', 'includeEnd'], '.dateRange');
      const start = time(d.start, '.dateRange.start');
      const end = time(d.end, '.dateRange.end');
      const exStart = bool(d.excludeStart, '.dateRange.excludeStart');
      const inEnd = bool(d.includeEnd, '.dateRange.includeEnd');
      tests.push((e) => {
        const t = e.timestamp;
        return (start === undefined || (exStart ? t > start : t >= start)) && (end === undefined || (inEnd ? t <= end : t < end));
      });
    }
    if (f.idRange !== undefined) {
      const d = obj(f.idRange, '.idRange');
      only(d, ['start', 'end', 'excludeStart', 'includeEnd'], '.idRange');
      for (const k of ['start', 'end']) if (d[k] !== undefined && (typeof d[k] !== 'number' || !Number.isFinite(d[k]))) throw bad(`.idRange.${k}: must be a number`);
      const start = d.start as number | undefined;
      const end = d.end as number | undefined;
      const exStart = bool(d.excludeStart, '.idRange.excludeStart');
      const inEnd = bool(d.includeEnd, '.idRange.includeEnd');
      if (start !== undefined) fromId = Math.max(1, Math.floor(exStart ? start + 1 : start));
      tests.push((e) => (start === undefined || (exStart ? e.id > start : e.id >= start)) && (end === undefined || (inEnd ? e.id <= end : e.id < end)));
    }
    return ok({ test: (e) => tests.every((t) => t(e)), fromId, ...(tags ? { tags } : {}) });
  } catch (e) {
    if (e instanceof Error) throw e;
    return { ok: false, problem: e as Problem };
  }
}

/** The asset an event is about, as (type, id), for tag filters. */
function assetOf(e: LogbookEvent): { type: 'HOST' | 'CERT' | 'DOMAIN' | 'SUBDOMAIN' | 'STORAGE_BUCKET'; id: string } | undefined {
  if (typeof e.entity.ipAddress === 'string') return { type: 'HOST', id: e.entity.ipAddress };
  if (typeof e.entity.sha256 === 'string') return { type: 'CERT', id: e.entity.sha256 };
  if (typeof e.entity.subdomain === 'string') return { type: 'SUBDOMAIN', id: e.entity.subdomain };
  if (typeof e.entity.domain === 'string') return { type: 'DOMAIN', id: e.entity.domain };
  if (typeof e.entity.bucketUrl === 'string') return { type: 'STORAGE_BUCKET', id: e.entity.bucketUrl };
  return undefined;
}

async function tagTest(ctx: AsmContext, workspaceId: string, tags: NonNullable<CompiledFilters['tags']>, events: readonly LogbookEvent[]): Promise<Test> {
  const byType = new Map<string, Set<string>>();
  for (const e of events) {
    const a = assetOf(e);
    if (a) byType.set(a.type, (byType.get(a.type) ?? new Set()).add(a.id));
  }
  const labels = new Map<string, Set<string>>();
  for (const [type, ids] of byType) {
    const found = await ctx.store.asmAnnotations.tagsOf(workspaceId, type as 'HOST', [...ids]);
    for (const [id, list] of found) labels.set(`${type}\u0000${id}`, new Set(list.map((t) => t.label)));
  }
  return (e) => {
    const a = assetOf(e);
    const have = (a && labels.get(`${a.type}\u0000${a.id}`)) ?? new Set<string>();
    const hit = tags.comparison === 'IN' ? tags.items.every((t) => have.has(t)) : tags.items.some((t) => have.has(t));
    return hit !== tags.inverted;
  };
}

/** The beta result item of an event (spec: per-type keys `ip`, `sslHash`, `name`, or `assetId`). */
export function presentLogbookEntry(e: LogbookEvent): Json {
  const d = dataOf(e);
  const base: Json = { type: e.type, logSubType: e.operation, id: e.id, timestamp: e.timestamp };
  const ip = ipOf(e);
  switch (e.type) {
    case 'HOST':
      return { ...base, ip, logData: {} };
    case 'HOST_PORT':
      return { ...base, ip, logData: { port: d.port } };
    case 'HOST_SOFTWARE':
      return {
        ...base,
        ip,
        logData: {
          vendorProduct: [d.softwareVendor, d.softwareProduct].filter((x) => typeof x === 'string').join(' ') || d.softwareName || d.softwareUri,
          version: typeof d.softwareVersion === 'string' ? d.softwareVersion : null,
        },
      };
    case 'HOST_PROTOCOL':
      return { ...base, ip, logData: { protocol: d.protocol } };
    case 'HOST_VULNERABILITY':
      return { ...base, ip, logData: { cve: d.cve, cvss: d.cvss } };
    case 'HOST_CERT':
      return { ...base, ip, sslHash: d.sha256, logData: { port: d.port, ...(typeof d.protocol === 'string' ? { app: d.protocol } : {}) } };
    case 'CERT':
      return { ...base, sslHash: e.entity.sha256, logData: {} };
    case 'DOMAIN':
      return { ...base, name: e.entity.domain, logData: {} };
    case 'DOMAIN_SUBDOMAIN':
      return { ...base, name: e.entity.domain, logData: { dns: d.subdomain } };
    case 'DOMAIN_EXPIRATION_DATE':
      return { ...base, name: e.entity.domain, logData: { expires: d.expires } };
    case 'DOMAIN_NAME_SERVER':
      return { ...base, name: e.entity.domain, logData: { nameserver: d.nameserver ?? d.nameServer } };
    case 'DOMAIN_REGISTRAR':
      return { ...base, name: e.entity.domain, logData: { registrar: d.registrar } };
    case 'DOMAIN_MAIL_EXCHANGE_SERVER':
      return { ...base, name: e.entity.domain, logData: { mxServer: d.mxServer ?? d.mailServer } };
    default: {
      const a = assetOf(e);
      const id = e.type === 'WEB_ENTITY' && typeof e.entity.name === 'string' ? `${e.entity.name}:${e.entity.port}` : a?.id ?? '';
      return { ...base, ...(ip ? { ip } : {}), assetId: id, logData: d };
    }
  }
}

interface WindowPosition {
  /** The next event id to look at. */
  readonly next: number;
}

function isWindowPosition(p: unknown): p is WindowPosition {
  const x = p as WindowPosition;
  return x !== null && typeof x === 'object' && Number.isSafeInteger(x.next) && x.next >= 1;
}

export async function getLogbookData(
  ctx: AsmContext,
  workspaceId: string,
  body: { filters?: unknown; nextWindowCursor?: unknown },
): Promise<Result<{ nextWindowCursor: string; results: Json[] }>> {
  const compiled = compileLogbookFilters(body.filters);
  if (!compiled.ok) return compiled;
  const fingerprint = requestFingerprint('beta-logbook', workspaceId, body.filters ?? null);
  let next = compiled.value.fromId;
  if (body.nextWindowCursor !== undefined && body.nextWindowCursor !== null && body.nextWindowCursor !== '') {
    if (typeof body.nextWindowCursor !== 'string') return fail('invalid_request', 'nextWindowCursor must be a string', { asmCode: 10040 });
    const decoded = decodeCursor(body.nextWindowCursor, fingerprint, isWindowPosition);
    if (!decoded.ok) return fail('invalid_request', `Invalid window cursor: ${decoded.problem.message}`, { asmCode: 10040 });
    next = Math.max(next, decoded.value.next);
  }
  const results: Json[] = [];
  for (;;) {
    const batch = await ctx.store.asmLogbook.read(workspaceId, { idFrom: next, limit: READ_BATCH });
    if (batch.length === 0) break;
    const tags = compiled.value.tags && (await tagTest(ctx, workspaceId, compiled.value.tags, batch));
    let stopped = false;
    for (const e of batch) {
      next = e.id + 1;
      if (compiled.value.test(e) && (!tags || tags(e))) results.push(presentLogbookEntry(e));
      if (results.length >= LOGBOOK_WINDOW) {
        stopped = true;
        break;
      }
    }
    if (stopped || batch.length < READ_BATCH) break;
  }
  return ok({ nextWindowCursor: encodeCursor<WindowPosition>(fingerprint, { next }), results });
}
