/**
 * Host names, diff, events and presented certificates, all answered from stored history.
 */
import type { Result } from '../lib/problem.ts';
import { fail, ok } from '../lib/problem.ts';
import { parseTimestamp, isoTime } from '../lib/time.ts';
import { diffJson, type PatchOp } from '../lib/json-patch.ts';
import type { StoredDocument } from '../store/store.ts';
import type { SearchContext } from './search-context.ts';
import { parseHostId } from './document-ids.ts';
import { decodeCursor, encodeCursor, isOffset, requestFingerprint } from './cursor.ts';

type Json = Record<string, unknown>;

function optionalTime(name: string, text: string | undefined): Result<number | undefined> {
  if (text === undefined || text === '') return ok(undefined);
  const t = parseTimestamp(text);
  return t === undefined ? fail('invalid_time', `Invalid ${name} '${text}': expected RFC 3339, e.g. 2021-03-01T00:00:00.000000Z`) : ok(t);
}

function page<T>(items: readonly T[], fingerprint: string, perPage: number, cursor: string | undefined): Result<{ items: T[]; next: string }> {
  let offset = 0;
  if (cursor) {
    const d = decodeCursor(cursor, fingerprint, isOffset);
    if (!d.ok) return d;
    offset = d.value;
  }
  const slice = items.slice(offset, offset + perPage);
  const next = offset + perPage < items.length ? encodeCursor(fingerprint, offset + perPage) : '';
  return ok({ items: slice, next });
}

function checkPerPage(perPage: number, max: number): Result<number> {
  return Number.isInteger(perPage) && perPage >= 1 && perPage <= max ? ok(perPage) : fail('invalid_request', `per_page must be an integer from 1 to ${max}`);
}

/** Forward DNS names of the host plus the names of its virtual hosts. */
export async function hostNames(ctx: SearchContext, rawIp: string, perPage = 100, cursor?: string): Promise<Result<{ names: string[]; links: { prev: string; next: string } }>> {
  const id = parseHostId(rawIp);
  if (!id.ok) return id;
  const pp = checkPerPage(perPage, 1000);
  if (!pp.ok) return pp;
  const host = await ctx.store.documents.get('hosts', id.value.ip);
  const vhosts = await ctx.store.documents.idsWithPrefix('hosts', `${id.value.ip}+`, 100_000);
  if (!host && vhosts.length === 0) return fail('not_found', `Host ${id.value.ip} not found`);
  const names = new Set<string>();
  const dns = (host?.doc.dns ?? {}) as Json;
  for (const n of Array.isArray(dns.names) ? dns.names : []) if (typeof n === 'string') names.add(n);
  for (const v of vhosts) names.add(v.slice(v.indexOf('+') + 1));
  const sorted = [...names].sort();
  const p = page(sorted, requestFingerprint('names', id.value.ip), pp.value, cursor);
  if (!p.ok) return p;
  return ok({ names: p.value.items, links: { prev: '', next: p.value.next } });
}

async function versionAt(ctx: SearchContext, id: string, at: number | undefined): Promise<StoredDocument | undefined> {
  return at === undefined ? ctx.store.documents.get('hosts', id) : ctx.store.documents.getAt('hosts', id, isoTime(at));
}

