/**
 * Demo hosts: addresses from announced ranges, AS and location from the enrichment data, a
 * profile (web server, mail server, router...) that decides OS and services, DNS names under the
 * demo domains, TLS services presenting demo certificates, history for some hosts (services
 * added, removed, upgraded, moved) and a few named virtual hosts.
 */
import type { Enricher } from '../enrich/enricher.ts';
import { citiesOf } from '../enrich/cities.ts';
import { locationWithCity, type HostLocation } from '../enrich/geo-lookup.ts';
import type { AutonomousSystem } from '../enrich/asn-lookup.ts';
import { AddressPicker, type NetworkKind } from './address-picker.ts';
import { HOST_LABELS, type DemoDomain } from './domains.ts';
import { DOMAIN_ZIPF, type CertificateIndex } from './generate-certificates.ts';
import type { PageKind } from './http-pages.ts';
import { hashString, Rng, WeightedTable, zipfWeights } from './rng.ts';
import { productVersions, renderService, type CertificateSet, type ServiceDoc, type ServiceKind, type ServiceSpec } from './render-service.ts';
import { DEVICE_OS, LINUX_SERVER_OS, OS_BY_ID, WINDOWS_SERVER_OS, type OsDef, type SoftwareDoc } from './software.ts';

const DAY = 86_400_000;
const MAX_SERVICES = 8;

export type DemoHostDocument = {
  ip: string;
  name?: string;
  autonomous_system?: AutonomousSystem;
  autonomous_system_updated_at?: string;
  dns?: {
    names?: string[];
    records?: Record<string, { record_type: string; resolved_at: string }>;
    reverse_dns?: { names: string[]; resolved_at: string };
  };
  labels?: string[];
  last_updated_at: string;
  location?: HostLocation;
  location_updated_at?: string;
  operating_system?: SoftwareDoc;
  services: ServiceDoc[];
};

export interface DemoHostVersion {
  readonly observedAt: string;
  readonly doc: DemoHostDocument;
}

export interface DemoHost {
  /** The IP, or `ip+name` for a named virtual host. */
  readonly id: string;
  /** Oldest first; the last one is current. */
  readonly versions: DemoHostVersion[];
}

type Profile =
  | 'web'
  | 'web-windows'
  | 'mail'
  | 'database'
  | 'windows-desktop'
  | 'router'
  | 'iot'
  | 'dns'
  | 'ssh'
  | 'ftp'
  | 'netgear'
  | 'vnc'
  | 'cdn-edge'
  | 'misc';

const PROFILES: Readonly<Record<NetworkKind, readonly (readonly [Profile, number])[]>> = {
  cloud: [['web', 42], ['web-windows', 6], ['mail', 5], ['database', 9], ['ssh', 14], ['ftp', 3], ['dns', 3], ['vnc', 1], ['misc', 10], ['windows-desktop', 3], ['netgear', 1], ['iot', 0.5], ['router', 0.5]],
  hosting: [['web', 44], ['web-windows', 5], ['mail', 8], ['database', 8], ['ssh', 12], ['ftp', 5], ['dns', 3], ['vnc', 1], ['misc', 10], ['windows-desktop', 2], ['netgear', 1], ['iot', 0.5], ['router', 0.5]],
  isp: [['router', 25], ['iot', 10], ['windows-desktop', 12], ['web', 15], ['ssh', 8], ['vnc', 3], ['netgear', 6], ['dns', 3], ['ftp', 3], ['misc', 12], ['web-windows', 3], ['database', 2], ['mail', 1]],
  cdn: [['cdn-edge', 1]],
  mixed: [['web', 26], ['router', 12], ['iot', 5], ['windows-desktop', 6], ['ssh', 10], ['mail', 4], ['database', 5], ['ftp', 3], ['dns', 3], ['netgear', 4], ['vnc', 2], ['misc', 12], ['web-windows', 5]],
};

const NAMED_SHARE: Readonly<Record<NetworkKind, number>> = { cloud: 0.45, hosting: 0.5, isp: 0.08, cdn: 0, mixed: 0.25 };

type Draft = readonly [ServiceKind, number, 'TCP' | 'UDP', boolean];

