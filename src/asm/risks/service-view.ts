/**
 * Small readers over a Censys service object, so detectors state what they look for rather than
 * how to dig it out of the document.
 */
import type { ServiceDoc } from './risk-model.ts';

export type Obj = Record<string, unknown>;

export function asObj(v: unknown): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** The value at a dotted path through objects (arrays are not traversed). */
export function at(doc: unknown, path: string): unknown {
  let node: unknown = doc;
  for (const part of path.split('.')) {
    const o = asObj(node);
    if (!o) return undefined;
    node = o[part];
  }
  return node;
}

export function strAt(doc: unknown, path: string): string | undefined {
  const v = at(doc, path);
  return typeof v === 'string' ? v : undefined;
}

export function numAt(doc: unknown, path: string): number | undefined {
  const v = at(doc, path);
  return typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
}

export function boolAt(doc: unknown, path: string): boolean | undefined {
  const v = at(doc, path);
  return typeof v === 'boolean' ? v : undefined;
}

/** Upper-case service name (`HTTP`, `MYSQL`), `UNKNOWN` when absent. */
export function serviceName(s: ServiceDoc): string {
  return (s.service_name ?? 'UNKNOWN').toUpperCase();
}

/** The protocol sub-object of the service (`http`, `ssh`...), if decoded. */
export function protocol(s: ServiceDoc, name: string): Obj | undefined {
  return asObj(s[name]);
}

/** The service speaks TLS: it presents a certificate, carries a TLS handshake, or is HTTPS. */
export function isTls(s: ServiceDoc): boolean {
  if (typeof s.certificate === 'string' || asObj(s.tls)) return true;
  if ((s.extended_service_name ?? '').toUpperCase() === 'HTTPS') return true;
  const uri = strAt(s, 'http.request.uri');
  return uri !== undefined && uri.toLowerCase().startsWith('https:');
}

function normaliseHeader(name: string): string {
  return name.toLowerCase().replace(/-/g, '_');
}

/** Values of an HTTP response header, matched case-insensitively with `-` and `_` alike. */
// Header lookups repeat for every web detector; documents are not changed while detected.
const headerCache = new WeakMap<ServiceDoc, ReadonlyMap<string, readonly string[]>>();

function headerMap(s: ServiceDoc): ReadonlyMap<string, readonly string[]> {
  let m = headerCache.get(s);
  if (m) return m;
  const built = new Map<string, string[]>();
  const headers = asObj(at(s, 'http.response.headers'));
  for (const [k, v] of Object.entries(headers ?? {})) {
    const key = normaliseHeader(k);
    const list = built.get(key) ?? [];
    if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') list.push(x);
    if (typeof v === 'string') list.push(v);
    built.set(key, list);
  }
  headerCache.set(s, (m = built));
  return m;
}

export function headerValues(s: ServiceDoc, name: string): readonly string[] {
  return headerMap(s).get(normaliseHeader(name)) ?? [];
}

export function hasHeader(s: ServiceDoc, name: string): boolean {
  return headerValues(s, name).length > 0;
}

export function httpStatus(s: ServiceDoc): number | undefined {
  return numAt(s, 'http.response.status_code');
}

export function httpTitle(s: ServiceDoc): string | undefined {
  return strAt(s, 'http.response.html_title');
}

export function httpBody(s: ServiceDoc): string | undefined {
  return strAt(s, 'http.response.body');
}

export function serviceLabels(s: ServiceDoc): string[] {
  return Array.isArray(s.labels) ? s.labels.filter((l): l is string => typeof l === 'string') : [];
}

/** The context every service risk carries; the part of it that makes up identity is port and transport. */
export function serviceContext(s: ServiceDoc): { port: number; transportProtocol: string; serviceName: string } {
  return { port: s.port, transportProtocol: (s.transport_protocol ?? 'TCP').toUpperCase(), serviceName: serviceName(s) };
}