export async function hostDiff(
  ctx: SearchContext,
  rawIp: string,
  opts: { ipB?: string; atTime?: string; atTimeB?: string },
): Promise<Result<{ a: Json; b: Json; patch: PatchOp[] }>> {
  const a = parseHostId(rawIp);
  if (!a.ok) return a;
  const b = opts.ipB ? parseHostId(opts.ipB) : a;
  if (!b.ok) return b;
  const ta = optionalTime('at_time', opts.atTime);
  if (!ta.ok) return ta;
  const tb = optionalTime('at_time_b', opts.atTimeB);
  if (!tb.ok) return tb;
  const va = await versionAt(ctx, a.value.id, ta.value);
  if (!va) return fail('not_found', `Host ${a.value.id} has no data${ta.value !== undefined ? ` at ${isoTime(ta.value)}` : ''}`);
  const vb = await versionAt(ctx, b.value.id, tb.value);
  if (!vb) return fail('not_found', `Host ${b.value.id} has no data${tb.value !== undefined ? ` at ${isoTime(tb.value)}` : ''}`);
  const head = (v: StoredDocument) => ({ ip: v.doc.ip, ...(v.doc.name ? { name: v.doc.name } : {}), last_updated_at: v.doc.last_updated_at ?? v.validFrom });
  return ok({ a: head(va), b: head(vb), patch: diffJson(va.doc, vb.doc) });
}

function services(doc: Json): Json[] {
  return Array.isArray(doc.services) ? (doc.services as Json[]) : [];
}

function serviceKey(s: Json): string {
  return `${s.port}/${s.transport_protocol ?? 'TCP'}`;
}