// Ports seen anywhere, for extra services and the "misc" profile: [draft, weight].
const GLOBAL_PORTS: readonly (readonly [Draft, number])[] = [
  [['HTTP', 80, 'TCP', false], 20],
  [['HTTP', 443, 'TCP', true], 18],
  [['SSH', 22, 'TCP', false], 12],
  [['HTTP', 8080, 'TCP', false], 5],
  [['HTTP', 8443, 'TCP', true], 3],
  [['FTP', 21, 'TCP', false], 3],
  [['SMTP', 25, 'TCP', false], 2],
  [['SMTP', 587, 'TCP', false], 1.5],
  [['DNS', 53, 'UDP', false], 2],
  [['MYSQL', 3306, 'TCP', false], 2.5],
  [['POSTGRES', 5432, 'TCP', false], 1.2],
  [['REDIS', 6379, 'TCP', false], 1.2],
  [['RDP', 3389, 'TCP', false], 2.5],
  [['TELNET', 23, 'TCP', false], 1.5],
  [['SNMP', 161, 'UDP', false], 1.5],
  [['NTP', 123, 'UDP', false], 1],
  [['MONGODB', 27017, 'TCP', false], 0.8],
  [['ELASTICSEARCH', 9200, 'TCP', false], 0.6],
  [['MQTT', 1883, 'TCP', false], 0.6],
  [['VNC', 5900, 'TCP', false], 0.8],
  [['SMB', 445, 'TCP', false], 1.5],
  [['MEMCACHED', 11211, 'TCP', false], 0.5],
  [['HTTP', 8000, 'TCP', false], 1],
  [['HTTP', 8888, 'TCP', false], 0.8],
  [['HTTP', 8081, 'TCP', false], 0.6],
  [['HTTP', 9090, 'TCP', false], 0.4],
  [['UNKNOWN', 0, 'TCP', false], 5],
];

const UNKNOWN_PORTS = [2000, 4443, 5000, 5060, 6000, 7000, 7547, 8008, 8291, 9000, 9100, 9443, 10000, 49152, 50000, 60000];
const CLOUDFLARE_PORTS = [2052, 2053, 2082, 2083, 2086, 2087, 2095, 2096];

/** Service drafts of a profile; `p(x)` keeps an optional service with probability x. */
function profileDrafts(profile: Profile, rng: Rng): Draft[] {
  const out: Draft[] = [];
  const add = (d: Draft, prob = 1): void => {
    if (prob >= 1 || rng.chance(prob)) out.push(d);
  };
  switch (profile) {
    case 'web':
      add(['HTTP', 80, 'TCP', false], 0.9);
      add(['HTTP', 443, 'TCP', true], 0.82);
      add(['SSH', 22, 'TCP', false], 0.5);
      add(['HTTP', 8080, 'TCP', false], 0.06);
      add(['HTTP', 8443, 'TCP', true], 0.04);
      add(['MYSQL', 3306, 'TCP', false], 0.05);
      if (!out.some((d) => d[0] === 'HTTP')) out.push(['HTTP', 80, 'TCP', false]);
      break;
    case 'web-windows':
      add(['HTTP', 80, 'TCP', false], 0.9);
      add(['HTTP', 443, 'TCP', true], 0.7);
      add(['RDP', 3389, 'TCP', false], 0.55);
      add(['SMB', 445, 'TCP', false], 0.1);
      add(['FTP', 21, 'TCP', false], 0.1);
      if (!out.some((d) => d[0] === 'HTTP')) out.push(['HTTP', 443, 'TCP', true]);
      break;
    case 'mail':
      add(['SMTP', 25, 'TCP', false]);
      add(['SMTP', 587, 'TCP', false], 0.7);
      add(['SMTP', 465, 'TCP', true], 0.6);
      add(['IMAP', 143, 'TCP', false], 0.55);
      add(['IMAP', 993, 'TCP', true], 0.8);
      add(['POP3', 110, 'TCP', false], 0.45);
      add(['POP3', 995, 'TCP', true], 0.55);
      add(['HTTP', 80, 'TCP', false], 0.5);
      add(['HTTP', 443, 'TCP', true], 0.6);
      add(['SSH', 22, 'TCP', false], 0.55);
      break;
    case 'database': {
      add(['SSH', 22, 'TCP', false], 0.8);
      out.push(
        rng.weighted<Draft>([
          [['MYSQL', 3306, 'TCP', false], 40],
          [['POSTGRES', 5432, 'TCP', false], 20],
          [['REDIS', 6379, 'TCP', false], 18],
          [['MONGODB', 27017, 'TCP', false], 10],
          [['ELASTICSEARCH', 9200, 'TCP', false], 7],
          [['MEMCACHED', 11211, 'TCP', false], 5],
        ]),
      );
      add(['HTTP', 80, 'TCP', false], 0.2);
      break;
    }
    case 'windows-desktop':
      add(['RDP', 3389, 'TCP', false]);
      add(['SMB', 445, 'TCP', false], 0.35);
      add(['VNC', 5900, 'TCP', false], 0.05);
      break;
    case 'router':
      add(['TELNET', 23, 'TCP', false], 0.35);
      add(['HTTP', 80, 'TCP', false], 0.7);
      add(['HTTP', 443, 'TCP', true], 0.3);
      add(['SSH', 22, 'TCP', false], 0.4);
      add(['SNMP', 161, 'UDP', false], 0.35);
      add(['DNS', 53, 'UDP', false], 0.15);
      add(['UNKNOWN', 7547, 'TCP', false], 0.2);
      if (!out.length) out.push(['HTTP', 80, 'TCP', false]);
      break;
    case 'iot':
      add(['MQTT', 1883, 'TCP', false], 0.45);
      add(['HTTP', 80, 'TCP', false], 0.6);
      add(['TELNET', 23, 'TCP', false], 0.3);
      add(['HTTP', 8080, 'TCP', false], 0.15);
      add(['VNC', 5900, 'TCP', false], 0.08);
      if (!out.length) out.push(['HTTP', 80, 'TCP', false]);
      break;
    case 'dns':
      add(['DNS', 53, 'UDP', false]);
      add(['SSH', 22, 'TCP', false], 0.5);
      add(['HTTP', 80, 'TCP', false], 0.2);
      break;
    case 'ssh':
      add(['SSH', 22, 'TCP', false]);
      add(['SSH', 2222, 'TCP', false], 0.08);
      break;
    case 'ftp':
      add(['FTP', 21, 'TCP', false]);
      add(['SSH', 22, 'TCP', false], 0.6);
      add(['HTTP', 80, 'TCP', false], 0.5);
      break;
    case 'netgear':
      add(['NTP', 123, 'UDP', false], 0.7);
      add(['SNMP', 161, 'UDP', false], 0.7);
      add(['SSH', 22, 'TCP', false], 0.6);
      add(['TELNET', 23, 'TCP', false], 0.2);
      if (!out.length) out.push(['SNMP', 161, 'UDP', false]);
      break;
    case 'vnc':
      add(['VNC', 5900, 'TCP', false]);
      add(['VNC', 5901, 'TCP', false], 0.3);
      add(['SSH', 22, 'TCP', false], 0.3);
      break;
    case 'cdn-edge':
      add(['HTTP', 80, 'TCP', false]);
      add(['HTTP', 443, 'TCP', true]);
      add(['HTTP', 8080, 'TCP', false], 0.8);
      add(['HTTP', 8443, 'TCP', true], 0.8);
      for (const port of CLOUDFLARE_PORTS) add(['HTTP', port, 'TCP', port === 2053 || port === 2083 || port === 2087 || port === 2096], 0.5);
      break;
    case 'misc': {
      const n = rng.range(1, 3);
      for (let i = 0; i < n; i++) out.push(rng.weighted(GLOBAL_PORTS));
      break;
    }
  }
  return out;
}

