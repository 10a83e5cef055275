/** One nmap `<host>` element → a host observation (or nothing for hosts that were down). */
import type { HostObservation, ServiceObservation, SoftwareObservation, Transport } from '../observation.ts';
import { pemToDer } from '../x509/index.ts';
import { child, childrenNamed, type XmlElement } from './xml-records.ts';
import { censysServiceName } from './service-names.ts';

export type HostMapping = { ok: true; host: HostObservation | undefined } | { ok: false; reason: string };

/** Unix seconds (as nmap writes them) → RFC 3339, or undefined when absent or not a number. */
export function unixSecondsToIso(text: string | undefined): string | undefined {
  if (text === undefined || !/^\d{1,12}$/.test(text.trim())) return undefined;
  const n = Number(text);
  return n > 0 ? new Date(n * 1000).toISOString() : undefined;
}

const TRANSPORTS: Readonly<Record<string, Transport>> = { tcp: 'TCP', udp: 'UDP' };

function cpePart(cpe: string): 'a' | 'o' | 'h' | undefined {
  const m = /^cpe:(?:\/|2\.3:)([aoh])/.exec(cpe);
  return m ? (m[1] as 'a' | 'o' | 'h') : undefined;
}

function software(service: XmlElement): SoftwareObservation[] {
  const product = service.attrs.product;
  const version = service.attrs.version;
  const extrainfo = service.attrs.extrainfo;
  const detail: Record<string, string> = {};
  if (product) detail.product = product;
  if (version) detail.version = version;
  if (extrainfo) detail.extrainfo = extrainfo;
  const cpes = childrenNamed(service, 'cpe').map((c) => c.text.trim()).filter((t) => t.startsWith('cpe:'));
  const out: SoftwareObservation[] = [];
  let detailGiven = false;
  for (const cpe of cpes) {
    const part = cpePart(cpe);
    // nmap's own product/version strings describe the application, so they travel with its first CPE.
    const attach = !detailGiven && part === 'a' && Object.keys(detail).length > 0;
    if (attach) detailGiven = true;
    out.push({ cpe, ...(part ? { part } : {}), ...(attach ? { other: detail } : {}) });
  }
  if (!detailGiven && product) {
    out.unshift({ product, ...(version ? { version } : {}), part: 'a', ...(extrainfo ? { other: { extrainfo } } : {}) });
  }
  return out;
}

/**
 * The first response nmap recorded in a service fingerprint (`%r(NULL,...,"...")` preferred, as
 * that is what the service said unprompted), with nmap's escapes undone.
 */
export function bannerFromServiceFp(fp: string): string | undefined {
  const flat = fp.replace(/\r?\nSF:/g, '');
  const probes = [...flat.matchAll(/%r\(([^,]+),[0-9A-Fa-f]+,"((?:[^"\\]|\\.)*)"\)/g)];
  if (probes.length === 0) return undefined;
  const chosen = probes.find((p) => p[1] === 'NULL') ?? probes.find((p) => p[1] === 'GetRequest') ?? probes[0];
  return chosen[2].replace(/\\(x[0-9A-Fa-f]{2}|.)/g, (_w, e: string) => {
    if (e[0] === 'x' && e.length === 3) return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ r: '\r', n: '\n', t: '\t', '0': '\0' } as Record<string, string>)[e] ?? e;
  });
}

function scriptElem(script: XmlElement, key: string): string | undefined {
  const found = script.children.find((c) => c.name === 'elem' && c.attrs.key === key);
  return found?.text;
}