function serviceId(s: Json): Json {
  return { port: s.port, transport_protocol: s.transport_protocol ?? 'TCP', service_name: s.service_name ?? 'UNKNOWN' };
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export interface HostEvent {
  timestamp: string;
  _event: string;
  [kind: string]: unknown;
}

/** The events that turn version `prev` (undefined for the first) into `cur`. */
export function eventsBetween(prev: Json | undefined, cur: Json, at: string): HostEvent[] {
  const out: HostEvent[] = [];
  const push = (kind: string, body: Json) => out.push({ timestamp: at, _event: kind, [kind]: body });
  const before = new Map(services(prev ?? {}).map((s) => [serviceKey(s), s]));
  const after = new Map(services(cur).map((s) => [serviceKey(s), s]));
  for (const [key, s] of after) {
    const old = before.get(key);
    const observedAt = typeof s.observed_at === 'string' ? s.observed_at : at;
    const perspective = s.perspective_id ?? 'PERSPECTIVE_PERISCOPE';
    if (!old) push('service_added_to_host', { id: serviceId(s), observed_at: observedAt, perspective_id: perspective });
    else {
      const changed = [...new Set([...Object.keys(old), ...Object.keys(s)])]
        .filter((k) => k !== 'observed_at' && !same(old[k], s[k]))
        .sort()
        .map((k) => ({ field_name: `services.${k}` }));
      if (changed.length > 0) push('service_observed', { id: serviceId(s), observed_at: observedAt, perspective_id: perspective, changed_fields: changed });
    }
  }
  for (const [key, s] of before) {
    if (!after.has(key)) {
      push('service_removed_from_host', {
        id: serviceId(s),
        _reason: 'not_observed',
        not_observed: { not_observed_at: at, perspective_id: s.perspective_id ?? 'PERSPECTIVE_PERISCOPE' },
      });
    }
  }
  if (cur.location && !same(prev?.location, cur.location)) push('location_updated', { location: cur.location });
  if (cur.autonomous_system && !same(prev?.autonomous_system, cur.autonomous_system)) push('routing_updated', { routing: cur.autonomous_system });
  const dnsOf = (d: Json | undefined) => ((d?.dns ?? {}) as Json);
  const oldNames = new Set(strings(dnsOf(prev).names));
  const newNames = strings(dnsOf(cur).names);
  for (const n of newNames) if (!oldNames.has(n)) push('name_resolved_to_host', { name: n, record_type: cur.ip && String(cur.ip).includes(':') ? 'aaaa' : 'a', resolved_at: at });
  const removed = [...oldNames].filter((n) => !newNames.includes(n));
  if (removed.length > 0) push('names_removed_from_host', { names_removed: removed.map((name) => ({ name, reason: 'not_resolved' })) });
  const oldRdns = strings((dnsOf(prev).reverse_dns as Json | undefined)?.names);
  const newRdns = strings((dnsOf(cur).reverse_dns as Json | undefined)?.names);
  if (!same(oldRdns, newRdns) && (newRdns.length > 0 || oldRdns.length > 0)) push('reverse_dns_updated', { names: newRdns, reason: newRdns.length > 0 ? 'resolved' : 'not_resolved' });
  return out;
}

export async function hostEvents(
  ctx: SearchContext,
  rawIp: string,
  opts: { startTime?: string; endTime?: string; perPage?: number; cursor?: string; reversed?: boolean },
): Promise<Result<{ ip: string; events: HostEvent[]; links: { prev: string; next: string } }>> {
  const id = parseHostId(rawIp);
  if (!id.ok) return id;
  const pp = checkPerPage(opts.perPage ?? 25, 50);
  if (!pp.ok) return pp;
  const start = optionalTime('start_time', opts.startTime);
  if (!start.ok) return start;
  const end = optionalTime('end_time', opts.endTime);
  if (!end.ok) return end;
  if (start.value !== undefined && end.value !== undefined && end.value <= start.value) {
    return fail('invalid_request', 'end_time must be later than start_time');
  }
  const versions = await ctx.store.documents.history('hosts', id.value.id);
  if (versions.length === 0) return fail('not_found', `Host ${id.value.id} not found`);
  let events: HostEvent[] = [];
  let prev: Json | undefined;
  for (const v of versions) {
    events.push(...eventsBetween(prev, v.doc, v.validFrom));
    prev = v.doc;
  }
  events = events.filter((e) => {
    const t = Date.parse(e.timestamp);
    return (start.value === undefined || t >= start.value) && (end.value === undefined || t < end.value);
  });
  if (opts.reversed) events.reverse();
  const fp = requestFingerprint('events', id.value.id, opts.startTime ?? '', opts.endTime ?? '', !!opts.reversed);
  const p = page(events, fp, pp.value, opts.cursor);
  if (!p.ok) return p;
  return ok({ ip: id.value.id, events: p.value.items, links: { prev: '', next: p.value.next } });
}

interface Presented {
  fingerprint: string;
  port: unknown;
  service_name: unknown;
  transport_protocol: unknown;
  first_observed_at: string;
  last_observed_at: string;
  first_updated_at: string;
  last_updated_at: string;
}

/** Every certificate a host's services presented across its history, with when. */
function presentedCertificates(versions: readonly StoredDocument[], filterFp?: string): Presented[] {
  const byKey = new Map<string, Presented>();
  for (const v of versions) {
    for (const s of services(v.doc)) {
      if (typeof s.certificate !== 'string') continue;
      const fp = s.certificate.toLowerCase();
      if (filterFp && fp !== filterFp) continue;
      const key = `${fp}|${serviceKey(s)}`;
      const seen = typeof s.observed_at === 'string' ? s.observed_at : v.validFrom;
      const existing = byKey.get(key);
      if (!existing) {
        byKey.set(key, {
          fingerprint: fp,
          port: s.port,
          service_name: s.service_name,
          transport_protocol: s.transport_protocol ?? 'TCP',
          first_observed_at: seen,
          last_observed_at: seen,
          first_updated_at: v.validFrom,
          last_updated_at: v.validFrom,
        });
      } else {
        if (seen > existing.last_observed_at) existing.last_observed_at = seen;
        existing.last_updated_at = v.validFrom;
      }
    }
  }
  return [...byKey.values()];
}

export async function hostCertificates(
  ctx: SearchContext,
  rawIp: string,
  opts: { perPage?: number; startTime?: string; cursor?: string },
): Promise<Result<{ ip: string; certificates: Presented[]; links: { prev: string; next: string } }>> {
  const id = parseHostId(rawIp);
  if (!id.ok) return id;
  const pp = checkPerPage(opts.perPage ?? 100, 100);
  if (!pp.ok) return pp;
  const start = optionalTime('start_time', opts.startTime);
  if (!start.ok) return start;
  const versions = await ctx.store.documents.history('hosts', id.value.id);
  if (versions.length === 0) return fail('not_found', `Host ${id.value.id} not found`);
  const certs = presentedCertificates(versions).filter((c) => start.value === undefined || Date.parse(c.last_observed_at) >= start.value!);
  const p = page(certs, requestFingerprint('host-certs', id.value.id, opts.startTime ?? ''), pp.value, opts.cursor);
  if (!p.ok) return p;
  return ok({ ip: id.value.id, certificates: p.value.items, links: { prev: '', next: p.value.next } });
}

/** Hosts currently presenting a certificate, found through the index (`services.certificate`). */
async function hostsPresenting(ctx: SearchContext, fp: string): Promise<StoredDocument[]> {
  const field = ctx.catalogues.hosts.get('services.certificate');
  if (!field) return [];
  const ids: string[] = [];
  let after;
  for (;;) {
    const r = ctx.engine.search('hosts', {
      query: { kind: 'field', field, predicate: { op: 'eq', value: fp, caseSensitive: false } },
      limit: 1000,
      ...(after ? { after } : {}),
    });
    ids.push(...r.hits.map((h) => h.id));
    if (!r.more || r.hits.length === 0) break;
    after = r.hits[r.hits.length - 1].position;
  }
  const docs = await ctx.store.documents.getMany('hosts', ids);
  const order = new Map(ids.map((id, i) => [id, i]));
  return docs.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

export async function certificateObservations(
  ctx: SearchContext,
  fingerprint: string,
  opts: { perPage?: number; startTime?: string; endTime?: string; cursor?: string },
): Promise<Result<{ fingerprint: string; observations: Json[]; links: { prev: string; next: string } }>> {
  const pp = checkPerPage(opts.perPage ?? 50, 100);
  if (!pp.ok) return pp;
  const start = optionalTime('start_time', opts.startTime);
  if (!start.ok) return start;
  const end = optionalTime('end_time', opts.endTime);
  if (!end.ok) return end;
  const observations: Json[] = [];
  for (const host of await hostsPresenting(ctx, fingerprint)) {
    const versions = await ctx.store.documents.history('hosts', host.id);
    for (const c of presentedCertificates(versions, fingerprint)) {
      if (start.value !== undefined && Date.parse(c.last_observed_at) < start.value) continue;
      if (end.value !== undefined && Date.parse(c.first_observed_at) >= end.value) continue;
      const { fingerprint: _fp, ...rest } = c;
      observations.push({ ip: host.doc.ip, ...(host.doc.name ? { name: host.doc.name } : {}), ...rest });
    }
  }
  const p = page(observations, requestFingerprint('observations', fingerprint, opts.startTime ?? '', opts.endTime ?? ''), pp.value, opts.cursor);
  if (!p.ok) return p;
  return ok({ fingerprint, observations: p.value.items, links: { prev: '', next: p.value.next } });
}

export async function certificateHosts(
  ctx: SearchContext,
  fingerprint: string,
  cursor?: string,
): Promise<Result<{ fingerprint: string; hosts: Json[]; links: { prev: string; next: string } }>> {
  const hosts: Json[] = [];
  for (const host of await hostsPresenting(ctx, fingerprint)) {
    const versions = await ctx.store.documents.history('hosts', host.id);
    const seen = presentedCertificates(versions, fingerprint);
    if (seen.length === 0) continue;
    const first = seen.map((s) => s.first_observed_at).sort()[0];
    const last = seen.map((s) => s.last_observed_at).sort().at(-1)!;
    hosts.push({ ip: host.doc.ip, name: typeof host.doc.name === 'string' ? host.doc.name : '', observed_at: last, first_observed_at: first });
  }
  const p = page(hosts, requestFingerprint('cert-hosts', fingerprint), 100, cursor);
  if (!p.ok) return p;
  return ok({ fingerprint, hosts: p.value.items, links: { prev: '', next: p.value.next } });
}