function osFor(profile: Profile, kind: NetworkKind, rng: Rng): OsDef | undefined {
  const pick = (list: readonly (readonly [string, number])[]): OsDef => OS_BY_ID.get(rng.weighted(list))!;
  switch (profile) {
    case 'web-windows':
      return pick(WINDOWS_SERVER_OS);
    case 'windows-desktop':
      return rng.chance(0.5) ? OS_BY_ID.get('windows-10') : pick(WINDOWS_SERVER_OS);
    case 'router':
    case 'netgear':
      return pick(DEVICE_OS);
    case 'iot':
      return OS_BY_ID.get('embedded-linux');
    case 'cdn-edge':
      return undefined;
    case 'vnc':
      return rng.chance(0.6) ? pick(LINUX_SERVER_OS) : OS_BY_ID.get('windows-10');
    case 'misc':
      return rng.weighted([[pick(LINUX_SERVER_OS), 70], [pick(WINDOWS_SERVER_OS), 15], [pick(DEVICE_OS), 15]] as const);
    default: {
      if (kind === 'cloud' && rng.chance(0.04)) return OS_BY_ID.get('amazon-2023');
      return pick(LINUX_SERVER_OS);
    }
  }
}

interface HostState {
  readonly ip: string;
  readonly ipv6: boolean;
  readonly kind: NetworkKind;
  readonly profile: Profile;
  readonly as?: AutonomousSystem;
  readonly location?: HostLocation;
  readonly os?: OsDef;
  readonly domain?: DemoDomain;
  readonly names: string[];
  readonly ptr?: string;
  readonly scanSeed: number;
  services: ServiceSpec[];
}

interface Context {
  readonly rng: Rng;
  readonly certs: CertificateSet;
  readonly index: CertificateIndex;
  readonly companies: readonly DemoDomain[];
  readonly providers: readonly DemoDomain[];
  readonly domainTable: WeightedTable<DemoDomain>;
  readonly nowMs: number;
  /** Self-signed certificates older than any scan time, for services whose real certificate is newer than the scan. */
  readonly oldSelfSigned: number[];
}