function mapPort(port: XmlElement): ServiceObservation | { error: string } | undefined {
  const transport = TRANSPORTS[(port.attrs.protocol ?? '').toLowerCase()];
  const portId = Number(port.attrs.portid);
  if (!transport) return undefined; // sctp and ip-protocol scans have no Censys service
  if (!Number.isInteger(portId) || portId < 0 || portId > 65535) return { error: `bad portid "${port.attrs.portid ?? ''}"` };
  const state = child(port, 'state')?.attrs.state ?? '';
  if (state !== 'open') {
    // closed, filtered, closed|filtered: nothing answers there (open|filtered is undecided: skip it).
    if (state === 'closed' || state === 'filtered' || state === 'closed|filtered') return { port: portId, transport, state: 'closed' };
    return undefined;
  }
  const service = child(port, 'service');
  const scripts = childrenNamed(port, 'script');
  const name = service?.attrs.name;
  const tunnel = service?.attrs.tunnel;
  const serviceName = name ? censysServiceName(name) : undefined;
  const isTls = tunnel === 'ssl' || name === 'https' || name === 'ssl/http';
  const extendedServiceName = serviceName === 'HTTP' && isTls ? 'HTTPS' : undefined;

  const sslCert = scripts.find((s) => s.attrs.id === 'ssl-cert');
  // Structured output has the PEM in an elem; older nmap only prints it (at -vv) in `output`.
  const pem = sslCert ? (scriptElem(sslCert, 'pem') ?? sslCert.attrs.output) : undefined;
  let chain: Uint8Array[] = [];
  if (pem) {
    const parsed = pemToDer(pem);
    if (parsed.ok) chain = parsed.ders;
  }

  const bannerScript = scripts.find((s) => s.attrs.id === 'banner')?.attrs.output;
  const fp = service?.attrs.servicefp;
  const banner = bannerScript ?? (fp ? bannerFromServiceFp(fp) : undefined) ?? (service?.attrs.extrainfo || undefined);

  const protocols: Record<string, unknown> = {};
  const title = scripts.find((s) => s.attrs.id === 'http-title');
  const serverHeader = scripts.find((s) => s.attrs.id === 'http-server-header');
  if (serviceName === 'HTTP' && (title || serverHeader)) {
    const response: Record<string, unknown> = {};
    const titleText = title ? (scriptElem(title, 'title') ?? title.attrs.output) : undefined;
    if (titleText) response.html_title = titleText;
    const server = serverHeader ? (serverHeader.children.find((c) => c.name === 'elem')?.text ?? serverHeader.attrs.output) : undefined;
    if (server) response.headers = { Server: [server.trim()] };
    protocols.http = { response };
  }

  const sw = service ? software(service) : [];
  return {
    port: portId,
    transport,
    state: 'open',
    ...(serviceName ? { serviceName } : {}),
    ...(extendedServiceName ? { extendedServiceName } : {}),
    ...(banner ? { banner } : {}),
    ...(sw.length > 0 ? { software: sw } : {}),
    ...(Object.keys(protocols).length > 0 ? { protocols } : {}),
    ...(isTls || chain.length > 0 ? { tls: { chain } } : {}),
  };
}

function operatingSystem(host: XmlElement): SoftwareObservation | undefined {
  const os = child(host, 'os');
  if (!os) return undefined;
  let best: XmlElement | undefined;
  for (const m of childrenNamed(os, 'osmatch')) {
    if (!best || Number(m.attrs.accuracy ?? 0) > Number(best.attrs.accuracy ?? 0)) best = m;
  }
  if (!best) return undefined;
  const osclass = childrenNamed(best, 'osclass').find((c) => childrenNamed(c, 'cpe').some((x) => x.text.trim().startsWith('cpe:/o'))) ?? child(best, 'osclass');
  const cpe = osclass ? childrenNamed(osclass, 'cpe').map((c) => c.text.trim()).find((t) => t.startsWith('cpe:')) : undefined;
  const other: Record<string, string> = { name: best.attrs.name ?? '' };
  if (best.attrs.accuracy) other.accuracy = best.attrs.accuracy;
  if (osclass?.attrs.osfamily) other.family = osclass.attrs.osfamily;
  if (osclass?.attrs.type) other.type = osclass.attrs.type;
  return {
    ...(cpe ? { cpe } : {}),
    part: (cpe && cpePart(cpe)) || 'o',
    ...(osclass?.attrs.vendor ? { vendor: osclass.attrs.vendor } : {}),
    ...(osclass?.attrs.osfamily ? { product: osclass.attrs.osfamily } : {}),
    other,
  };
}

/** Maps a `<host>`; `runStart` (nmaprun@start) and `now` stand in when the host carries no time. */
export function mapNmapHost(host: XmlElement, runStart: string | undefined, now: Date): HostMapping {
  const status = child(host, 'status')?.attrs.state;
  if (status !== undefined && status !== 'up') return { ok: true, host: undefined };
  const address = childrenNamed(host, 'address').find((a) => a.attrs.addrtype === 'ipv4' || a.attrs.addrtype === 'ipv6');
  const ip = address?.attrs.addr;
  if (!ip) return { ok: false, reason: 'host without an IPv4 or IPv6 address' };
  const services: ServiceObservation[] = [];
  const ports = child(host, 'ports');
  for (const port of ports ? childrenNamed(ports, 'port') : []) {
    const mapped = mapPort(port);
    if (mapped === undefined) continue;
    if ('error' in mapped) return { ok: false, reason: `host ${ip}: ${mapped.error}` };
    services.push(mapped);
  }
  const names: string[] = [];
  const reverseDns: string[] = [];
  const hostnames = child(host, 'hostnames');
  for (const h of hostnames ? childrenNamed(hostnames, 'hostname') : []) {
    const name = h.attrs.name?.trim();
    if (!name) continue;
    const list = h.attrs.type === 'PTR' ? reverseDns : names;
    if (!list.includes(name)) list.push(name);
  }
  const observedAt = unixSecondsToIso(host.attrs.endtime) ?? unixSecondsToIso(host.attrs.starttime) ?? runStart ?? now.toISOString();
  const os = operatingSystem(host);
  return {
    ok: true,
    host: {
      ip,
      observedAt,
      source: 'nmap',
      services,
      ...(names.length > 0 ? { names } : {}),
      ...(reverseDns.length > 0 ? { reverseDns } : {}),
      ...(os ? { operatingSystem: os } : {}),
    },
  };
}
