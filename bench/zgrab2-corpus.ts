/**
 * A deterministic zgrab2 JSON-lines file for the ingest benchmark, derived from the demo dataset.
 *
 * Generating a million demo hosts would take longer than ingesting them, so a smaller base of
 * demo hosts (20,000 by default) is turned into zgrab2 lines and cycled: each pass after the first
 * moves every address to another first octet and the scan times a day later, so the file holds N
 * distinct-looking hosts while the services, HTTP pages and certificate chains repeat (as they do
 * in real scans, where a few thousand certificates cover most of a network). Some lines also carry
 * a `domain` (a virtual host) and failure statuses (refused, timeouts, protocol and application
 * errors). The file is made once per (records, base, seed) under bench/out and reused; the name
 * carries a format version, raised whenever the generated content changes.
 */
import { createWriteStream, existsSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { demoStream, type DemoCertificate } from '../src/ingest/demo/index.ts';

export interface Zgrab2CorpusInfo {
  readonly path: string;
  readonly records: number;
  readonly generated: boolean;
  readonly ms: number;
}

export const DEFAULT_BASE_HOSTS = 20_000;
const DAY_MS = 24 * 3600 * 1000;

type Json = Record<string, unknown>;
type Service = Json & { port?: number; service_name?: string; _decoded?: string; banner?: string; certificate?: string };

function ipv4Parts(ip: string): number[] | undefined {
  const p = ip.split('.').map(Number);
  return p.length === 4 && p.every((n) => Number.isInteger(n) && n >= 0 && n <= 255) ? p : undefined;
}

/** First octets a pass may move an address to: public-looking unicast space (no 0, 127, multicast). */
const FIRST_OCTETS = Array.from({ length: 223 }, (_, i) => i + 1).filter((o) => o !== 127);
/** Coprime with FIRST_OCTETS.length (222), so a base address takes 222 distinct values before repeating. */
const OCTET_STEP = 97;

/** The address of base host `ip` in pass `cycle`: pass 0 keeps it, later passes move the first octet. */
export function cycledIp(ip: string, cycle: number): string {
  const p = ipv4Parts(ip);
  if (!p || cycle === 0) return ip;
  const at = FIRST_OCTETS.indexOf(p[0]!);
  const first = FIRST_OCTETS[((at < 0 ? p[0]! : at) + OCTET_STEP * cycle) % FIRST_OCTETS.length]!;
  return `${first}.${p[1]}.${p[2]}.${p[3]}`;
}

function shiftTime(iso: unknown, cycle: number): string | undefined {
  if (typeof iso !== 'string') return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : new Date(ms + cycle * DAY_MS).toISOString();
}

/** zgrab2 header maps use lower-case, underscore names (`content_type`). */
function zgrabHeaders(headers: unknown): Json {
  const out: Json = {};
  if (!headers || typeof headers !== 'object') return out;
  for (const [k, v] of Object.entries(headers as Json)) out[k.toLowerCase().replaceAll('-', '_')] = v;
  return out;
}

function handshakeLog(fp: string | undefined, certs: Map<string, DemoCertificate>): Json | undefined {
  const leaf = fp ? certs.get(fp) : undefined;
  if (!leaf) return undefined;
  const chain: Json[] = [];
  for (let c = leaf.issuerFingerprint ? certs.get(leaf.issuerFingerprint) : undefined; c && c.role !== 'root'; c = c.issuerFingerprint ? certs.get(c.issuerFingerprint) : undefined) {
    chain.push({ raw: Buffer.from(c.der).toString('base64') });
    if (chain.length > 4) break;
  }
  return {
    server_hello: { version: { name: 'TLSv1.2', value: 771 }, cipher_suite: { hex: '0xC02F', name: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', value: 49199 } },
    server_certificates: { certificate: { raw: Buffer.from(leaf.der).toString('base64') }, chain },
  };
}

/** One demo service as a zgrab2 module: [scan name, module]. */
function moduleOf(svc: Service, ip: string, time: string, certs: Map<string, DemoCertificate>): [string, Json] | undefined {
  const port = svc.port;
  if (typeof port !== 'number') return undefined;
  const decoded = String(svc._decoded ?? svc.service_name ?? '').toLowerCase();
  const tls = handshakeLog(svc.certificate, certs);
  if (decoded === 'http') {
    const http = (svc.http ?? {}) as { response?: Json; request?: Json };
    const res = http.response ?? {};
    const https = tls !== undefined;
    const request: Json = { url: { scheme: https ? 'https' : 'http', host: ip, path: '/' }, method: 'GET', headers: { user_agent: ['Mozilla/5.0 zgrab/0.x'], accept: ['*/*'] } };
    if (tls) request.tls_log = { handshake_log: tls };
    const code = Number(res.status_code ?? 200);
    return [port === 80 || port === 443 ? 'http' : `http-${port}`, {
      status: 'success', protocol: 'http', port, timestamp: time,
      result: {
        response: {
          status_line: `${code} ${String(res.status_reason ?? 'OK')}`, status_code: code,
          protocol: { name: String(res.protocol ?? 'HTTP/1.1'), major: 1, minor: 1 },
          headers: zgrabHeaders(res.headers), body: typeof res.body === 'string' ? res.body : '',
          request,
        },
      },
    }];
  }
  if (decoded === 'ssh') {
    const id = ((svc.ssh as Json | undefined)?.endpoint_id ?? {}) as Json;
    const raw = typeof id.raw === 'string' ? id.raw : typeof svc.banner === 'string' ? svc.banner : 'SSH-2.0-OpenSSH_8.9p1';
    const sel = ((svc.ssh as Json | undefined)?.algorithm_selection ?? {}) as Json;
    return [port === 22 ? 'ssh' : `ssh-${port}`, {
      status: 'success', protocol: 'ssh', port, timestamp: time,
      result: {
        server_id: { raw, version: id.protocol_version ?? '2.0', software: id.software_version, comment: id.comment },
        server_key_exchange: { kex_algorithms: ['curve25519-sha256', 'ecdh-sha2-nistp256'], host_key_algorithms: ['rsa-sha2-512', 'ssh-ed25519'], client_to_server_ciphers: ['chacha20-poly1305@openssh.com', 'aes128-ctr'], server_to_client_ciphers: ['chacha20-poly1305@openssh.com', 'aes128-ctr'], client_to_server_macs: ['hmac-sha2-256'], server_to_client_macs: ['hmac-sha2-256'], client_to_server_compression: ['none'], server_to_client_compression: ['none'] },
        algorithm_selection: { kex_algorithm: sel.kex_algorithm ?? 'curve25519-sha256', host_key_algorithm: sel.host_key_algorithm ?? 'rsa-sha2-512' },
      },
    }];
  }
  if (tls) return [`tls-${port}`, { status: 'success', protocol: 'tls', port, timestamp: time, result: { handshake_log: tls } }];
  const banner = typeof svc.banner === 'string' ? svc.banner : '';
  // A few protocols as their own zgrab2 modules (kept under the protocol name), the rest as banner grabs.
  if (decoded === 'ftp' || decoded === 'smtp' || decoded === 'redis' || decoded === 'mysql') {
    return [`${decoded}-${port}`, { status: 'success', protocol: decoded, port, timestamp: time, result: { banner } }];
  }
  return [`banner-${port}`, { status: 'success', protocol: 'banner', port, timestamp: time, result: { banner, length: banner.length } }];
}

/** Failure modules added to some lines by their number, so every status kind is exercised. */
function failures(n: number, time: string): [string, Json][] {
  const out: [string, Json][] = [];
  if (n % 7 === 3) out.push(['http-8080', { status: 'connection-refused', protocol: 'http', port: 8080, timestamp: time, result: {}, error: 'dial tcp: connection refused' }]);
  if (n % 11 === 5) out.push(['ssh-2222', { status: 'io-timeout', protocol: 'ssh', port: 2222, timestamp: time, result: {}, error: 'read tcp: i/o timeout' }]);
  if (n % 13 === 6) out.push(['telnet-2323', { status: 'connection-timeout', protocol: 'telnet', port: 2323, timestamp: time, result: {}, error: 'dial tcp: i/o timeout' }]);
  if (n % 17 === 8) out.push(['http-8888', { status: 'protocol-error', protocol: 'http', port: 8888, timestamp: time, result: {}, error: 'malformed HTTP response' }]);
  if (n % 19 === 9) out.push(['ssh-2200', { status: 'application-error', protocol: 'ssh', port: 2200, timestamp: time, result: { server_id: { raw: 'SSH-2.0-dropbear_2020.81', version: '2.0', software: 'dropbear_2020.81' } }, error: 'ssh: handshake failed' }]);
  return out;
}

/** One base host (its current demo document) as zgrab2 line `n` of the file, in pass `cycle`. */
export function zgrab2Line(doc: Json, n: number, cycle: number, certs: Map<string, DemoCertificate>): string | undefined {
  const ip = cycledIp(String(doc.ip), cycle);
  const data: Json = {};
  const fallback = shiftTime(doc.last_updated_at, cycle) ?? '2026-11-01T00:00:00.000Z';
  for (const svc of (doc.services ?? []) as Service[]) {
    const m = moduleOf(svc, ip, shiftTime(svc.observed_at, cycle) ?? fallback, certs);
    if (m && !(m[0] in data)) data[m[0]] = m[1];
  }
  for (const [name, mod] of failures(n, fallback)) if (!(name in data)) data[name] = mod;
  if (Object.keys(data).length === 0) return undefined;
  const names = ((doc.dns as Json | undefined)?.names ?? []) as string[];
  const line: Json = { ip };
  if (n % 10 === 0 && names.length > 0) line.domain = names[0];
  line.data = data;
  return JSON.stringify(line);
}

export async function ensureZgrab2Corpus(
  dir: string,
  records: number,
  seed: number,
  baseHosts = DEFAULT_BASE_HOSTS,
  onProgress?: (done: number) => void,
): Promise<Zgrab2CorpusInfo> {
  const base = Math.min(baseHosts, records);
  // v2: addresses cycle through 222 first octets (v1 repeated after 6 passes).
  const path = `${dir}/zgrab2-v2-r${records}-b${base}-s${seed}.jsonl`;
  if (existsSync(path)) return { path, records, generated: false, ms: 0 };
  const started = performance.now();
  const demo = demoStream({ hosts: base, certificates: Math.min(2000, Math.max(100, Math.ceil(base / 100))), seed });
  const certs = new Map(demo.certificates.map((c) => [c.doc.fingerprint_sha256, c]));
  // Base lines are kept as documents (not text) so each pass can move addresses and times.
  const docs: Json[] = [];
  for (const host of demo.hosts) {
    if (host.id.includes('+')) continue;
    const last = host.versions[host.versions.length - 1];
    if (last) docs.push(last.doc as Json);
  }
  if (docs.length === 0) throw new Error('the demo generator produced no IP hosts');
  const tmp = `${path}.${process.pid}.tmp`;
  const out = createWriteStream(tmp);
  let written = 0;
  for (let n = 0; written < records; n++) {
    const cycle = Math.floor(n / docs.length);
    const line = zgrab2Line(docs[n % docs.length]!, n, cycle, certs);
    if (line === undefined) continue;
    if (!out.write(line + '\n')) await once(out, 'drain');
    if (++written % 50_000 === 0) onProgress?.(written);
  }
  out.end();
  await once(out, 'finish');
  renameSync(tmp, path);
  return { path, records, generated: true, ms: performance.now() - started };
}