function parentOf(name: string): string {
  const dot = name.indexOf('.');
  return dot < 0 ? name : name.slice(dot + 1);
}

/** Candidate certificates (newest first) for a TLS service answering as `name`. */
function certificatesFor(ctx: Context, name: string | undefined, domain: DemoDomain | undefined, rng: Rng): { certs: number[]; stale: boolean } | undefined {
  const { index } = ctx;
  if (!index.leaves.length) return undefined;
  const newest = (list: number[]): number[] =>
    [...new Set(list)].sort((a, b) => ctx.certs.list[b].notBefore - ctx.certs.list[a].notBefore || a - b);
  if (name) {
    const exact = index.byName.get(name) ?? [];
    const wild = name.split('.').length > 2 || (domain && name !== domain.name) ? index.byName.get(`*.${parentOf(name)}`) ?? [] : [];
    const both = [...exact, ...wild];
    if (both.length && rng.chance(0.93)) return { certs: newest(both), stale: rng.chance(0.06) };
  }
  if (domain) {
    const own = index.byDomain.get(domain.name);
    if (own?.length && rng.chance(0.6)) return { certs: [...own], stale: false };
  }
  if (index.selfSigned.length && rng.chance(0.45)) return { certs: [rng.pick(index.selfSigned)], stale: false };
  const other = index.byDomain.get(ctx.domainTable.sample(rng).name);
  if (other?.length) return { certs: [...other], stale: false };
  return { certs: [rng.pick(index.leaves)], stale: false };
}

function pageFor(profile: Profile, spec: ServiceSpec, hasTlsTwin: boolean, named: boolean, rng: Rng): PageKind {
  if (spec.product === 'cloudflare') return 'cf-1003';
  if (spec.product === 'routeros') return 'routeros';
  if (profile === 'router' || profile === 'iot') return rng.weighted<PageKind>([['login', 60], ['unauthorized', 25], ['default', 10], ['notfound', 5]]);
  if (spec.port === 80 && hasTlsTwin && rng.chance(0.45)) return 'redirect';
  if (spec.product === 'tomcat' || spec.product === 'jetty') return rng.weighted<PageKind>([['default', 50], ['login', 20], ['notfound', 20], ['api', 10]]);
  if (spec.product === 'express') return rng.weighted<PageKind>([['api', 60], ['login', 20], ['site', 20]]);
  return rng.weighted<PageKind>([
    ['default', named ? 10 : 26],
    ['site', named ? 40 : 10],
    ['login', 13],
    ['forbidden', 10],
    ['notfound', 11],
    ['opendir', 3],
    ['api', 6],
    ['unauthorized', 4],
    ['badgateway', 3],
  ]);
}

function productFor(kind: ServiceKind, os: OsDef | undefined, profile: Profile, port: number, rng: Rng): string {
  const fam = os?.family;
  switch (kind) {
    case 'HTTP':
      if (profile === 'cdn-edge') return 'cloudflare';
      if (fam === 'windows') return rng.weighted([['iis', 85], ['tomcat', 5], ['jetty', 5], ['apache', 5]]);
      if (fam === 'mikrotik') return 'routeros';
      if (fam === 'embedded' || fam === 'cisco') return rng.weighted([['lighttpd', 25], ['goahead', 20], ['boa', 15], ['mini_httpd', 15], ['uhttpd', 15], ['nginx', 10]]);
      if (port !== 80 && port !== 443) return rng.weighted([['nginx', 25], ['apache', 15], ['tomcat', 20], ['jetty', 12], ['express', 18], ['openresty', 5], ['caddy', 5]]);
      return rng.weighted([['nginx', 38], ['apache', 34], ['openresty', 5], ['caddy', 4], ['tomcat', 6], ['jetty', 3], ['express', 5], ['lighttpd', 3]]);
    case 'SSH':
      return 'ssh';
    case 'FTP':
      if (fam === 'windows') return rng.weighted([['msftp', 60], ['filezilla', 40]]);
      if (fam === 'mikrotik') return 'mikrotik';
      return rng.weighted([['vsftpd', 45], ['proftpd', 35], ['pureftpd', 20]]);
    case 'SMTP':
      if (fam === 'windows') return 'exchange';
      return rng.weighted([['postfix', 60], ['exim', 30], ['sendmail', 10]]);
    case 'IMAP':
    case 'POP3':
      if (fam === 'windows') return 'exchange';
      return rng.weighted([['dovecot', 80], ['courier', 20]]);
    case 'DNS':
      if (fam === 'windows') return 'windows';
      if (fam === 'embedded' || fam === 'mikrotik') return 'dnsmasq';
      return rng.weighted([['bind', 50], ['unbound', 20], ['dnsmasq', 15], ['powerdns', 15]]);
    case 'MYSQL':
      return rng.weighted([['mysql', 50], ['mariadb', 30], ['mysql-denied', 20]]);
    case 'MQTT':
      return rng.weighted([['mosquitto', 60], ['emqx', 25], ['hivemq', 15]]);
    case 'VNC':
      return rng.weighted([['realvnc', 35], ['tightvnc', 35], ['libvnc', 30]]);
    default:
      return kind.toLowerCase();
  }
}

