// One-shot hashing: creating a Hash object per body cost four times the digest itself.
import { hash } from 'node:crypto';
import { canonicalHeaderKey } from '../../model/field-catalogue.ts';
import type { SoftwareObservation, TlsObservation } from '../observation.ts';
import { htmlTags, htmlTitle } from './html.ts';
import { isObject, num, obj, str } from './read-lines.ts';
import { serverHeaderSoftware } from './software.ts';
import { handshakeTls } from './tls-handshake.ts';
import { sortedShallow } from '../pipeline/key-order.ts';

export type HeaderMap = Record<string, string[]>;

// Header names repeat across millions of records; their canonical keys are remembered.
const keyCache = new Map<string, string>();
function headerKey(name: string): string {
  let key = keyCache.get(name);
  if (key === undefined) {
    key = canonicalHeaderKey(name);
    if (keyCache.size < 4096) keyCache.set(name, key);
  }
  return key;
}

function addHeader(out: HeaderMap, name: string, values: unknown): void {
  if (name === '') return;
  if (typeof values === 'string') {
    (out[headerKey(name)] ??= []).push(values);
    return;
  }
  if (!Array.isArray(values)) return;
  let list: string[] | undefined;
  for (const v of values) {
    if (typeof v !== 'string') continue;
    list ??= out[headerKey(name)] ??= [];
    list.push(v);
  }
}

/**
 * zgrab2 header maps (`{"content_type": ["text/html"], "unknown": [{"key": "X-Foo", "value": [...]}]}`)
 * with Censys keys (`Content_Type`, `X_Foo`). Values are kept as arrays of strings.
 */
export function zgrabHeaders(v: unknown): HeaderMap {
  const out: HeaderMap = {};
  const h = obj(v);
  if (!h) return out;
  for (const name in h) {
    const values = h[name];
    if (name === 'unknown' && Array.isArray(values)) {
      for (const u of values) if (isObject(u) && typeof u.key === 'string') addHeader(out, u.key, u.value);
      continue;
    }
    addHeader(out, name, values);
  }
  return out;
}

export interface HttpMapping {
  readonly http: Record<string, unknown>;
  readonly tls?: TlsObservation;
  readonly https: boolean;
  readonly banner?: string;
  readonly software: SoftwareObservation[];
  /** Port named in the request URL (`http://1.2.3.4:8080/`), when any. */
  readonly urlPort?: number;
}

function requestUri(url: Record<string, unknown> | undefined, host: string | undefined): string | undefined {
  if (!url) return undefined;
  const scheme = str(url.scheme) ?? 'http';
  const h = str(url.host) ?? host;
  if (!h) return undefined;
  return `${scheme}://${h}${str(url.path) ?? '/'}${url.raw_query ? `?${String(url.raw_query)}` : ''}`;
}

// The banner's header names, by canonical key (`Content_Type` → `Content-Type`), remembered like the keys.
const bannerNames = new Map<string, string>();
function bannerName(key: string): string {
  let name = bannerNames.get(key);
  if (name === undefined) {
    name = key.replace(/_/g, '-');
    if (bannerNames.size < 4096) bannerNames.set(key, name);
  }
  return name;
}

function headerBanner(protocol: string | undefined, statusLine: string | undefined, headers: HeaderMap): string | undefined {
  if (!statusLine) return undefined;
  let text = `${protocol ?? 'HTTP/1.1'} ${statusLine}\r\n`;
  for (const k in headers) {
    const name = bannerName(k);
    for (const value of headers[k]!) text += `${name}: ${value}\r\n`;
  }
  return text;
}

/** The zgrab2 http module's `result` in the Censys `http` shape. */
export function mapHttpResult(result: Record<string, unknown>): HttpMapping | undefined {
  const response = obj(result.response);
  if (!response) return undefined;
  const request = obj(response.request);
  const url = obj(request?.url);
  const headers = zgrabHeaders(response.headers);
  const statusCode = num(response.status_code);
  const statusLine = str(response.status_line);
  const protocol = str(obj(response.protocol)?.name);
  const body = typeof response.body === 'string' ? response.body : undefined;

  // Built with keys in canonical order (see pipeline/key-order.ts): the store writes them as they are.
  const res: Record<string, unknown> = {};
  if (body !== undefined) {
    const bytes = Buffer.from(body, 'utf8');
    const sha1 = hash('sha1', bytes, 'hex');
    const sha256 = str(response.body_sha256) ?? hash('sha256', bytes, 'hex');
    res.body = body;
    res.body_hash = `sha1:${sha1}`;
    res.body_hashes = [`sha1:${sha1}`, `sha256:${sha256}`];
    res.body_size = bytes.length;
  }
  // The document's header maps in key order; the banner keeps the order the server sent them in.
  res.headers = sortedShallow(headers);
  if (body !== undefined) {
    const tags = htmlTags(body);
    if (tags.length > 0) res.html_tags = tags;
    const title = htmlTitle(body);
    if (title) res.html_title = title;
  }
  if (protocol) res.protocol = protocol;
  if (statusCode !== undefined) res.status_code = statusCode;
  if (statusLine) {
    const reason = statusLine.replace(/^\s*\d{3}\s*/, '').trim();
    if (reason !== '') res.status_reason = reason;
  }

  const req: Record<string, unknown> = {};
  if (request?.headers) req.headers = sortedShallow(zgrabHeaders(request.headers));
  const method = str(request?.method);
  if (method) req.method = method;
  const uri = requestUri(url, str(request?.host));
  if (uri) req.uri = uri;

  const tls = handshakeTls(obj(request?.tls_log)?.handshake_log);
  const software: SoftwareObservation[] = [];
  for (const server of headers.Server ?? []) software.push(...serverHeaderSoftware(server));
  for (const powered of headers.X_Powered_By ?? []) software.push(...serverHeaderSoftware(powered));

  const hostPort = str(url?.host)?.match(/:(\d+)$/);
  const urlPort = hostPort ? Number(hostPort[1]) : undefined;
  const banner = headerBanner(protocol, statusLine ?? (statusCode !== undefined ? String(statusCode) : undefined), headers);
  return {
    http: { request: req, response: res },
    ...(tls ? { tls } : {}),
    https: tls !== undefined || str(url?.scheme) === 'https',
    ...(banner ? { banner } : {}),
    software,
    ...(urlPort && urlPort <= 65535 ? { urlPort } : {}),
  };
}

