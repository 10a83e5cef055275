/**
 * zgrab2 JSON lines: `{"ip", "domain"?, "data": {"<scan name>": {"status", "protocol", "result",
 * "timestamp", "error"?}}}`, one module result per scan name. Each line becomes one host
 * observation (plus one of the named virtual host when `domain` was given).
 */
import type { Readable } from 'node:stream';
import { isIP } from 'node:net';
import { parseIp } from '../../lib/ip.ts';
import { isoTime } from '../../lib/time.ts';
import { parseUtcTime } from '../pipeline/parse-utc-time.ts';
import { isoTimeCached } from '../pipeline/time-cache.ts';
import type { HostObservation, IngestRecord, IngestSource, ServiceObservation, SoftwareObservation, TlsObservation } from '../observation.ts';
import { mapHttpResult } from './http-result.ts';
import { moduleInfo } from './modules.ts';
import { isObject, jsonHead, mentionsKey, obj, str, validPort } from './read-lines.ts';
import { readLineBatches, type Line } from '../../lib/read-lines.ts';
import { mapSshResult } from './ssh-result.ts';
import { handshakeTls } from './tls-handshake.ts';

export interface Zgrab2Options {
  /** Port of a scan name that does not carry one (`{"web": 8080}`); consulted before protocol defaults. */
  readonly modulePorts?: Readonly<Record<string, number>>;
}

const OPEN_STATUSES = new Set(['success']);
const MISMATCH_STATUSES = new Set(['protocol-error', 'application-error', 'unknown-error']);
const NOTHING_KNOWN = new Set(['connection-timeout', 'io-timeout']);
export const ZGRAB2_STATUSES = ['success', 'connection-refused', 'connection-timeout', 'io-timeout', 'protocol-error', 'application-error', 'unknown-error'] as const;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

type ModuleOutcome =
  | { readonly kind: 'service'; readonly service: ServiceObservation }
  | { readonly kind: 'skip' }
  | { readonly kind: 'rejected'; readonly reason: string };

function portOf(name: string, protocol: string, mod: Record<string, unknown>, result: Record<string, unknown>, linePort: unknown, urlPort: number | undefined, options: Zgrab2Options): number | undefined {
  const explicit = validPort(mod.port) ?? validPort(result.port) ?? validPort(linePort);
  if (explicit) return explicit;
  const configured = options.modulePorts?.[name];
  if (configured !== undefined) return validPort(configured);
  const suffix = /(?:^|[-_.])(\d{1,5})$/.exec(name) ?? /^[a-z]+(\d{2,5})$/i.exec(name);
  if (suffix) {
    const p = validPort(suffix[1]);
    if (p) return p;
  }
  if (urlPort) return urlPort;
  return moduleInfo(protocol).port;
}

function mapModule(name: string, mod: Record<string, unknown>, linePort: unknown, options: Zgrab2Options): ModuleOutcome {
  const status = str(mod.status) ?? 'unknown-error';
  if (NOTHING_KNOWN.has(status)) return { kind: 'skip' };
  const protocol = (str(mod.protocol) ?? name).toLowerCase();
  const info = moduleInfo(protocol);
  const result = obj(mod.result) ?? {};
  const http = protocol === 'http' ? mapHttpResult(result) : undefined;
  const port = portOf(name, protocol, mod, result, linePort, http?.urlPort ?? (protocol === 'http' && http?.https ? 443 : undefined), options);
  if (port === undefined) {
    return { kind: 'rejected', reason: `module "${name}" (${protocol}): no port in the result, the scan name or the protocol's defaults` };
  }
  const base = { port, transport: info.transport };
  if (status === 'connection-refused') return { kind: 'service', service: { ...base, state: 'closed' } };

  if (!OPEN_STATUSES.has(status)) {
    // Known failures (protocol/application errors) and statuses this reader does not know: the
    // port answered, but not in the protocol asked for.
    const banner = str(result.banner) ?? str(obj(result.server_id)?.raw);
    const labels = MISMATCH_STATUSES.has(status) ? [] : [`zgrab2-status:${status}`];
    return { kind: 'service', service: { ...base, state: 'open', serviceName: 'UNKNOWN', ...(banner ? { banner } : {}), ...(labels.length ? { labels } : {}) } };
  }

  let serviceName = info.serviceName;
  let extendedServiceName = info.extendedServiceName;
  let banner = str(result.banner);
  let software: SoftwareObservation[] = [];
  let tls: TlsObservation | undefined;
  let protocols: Record<string, unknown>;

  if (protocol === 'http') {
    if (http) {
      protocols = { http: http.http };
      tls = http.tls;
      banner = http.banner;
      software = http.software;
      if (http.https) extendedServiceName = 'HTTPS';
    } else {
      protocols = {};
    }
  } else if (protocol === 'ssh') {
    const ssh = mapSshResult(result);
    protocols = { ssh: ssh.ssh };
    banner = ssh.banner;
    software = ssh.software;
  } else if (protocol === 'tls') {
    tls = handshakeTls(result.handshake_log);
    protocols = {};
  } else if (protocol === 'banner') {
    serviceName = 'UNKNOWN';
    protocols = banner !== undefined ? { banner_grab: { banner } } : {};
  } else {
    protocols = { [protocol]: result };
    // STARTTLS and implicit-TLS modules (ftp, smtp, imap, pop3 ...) log their handshake under `tls`.
    tls = handshakeTls(obj(result.tls)?.handshake_log);
  }

  // Built by assignment: conditional spreads cost more than the rest of the mapping on hot paths.
  const service: Mutable<ServiceObservation> = { port, transport: info.transport, state: 'open' };
  if (serviceName) service.serviceName = serviceName;
  if (extendedServiceName) service.extendedServiceName = extendedServiceName;
  if (banner !== undefined) service.banner = banner;
  if (software.length > 0) service.software = software;
  for (const _ in protocols) {
    service.protocols = protocols;
    break;
  }
  if (tls) service.tls = tls;
  return { kind: 'service', service };
}