function productKeyForVersions(kind: ServiceKind, product: string): string {
  if (kind === 'SSH') return 'ssh';
  if (kind === 'REDIS') return 'redis';
  if (kind === 'MONGODB') return 'mongodb';
  if (kind === 'ELASTICSEARCH') return 'elasticsearch';
  if (kind === 'MEMCACHED') return 'memcached';
  return product;
}

function makeSpec(ctx: Context, state: Pick<HostState, 'os' | 'profile' | 'names' | 'domain'>, draft: Draft, used: Set<string>, rng: Rng, nameOverride?: string): ServiceSpec | undefined {
  const [kind, basePort, transport, tls] = draft;
  let port = basePort;
  if (kind === 'UNKNOWN' && port === 0) port = rng.chance(0.5) ? rng.pick(UNKNOWN_PORTS) : rng.range(1024, 65535);
  if (used.has(`${port}/${transport}`)) return undefined;
  used.add(`${port}/${transport}`);
  const product = productFor(kind, state.os, state.profile, port, rng);
  const versions = productVersions(productKeyForVersions(kind, product), state.os);
  const spec: ServiceSpec = {
    port,
    transport,
    kind,
    tls,
    seed: rng.u32(),
    product,
    versionIdx: rng.int(Math.max(1, versions.length - 1)),
  };
  const name = nameOverride ?? state.names[0];
  const wantsCert = tls || ((kind === 'SMTP' || kind === 'IMAP' || kind === 'POP3') && rng.chance(0.6));
  if (wantsCert) {
    const c = certificatesFor(ctx, name, state.domain, rng);
    if (c) {
      spec.certs = c.certs;
      if (c.stale) spec.staleCert = true;
      if (ctx.oldSelfSigned.length) spec.fallbackCert = rng.pick(ctx.oldSelfSigned);
    }
  }
  return spec;
}

function assignPages(ctx: Context, state: HostState, rng: Rng, named: boolean): void {
  const hasTls = state.services.some((s) => s.kind === 'HTTP' && s.tls);
  for (const s of state.services) if (s.kind === 'HTTP' && !s.page) s.page = pageFor(state.profile, s, hasTls, named, rng);
  void ctx;
}

function reverseName(state: { ip: string; as?: AutonomousSystem; location?: HostLocation }, providers: readonly DemoDomain[], rng: Rng): string | undefined {
  if (state.ip.includes(':')) return undefined;
  const [a, b, c, d] = state.ip.split('.');
  const asn = state.as?.asn;
  if (asn === 16509 || asn === 14618) {
    const regions: Record<string, string> = { IE: 'eu-west-1', DE: 'eu-central-1', GB: 'eu-west-2', FR: 'eu-west-3', JP: 'ap-northeast-1', SG: 'ap-southeast-1', AU: 'ap-southeast-2', IN: 'ap-south-1', BR: 'sa-east-1', CA: 'ca-central-1', KR: 'ap-northeast-2', SE: 'eu-north-1' };
    const region = regions[state.location?.country_code ?? ''];
    return region ? `ec2-${a}-${b}-${c}-${d}.${region}.compute.amazonaws.com` : `ec2-${a}-${b}-${c}-${d}.compute-1.amazonaws.com`;
  }
  if (asn === 396982 || asn === 15169) return `${d}.${c}.${b}.${a}.bc.googleusercontent.com`;
  if (asn === 24940) return `static.${d}.${c}.${b}.${a}.clients.your-server.de`;
  if (!providers.length) return undefined;
  const provider = providers[hashString(String(asn ?? a)) % providers.length].name;
  const patterns = [`static-${a}-${b}-${c}-${d}.${provider}`, `ip-${a}-${b}-${c}-${d}.${provider}`, `host-${d}-${c}-${b}-${a}.${provider}`, `${a}-${b}-${c}-${d}.static.${provider}`, `dynamic-${a}-${b}-${c}-${d}.${provider}`];
  return patterns[hashString(provider) % patterns.length] ?? rng.pick(patterns);
}

