/** masscan `-oJ` (JSON array) and `-oD` (NDJSON) output as ingest sources. */
import type { Readable } from 'node:stream';
import type { HostObservation, IngestRecord, IngestSource, ServiceObservation } from '../observation.ts';
import { jsonObjects } from './json-objects.ts';
import { bannerService, masscanTransport, statusService, unixSecondsToIso } from './masscan-service.ts';

type Mapped = { ok: true; host: HostObservation | undefined } | { ok: false; reason: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** One port entry: `{port, proto, status, reason, ttl}` or `{port, proto, service: {name, banner}}`. */
function mapPortEntry(entry: Record<string, unknown>): ServiceObservation | { error: string } | undefined {
  const port = entry.port;
  const proto = str(entry.proto) ?? '';
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) return { error: 'port is not a port number' };
  const transport = masscanTransport(proto);
  if (!transport) return undefined; // icmp/arp/sctp replies say the host is up, not that a service is there
  const service = entry.service;
  if (isObject(service)) {
    return bannerService(port, transport, str(service.name) ?? 'unknown', str(service.banner) ?? '');
  }
  const status = str(entry.status);
  if (status === undefined) return { error: 'port entry has neither status nor service' };
  return statusService(port, transport, status);
}

export function mapMasscanJson(value: unknown, now: Date): Mapped {
  if (!isObject(value)) return { ok: false, reason: 'record is not an object' };
  if (!('ip' in value) && 'finished' in value) return { ok: true, host: undefined };
  const ip = str(value.ip);
  if (!ip) return { ok: false, reason: 'record without "ip"' };
  const observedAt = unixSecondsToIso(value.timestamp, now);
  const entries: Record<string, unknown>[] = [];
  if (Array.isArray(value.ports)) {
    for (const p of value.ports) {
      if (!isObject(p)) return { ok: false, reason: 'ports entry is not an object' };
      entries.push(p);
    }
  } else if ('rec_type' in value) {
    // -oD of masscan 1.3: one port per line, the payload under `data`.
    const data = isObject(value.data) ? value.data : {};
    if (value.rec_type === 'banner') {
      entries.push({ port: value.port, proto: value.proto, service: { name: data.service_name, banner: data.banner } });
    } else if (value.rec_type === 'status') {
      entries.push({ port: value.port, proto: value.proto, status: data.status });
    } else return { ok: false, reason: `unknown rec_type ${JSON.stringify(value.rec_type)}` };
  } else return { ok: false, reason: 'record without "ports"' };
  const services: ServiceObservation[] = [];
  for (const entry of entries) {
    const s = mapPortEntry(entry);
    if (s === undefined) continue;
    if ('error' in s) return { ok: false, reason: s.error };
    services.push(s);
  }
  return { ok: true, host: { ip, observedAt, source: 'masscan', services } };
}

async function* readJson(input: Readable, now: Date): AsyncIterable<IngestRecord> {
  for await (const chunk of jsonObjects(input)) {
    const position = `line ${chunk.line}`;
    if (chunk.kind === 'error') {
      yield { kind: 'rejected', position, reason: chunk.reason };
      continue;
    }
    const mapped = mapMasscanJson(chunk.value, now);
    if (!mapped.ok) yield { kind: 'rejected', position, reason: mapped.reason };
    else if (mapped.host) yield { kind: 'host', position, host: mapped.host };
  }
}

/** The first JSON object's opening text in a head (up to its first `[` for the ports list). */
function firstObject(text: string): string | undefined {
  const at = text.indexOf('{');
  return at < 0 ? undefined : text.slice(at, at + 400);
}

export const masscanJsonSource: IngestSource = {
  format: 'masscan-json',
  sniff(head: Buffer): boolean {
    const text = head.toString('utf8');
    if (!/^\uFEFF?\s*\[\s*(\{|\]|$)/.test(text)) return false;
    const obj = firstObject(text);
    // An empty array carries nothing to recognise it by; another format may claim it.
    if (obj === undefined) return false;
    return /"ip"\s*:/.test(obj) && /"(ports|rec_type)"\s*:/.test(obj);
  },
  read(input: Readable, options: { readonly now: Date }): AsyncIterable<IngestRecord> {
    return readJson(input, options.now);
  },
};

export const masscanNdjsonSource: IngestSource = {
  format: 'masscan-ndjson',
  sniff(head: Buffer): boolean {
    const text = head.toString('utf8');
    if (!/^\uFEFF?\s*\{/.test(text)) return false;
    const first = text.replace(/^\uFEFF?\s*/, '').split('\n', 1)[0];
    return /"ip"\s*:/.test(first) && /"timestamp"\s*:/.test(first) && /"rec_type"\s*:|"ports"\s*:\s*\[/.test(first);
  },
  read(input: Readable, options: { readonly now: Date }): AsyncIterable<IngestRecord> {
    return readJson(input, options.now);
  },
};
