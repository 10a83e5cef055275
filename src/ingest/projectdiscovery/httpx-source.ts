/**
 * httpx `-json` lines. httpx probes a URL, so a record describes an HTTP service as reached
 * through a name: one observation per resolved IP (`a`, `aaaa`, or `host` when it is an IP), and,
 * when the input was a host name, one more per IP for that named virtual host.
 */
import type { Readable } from 'node:stream';
import { zgrabHeaders } from '../zgrab2/http-result.ts';
import { jsonHead, mentionsKey, num, obj, str, validPort } from '../zgrab2/read-lines.ts';
import { serverHeaderSoftware, technologySoftware } from '../zgrab2/software.ts';
import type { HostObservation, IngestRecord, IngestSource, ServiceObservation, SoftwareObservation } from '../observation.ts';
import { asHostName, asIp, observedAt, pdTls, pemDers, readJsonRecords, strings } from './pd-common.ts';

function urlParts(url: string | undefined): { scheme?: string; host?: string; port?: number } {
  if (!url) return {};
  try {
    const u = new URL(url);
    const scheme = u.protocol.replace(/:$/, '');
    return { scheme, host: u.hostname, ...(u.port ? { port: Number(u.port) } : {}) };
  } catch {
    return {};
  }
}

/** Keeps one entry per product, preferring the one that carries a version. */
function dedupeSoftware(list: SoftwareObservation[]): SoftwareObservation[] {
  const byKey = new Map<string, SoftwareObservation>();
  for (const s of list) {
    const key = `${s.vendor ?? ''}:${(s.product ?? '').toLowerCase()}`;
    const prev = byKey.get(key);
    if (!prev || (!prev.version && s.version)) byKey.set(key, s);
  }
  return [...byKey.values()];
}

export function mapHttpxRecord(value: Record<string, unknown>, position: string, now: Date): IngestRecord[] {
  // `-probe` prints failed targets too; they say nothing about any host.
  if (value.failed === true) return [];
  const url = str(value.url);
  const parts = urlParts(url);
  const ips = [...strings(value.a), ...strings(value.aaaa)].map(asIp).filter((x): x is string => x !== undefined);
  const direct = asIp(str(value.host)) ?? asIp(parts.host) ?? asIp(str(value.input));
  if (ips.length === 0 && direct) ips.push(direct);
  const unique = [...new Set(ips)];
  if (unique.length === 0) {
    const given = str(value.host) ?? parts.host;
    return [{ kind: 'rejected', position, reason: given && !asHostName(given) ? `invalid ip "${given}"` : 'no ip: neither "a"/"aaaa" nor an IP "host"' }];
  }
  const scheme = (str(value.scheme) ?? parts.scheme ?? 'http').toLowerCase();
  const port = validPort(value.port) ?? parts.port ?? (scheme === 'https' ? 443 : 80);

  const headers = zgrabHeaders(value.header);
  const webserver = str(value.webserver);
  if (webserver && !headers.Server) headers.Server = [webserver];
  const contentType = str(value.content_type);
  if (contentType && !headers.Content_Type) headers.Content_Type = [contentType];

  const response: Record<string, unknown> = { headers };
  const status = num(value.status_code);
  if (status !== undefined) response.status_code = status;
  const title = str(value.title);
  if (title) response.html_title = title;
  const length = num(value.content_length);
  if (length !== undefined && length >= 0) response.body_size = length;
  const hash = obj(value.hash);
  const bodySha256 = str(hash?.body_sha256);
  if (bodySha256) response.body_hashes = [`sha256:${bodySha256}`];
  const body = str(value.body);
  if (body) response.body = body;
  const request: Record<string, unknown> = {};
  const method = str(value.method);
  if (method) request.method = method;
  if (url) request.uri = url;

  const software: SoftwareObservation[] = [];
  if (webserver) software.push(...serverHeaderSoftware(webserver));
  for (const t of strings(value.tech)) {
    const s = technologySoftware(t);
    if (s) software.push(s);
  }
  const sw = dedupeSoftware(software);

  const tlsObj = obj(value.tls);
  const https = scheme === 'https' || tlsObj !== undefined;
  const chain = tlsObj ? pemDers(tlsObj.certificate, tlsObj.chain).ders : [];
  const service: ServiceObservation = {
    port,
    transport: 'TCP',
    state: 'open',
    serviceName: 'HTTP',
    ...(https ? { extendedServiceName: 'HTTPS' } : {}),
    ...(sw.length > 0 ? { software: sw } : {}),
    protocols: { http: { request, response } },
    ...(tlsObj ? { tls: pdTls(tlsObj, chain) } : {}),
  };

  const name = asHostName(str(value.input)) ?? asHostName(parts.host) ?? asHostName(str(value.host));
  const at = observedAt(value.timestamp, now);
  const out: IngestRecord[] = [];
  for (const ip of unique) {
    const base: HostObservation = { ip, observedAt: at, source: 'httpx', services: [service] };
    out.push({ kind: 'host', position, host: name ? { ...base, names: [name] } : base });
    if (name) out.push({ kind: 'host', position, host: { ...base, name } });
  }
  return out;
}

export const httpxSource: IngestSource = {
  format: 'httpx',
  sniff(head: Buffer): boolean {
    const first = jsonHead(head);
    if (!first) return false;
    if (!first.complete) {
      const p = first.prefix;
      return mentionsKey(p, 'url') && !mentionsKey(p, 'data') && ['status_code', 'webserver', 'input', 'scheme', 'title'].some((k) => mentionsKey(p, k));
    }
    const v = first.value;
    return typeof v.url === 'string' && !('data' in v) && ['status_code', 'webserver', 'input', 'scheme', 'title', 'failed'].some((k) => k in v);
  },
  read(input: Readable, { now }: { readonly now: Date }): AsyncIterable<IngestRecord> {
    return readJsonRecords(input, (v, position) => mapHttpxRecord(v, position, now));
  },
};