function forwardNames(profile: Profile, domain: DemoDomain, rng: Rng): string[] {
  const d = domain.name;
  const h = (): string => `${rng.pick(HOST_LABELS)}.${d}`;
  switch (profile) {
    case 'mail':
      return rng.chance(0.3) ? [`mail.${d}`, `smtp.${d}`] : [`mail.${d}`];
    case 'dns':
      return [rng.chance(0.5) ? `ns1.${d}` : `ns2.${d}`];
    case 'ftp':
      return [`ftp.${d}`];
    case 'database':
      return [`db${rng.range(1, 3)}.${d}`];
    case 'web-windows':
      return [rng.pick([`owa.${d}`, `remote.${d}`, `www.${d}`, h()])];
    case 'web':
      return rng.weighted<string[]>([
        [[d, `www.${d}`], 25],
        [[`www.${d}`], 10],
        [[d], 6],
        [[`app.${d}`], 8],
        [[`api.${d}`], 8],
        [[`shop.${d}`, `www.shop.${d}`], 3],
        [[`portal.${d}`], 5],
        [[`git.${d}`], 3],
        [[`dev.${d}`], 3],
        [[`auth.${d}`], 3],
        [[`cdn.${d}`], 2],
        [[`vpn.${d}`], 4],
        [[h()], 20],
      ]);
    default:
      return [h()];
  }
}

function newHostState(ctx: Context, enricher: Enricher, picker: AddressPicker, used: Set<string>, rng: Rng): HostState {
  const ipv6 = rng.chance(0.03);
  let ip = '';
  let as: AutonomousSystem | undefined;
  let location: HostLocation | undefined;
  for (let tries = 0; tries < 50; tries++) {
    ip = ipv6 ? picker.ipv6(rng) : picker.ipv4(rng);
    if (used.has(ip)) continue;
    as = enricher.asn.lookup(ip);
    const cc = enricher.geo.countryCode(ip);
    if (!as || !cc) continue;
    const cities = citiesOf(cc);
    // Hosts of one /16 (or /32 for IPv6) share a city, the usual one most often.
    const key = hashString(ipv6 ? ip.split(':').slice(0, 2).join(':') : ip.split('.').slice(0, 2).join('.'));
    const city = cities.length ? cities[key % (cities.length + 2) < 3 ? 0 : (key % (cities.length + 2)) - 2] : undefined;
    location = locationWithCity(cc, city);
    break;
  }
  used.add(ip);
  const kind = picker.kindOf(as?.asn);
  const profile = rng.weighted(PROFILES[kind]);
  const os = osFor(profile, kind, rng);
  let domain: DemoDomain | undefined;
  let names: string[] = [];
  if (rng.chance(NAMED_SHARE[kind]) && ctx.companies.length) {
    domain = ctx.domainTable.sample(rng);
    names = forwardNames(profile, domain, rng);
  }
  let ptr: string | undefined;
  if (names.length && rng.chance(0.4)) ptr = names[0];
  else if (rng.chance(kind === 'isp' ? 0.75 : 0.5)) ptr = reverseName({ ip, ...(as ? { as } : {}), ...(location ? { location } : {}) }, ctx.providers, rng);
  const state: HostState = {
    ip,
    ipv6,
    kind,
    profile,
    ...(as ? { as } : {}),
    ...(location ? { location } : {}),
    ...(os ? { os } : {}),
    ...(domain ? { domain } : {}),
    names,
    ...(ptr ? { ptr } : {}),
    scanSeed: rng.u32(),
    services: [],
  };
  const usedPorts = new Set<string>();
  const drafts = profileDrafts(profile, rng);
  // A long tail of extra services: most hosts have 1-3, a few up to 8.
  if (profile !== 'cdn-edge') {
    let extra = 0;
    while (drafts.length + extra < MAX_SERVICES && rng.chance(extra === 0 ? 0.22 : 0.45)) extra++;
    for (let i = 0; i < extra; i++) drafts.push(rng.weighted(GLOBAL_PORTS));
  }
  for (const d of drafts) {
    if (state.services.length === MAX_SERVICES) break;
    const spec = makeSpec(ctx, state, d, usedPorts, rng);
    if (spec) state.services.push(spec);
  }
  assignPages(ctx, state, rng, names.length > 0);
  return state;
}

function cloneState(s: HostState): HostState {
  return { ...s, services: s.services.map((x) => ({ ...x, ...(x.certs ? { certs: [...x.certs] } : {}) })) };
}

const MOVES: Readonly<Record<number, readonly number[]>> = {
  80: [8080, 8000],
  8080: [8081, 8888, 8000],
  443: [8443],
  8443: [9443, 4443],
  22: [2222, 22222],
  2222: [22],
  3389: [3390, 33890],
  3306: [3307],
  21: [2121],
};