/**
 * IP text in normal form, or undefined. IPv4 must be a plain dotted quad (node's check, which also
 * refuses leading zeros that other tools read as octal); IPv6 is compressed and lower-cased.
 */
export function normalIp(text: string): string | undefined {
  const kind = isIP(text);
  if (kind === 4) return text;
  if (kind === 6) return parseIp(text)?.toString();
  return undefined;
}

// Scan output repeats the same timestamps line after line; remembering the last one spares a parse.
let lastStamp = '';
let lastMs: number | undefined;
export function stampMs(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  if (v !== lastStamp) {
    lastStamp = v;
    lastMs = parseUtcTime(v);
  }
  return lastMs;
}

function latestTime(times: number[], now: Date): string {
  return times.length > 0 ? isoTimeCached(Math.max(...times)) : isoTime(now);
}

/** Maps one parsed zgrab2 line to records (host observations and module-level rejections). */
export function mapZgrab2Line(value: unknown, position: string, now: Date, options: Zgrab2Options = {}): IngestRecord[] {
  if (!isObject(value)) return [{ kind: 'rejected', position, reason: 'not a JSON object' }];
  const ipText = str(value.ip);
  if (!ipText) return [{ kind: 'rejected', position, reason: 'no "ip"' }];
  const ip = normalIp(ipText);
  if (!ip) return [{ kind: 'rejected', position, reason: `invalid ip "${ipText}"` }];
  const data = obj(value.data);
  if (!data) return [{ kind: 'rejected', position, reason: 'no "data" object' }];

  const out: IngestRecord[] = [];
  const services: ServiceObservation[] = [];
  const times: number[] = [];
  for (const name in data) {
    const mod = data[name];
    if (!isObject(mod)) {
      out.push({ kind: 'rejected', position, reason: `module "${name}" is not an object` });
      continue;
    }
    const outcome = mapModule(name, mod, value.port, options);
    if (outcome.kind === 'rejected') out.push({ kind: 'rejected', position, reason: outcome.reason });
    if (outcome.kind !== 'service') continue;
    services.push(outcome.service);
    const t = stampMs(mod.timestamp);
    if (t !== undefined) times.push(t);
  }
  if (services.length === 0) return out;
  const topTime = stampMs(value.timestamp);
  if (topTime !== undefined) times.push(topTime);
  const domain = str(value.domain);
  // A distribution named by a Server header or an SSH comment is the best OS evidence a banner scan has.
  const os = operatingSystemOf(services);
  const host: HostObservation = { ip, observedAt: latestTime(times, now), source: 'zgrab2', services, ...(os ? { operatingSystem: os } : {}) };
  const records: IngestRecord[] = [{ kind: 'host', position, host: domain ? { ...host, names: [domain] } : host }];
  // With a domain, zgrab2 sent it as Host header and SNI: what it saw belongs to that virtual host.
  if (domain) records.push({ kind: 'host', position, host: { ...host, name: domain } });
  for (const r of out) records.push(r);
  return records;
}

function operatingSystemOf(services: readonly ServiceObservation[]): SoftwareObservation | undefined {
  for (const sv of services) for (const sw of sv.software ?? []) if (sw.part === 'o') return sw;
  return undefined;
}

export function makeZgrab2Source(options: Zgrab2Options = {}): IngestSource {
  return {
    format: 'zgrab2',
    sniff(head: Buffer): boolean {
      const first = jsonHead(head);
      if (!first) return false;
      if (!first.complete) return mentionsKey(first.prefix, 'ip') && mentionsKey(first.prefix, 'data') && /"data"\s*:\s*\{\s*"[^"]+"\s*:\s*\{/.test(first.prefix);
      const data = obj(first.value.ip !== undefined ? first.value.data : undefined);
      if (!data) return false;
      const mods = Object.values(data);
      return mods.length > 0 && mods.every((m) => isObject(m) && 'status' in m);
    },
    read(input: Readable, { now }: { readonly now: Date }): AsyncIterable<IngestRecord> {
      return readZgrab2(input, now, options);
    },
  };
}

/** One line's records (a line that is not JSON is rejected with the parser's message). */
function lineRecords(line: Line, now: Date, options: Zgrab2Options, out: IngestRecord[]): void {
  const position = `line ${line.number}`;
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch (e) {
    out.push({ kind: 'rejected', position, reason: `invalid JSON: ${(e as Error).message}` });
    return;
  }
  for (const r of mapZgrab2Line(value, position, now, options)) out.push(r);
}

/**
 * zgrab2 lines to records, on the calling thread. (A parser thread of its own, fed with chunks
 * and handing records back by structured clone, did not make a long ingest faster on two cores,
 * and cost CPU and memory: docs/BENCHMARK.md, ingest round 9.)
 */
export async function* readZgrab2(input: Readable, now: Date, options: Zgrab2Options = {}): AsyncGenerator<IngestRecord> {
  const records: IngestRecord[] = [];
  // A chunk's lines are taken together (one asynchronous step per chunk, not per line), but each
  // is parsed only when its records are asked for: a 4 MiB chunk's records all at once lived
  // through young-generation collections and cost the collector more than the step saved.
  for await (const lines of readLineBatches(input)) {
    for (const line of lines) {
      lineRecords(line, now, options, records);
      yield* records;
      records.length = 0;
    }
  }
}

export const zgrab2Source: IngestSource = makeZgrab2Source();