/** One change between two scans of a host. */
function mutate(ctx: Context, prev: HostState, rng: Rng): HostState {
  const s = cloneState(prev);
  const used = new Set(s.services.map((x) => `${x.port}/${x.transport}`));
  const op = rng.weighted([['add', 30], ['remove', 20], ['upgrade', 25], ['page', 15], ['move', 10]] as const);
  const upgradable = s.services.filter((x) => x.versionIdx + 1 < productVersions(productKeyForVersions(x.kind, x.product), s.os).length);
  if ((op === 'remove' && s.services.length > 1) || (op === 'add' && s.services.length >= MAX_SERVICES)) {
    s.services.splice(1 + rng.int(s.services.length - 1), 1);
  } else if (op === 'upgrade' && upgradable.length) {
    rng.pick(upgradable).versionIdx++;
  } else if (op === 'move') {
    const movable = s.services.filter((x) => MOVES[x.port]?.some((p) => !used.has(`${p}/${x.transport}`)));
    if (movable.length) {
      const x = rng.pick(movable);
      x.port = rng.pick(MOVES[x.port].filter((p) => !used.has(`${p}/${x.transport}`)));
    } else {
      const x = rng.pick(s.services);
      x.seed = rng.u32();
    }
  } else if (op === 'page') {
    const http = s.services.filter((x) => x.kind === 'HTTP');
    const x = http.length ? rng.pick(http) : rng.pick(s.services);
    x.seed = rng.u32();
    if (x.kind === 'HTTP') x.page = pageFor(s.profile, x, false, s.names.length > 0, rng);
  } else {
    let added: ServiceSpec | undefined;
    for (let i = 0; i < 5 && !added && s.services.length < MAX_SERVICES; i++) added = makeSpec(ctx, s, rng.weighted(GLOBAL_PORTS), used, rng);
    if (added) {
      if (added.kind === 'HTTP') added.page = pageFor(s.profile, added, false, s.names.length > 0, rng);
      s.services.push(added);
    } else {
      rng.pick(s.services).seed = rng.u32();
    }
  }
  return s;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function renderHost(ctx: Context, s: HostState, t: number, scanIndex: number, times: { as: number; location: number; dns: number }): DemoHostDocument {
  const ordered = [...s.services].sort((a, b) => a.port - b.port || a.transport.localeCompare(b.transport));
  const hostCtx = {
    ip: s.ip,
    scanSeed: s.scanSeed,
    ...(s.os ? { os: s.os } : {}),
    ...(s.names[0] ? { hostname: s.names[0] } : {}),
    ...(s.ptr ? { ptr: s.ptr } : {}),
    ...(s.domain ? { org: s.domain.org } : {}),
  };
  const rendered = ordered.map((spec) => renderService(spec, hostCtx, t, scanIndex, ctx.certs));
  const labels = new Set<string>();
  for (const r of rendered) for (const l of r.labels) labels.add(l);
  if (s.ipv6) labels.add('ipv6');
  // Keys in alphabetical order, as Censys presents hosts.
  const out: Partial<DemoHostDocument> = {};
  if (s.as) {
    out.autonomous_system = s.as;
    out.autonomous_system_updated_at = iso(times.as);
  }
  if (s.names.length || s.ptr) {
    const resolved = iso(times.dns);
    out.dns = {
      ...(s.names.length
        ? { names: [...s.names], records: Object.fromEntries(s.names.map((n) => [n, { record_type: s.ipv6 ? 'AAAA' : 'A', resolved_at: resolved }])) }
        : {}),
      ...(s.ptr ? { reverse_dns: { names: [s.ptr], resolved_at: resolved } } : {}),
    };
  }
  out.ip = s.ip;
  if (labels.size) out.labels = [...labels].sort();
  out.last_updated_at = iso(t);
  if (s.location) {
    out.location = s.location;
    out.location_updated_at = iso(times.location);
  }
  if (s.os && rendered.some((r) => r.revealsOs)) out.operating_system = s.os.os;
  out.services = rendered.map((r) => r.doc);
  return out as DemoHostDocument;
}

function virtualHosts(ctx: Context, s: HostState, t: number, scanIndex: number, rng: Rng): DemoHost[] {
  const http = s.services.filter((x) => x.kind === 'HTTP' && (x.port === 80 || x.port === 443 || x.port === 8080 || x.port === 8443));
  if (!http.length) return [];
  const count = rng.chance(0.7) ? 1 : 2;
  const out: DemoHost[] = [];
  const taken = new Set(s.names);
  for (let i = 0; i < count; i++) {
    const domain = s.domain && rng.chance(0.6) ? s.domain : ctx.domainTable.sample(rng);
    const candidates = [`www.${domain.name}`, `shop.${domain.name}`, `blog.${domain.name}`, `app.${domain.name}`, `portal.${domain.name}`, `${rng.pick(HOST_LABELS)}.${domain.name}`, domain.name];
    const name = candidates.find((n) => !taken.has(n) && rng.chance(0.5)) ?? candidates.find((n) => !taken.has(n));
    if (!name) continue;
    taken.add(name);
    const used = new Set<string>();
    const vs: HostState = { ...s, domain, names: [name], services: [] };
    for (const base of http) {
      const spec = makeSpec(ctx, vs, [base.kind, base.port, base.transport, base.tls], used, rng, name);
      if (!spec) continue;
      spec.product = base.product;
      spec.versionIdx = base.versionIdx;
      spec.page = rng.weighted<PageKind>([['site', 60], ['login', 25], ['api', 15]]);
      vs.services.push(spec);
    }
    const hostCtx = { ip: s.ip, scanSeed: s.scanSeed ^ hashString(name), ...(s.os ? { os: s.os } : {}), hostname: name, org: domain.org };
    const rendered = [...vs.services].sort((a, b) => a.port - b.port).map((spec) => renderService(spec, hostCtx, t, scanIndex, ctx.certs));
    const labels = [...new Set(rendered.flatMap((r) => r.labels))].sort();
    const doc: DemoHostDocument = {
      ip: s.ip,
      ...(labels.length ? { labels } : {}),
      last_updated_at: iso(t),
      name,
      ...(s.os && rendered.some((r) => r.revealsOs) ? { operating_system: s.os.os } : {}),
      services: rendered.map((r) => r.doc),
    };
    out.push({ id: `${s.ip}+${name}`, versions: [{ observedAt: iso(t), doc }] });
  }
  return out;
}

export interface HostGenerationInput {
  readonly count: number;
  readonly seed: number;
  readonly now: Date;
  readonly enricher: Enricher;
  readonly domains: readonly DemoDomain[];
  readonly certs: CertificateSet;
  readonly index: CertificateIndex;
}

/** Yields `count` IP hosts, each followed by its virtual hosts (if any). Deterministic for the same input. */
export function* generateHosts(input: HostGenerationInput): Generator<DemoHost> {
  const rng = new Rng(input.seed).fork('hosts');
  const companies = input.domains.filter((d) => d.kind === 'company');
  const weights = zipfWeights(companies.length, DOMAIN_ZIPF);
  const ctx: Context = {
    rng,
    certs: input.certs,
    index: input.index,
    companies,
    providers: input.domains.filter((d) => d.kind === 'provider'),
    domainTable: new WeightedTable(companies.map((d, i) => [d, weights[i]] as const)),
    nowMs: input.now.getTime(),
    oldSelfSigned: input.index.selfSigned.filter((i) => input.certs.list[i].notBefore <= input.now.getTime() - 120 * DAY),
  };
  input.enricher.load();
  const picker = new AddressPicker(input.enricher.asn);
  const usedIps = new Set<string>();
  for (let i = 0; i < input.count; i++) {
    // One stream per host keeps each host independent of the details of the ones before it.
    const hrng = rng.fork(`host-${i}`);
    const initial = newHostState(ctx, input.enricher, picker, usedIps, hrng);
    const versionCount = hrng.chance(0.15) ? hrng.weighted([[2, 50], [3, 25], [4, 15], [5, 10]] as const) : 1;
    const times: number[] = [ctx.nowMs - hrng.int(5 * DAY)];
    for (let k = 1; k < versionCount; k++) times.unshift(times[0] - Math.floor((1 + hrng.next() * 20) * DAY));
    const meta = {
      as: times[0] - hrng.int(30 * DAY),
      location: times[0] - hrng.int(30 * DAY),
      dns: times[times.length - 1] - hrng.int(3 * DAY),
    };
    const states: HostState[] = [initial];
    const docs: DemoHostDocument[] = [renderHost(ctx, initial, times[0], 0, meta)];
    for (let k = 1; k < versionCount; k++) {
      // A change nobody could observe (e.g. a re-rolled detail that renders the same) is no new version.
      const prev = states[k - 1];
      const seen = JSON.stringify(renderHost(ctx, prev, times[k], k, meta).services);
      let next = mutate(ctx, prev, hrng);
      let doc = renderHost(ctx, next, times[k], k, meta);
      for (let tries = 0; tries < 6 && JSON.stringify(doc.services) === seen; tries++) {
        next = mutate(ctx, next, hrng);
        doc = renderHost(ctx, next, times[k], k, meta);
      }
      states.push(next);
      docs.push(doc);
    }
    const versions = docs.map((doc, k) => ({ observedAt: iso(times[k]), doc }));
    yield { id: initial.ip, versions };
    const last = states[states.length - 1];
    if (last.services.some((x) => x.kind === 'HTTP') && last.profile !== 'cdn-edge' && hrng.chance(0.06)) {
      yield* virtualHosts(ctx, last, times[times.length - 1], versionCount - 1, hrng);
    }
  }
}
