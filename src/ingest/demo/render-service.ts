/**
 * Turns a service's state (what runs on the port) into a Censys service object at a given scan
 * time. Details come from the service's own seed, so an unchanged service renders the same in
 * every version of its host except for the observation metadata.
 */
import * as nodeCrypto from 'node:crypto';
import type { DemoCertificate } from './generate-certificates.ts';
import { renderPage, type PageKind } from './http-pages.ts';
import { Rng } from './rng.ts';
import { cpe, sshSoftware, UPSTREAM, type OsDef, type SoftwareDoc } from './software.ts';

export type ServiceKind =
  | 'HTTP'
  | 'SSH'
  | 'FTP'
  | 'SMTP'
  | 'IMAP'
  | 'POP3'
  | 'DNS'
  | 'MYSQL'
  | 'POSTGRES'
  | 'REDIS'
  | 'MONGODB'
  | 'ELASTICSEARCH'
  | 'MEMCACHED'
  | 'MQTT'
  | 'VNC'
  | 'RDP'
  | 'SMB'
  | 'SNMP'
  | 'NTP'
  | 'TELNET'
  | 'UNKNOWN';

/** What runs on a port; mutated between host versions (upgrades, page changes, moves). */
export interface ServiceSpec {
  port: number;
  transport: 'TCP' | 'UDP';
  kind: ServiceKind;
  tls: boolean;
  seed: number;
  /** Software flavour (e.g. `nginx`, `apache`, `vsftpd`); meaning depends on kind. */
  product: string;
  /** Index into the product's version list; upgrades move it forward. */
  versionIdx: number;
  page?: PageKind;
  /** Candidate certificates (newest first); the newest one issued before the scan is presented. */
  certs?: number[];
  /** Present an older certificate than the newest available (a stale deployment). */
  staleCert?: boolean;
  /** Presented when no candidate was issued yet at scan time (an older self-signed certificate). */
  fallbackCert?: number;
}

export interface HostContext {
  readonly ip: string;
  readonly os?: OsDef;
  /** Name used in banners and HTTP requests (a forward DNS name, or the virtual host name). */
  readonly hostname?: string;
  /** Reverse DNS name, which mail servers often announce when they have no forward name. */
  readonly ptr?: string;
  readonly org?: string;
  /** Seeds scan metadata (times, perspectives), independent of what runs on the port. */
  readonly scanSeed: number;
}

/** The certificates hosts can present, with a fingerprint index for chains. */
export interface CertificateSet {
  readonly list: readonly DemoCertificate[];
  readonly byFingerprint: ReadonlyMap<string, DemoCertificate>;
}

export type ServiceDoc = Record<string, unknown> & { port: number; service_name: string; transport_protocol: string };

export interface RenderedService {
  readonly doc: ServiceDoc;
  readonly labels: readonly string[];
  /** The service shows which operating system the host runs. */
  readonly revealsOs: boolean;
}

const PERSPECTIVES = ['PERSPECTIVE_NTT', 'PERSPECTIVE_TATA', 'PERSPECTIVE_HE', 'PERSPECTIVE_TELIA', 'PERSPECTIVE_PCCW'];
const SCANNER_NETS = ['167.94.138', '167.94.145', '167.94.146', '206.168.34', '162.142.125'];
const USER_AGENT = 'Mozilla/5.0 (compatible; PeriscopeScanner/0.1)';

// Page bodies repeat a lot (default pages, error pages); banners never do, so only bodies are cached.
const hashCache = new Map<string, { sha1: string; sha256: string }>();
function hashes(text: string): { sha1: string; sha256: string } {
  let h = hashCache.get(text);
  if (!h) {
    h = { sha1: digestHex('sha1', text), sha256: digestHex('sha256', text) };
    if (hashCache.size > 50_000) hashCache.clear();
    hashCache.set(text, h);
  }
  return h;
}

// crypto.hash (Node >= 20.12) is the cheap one-shot form; fall back to createHash elsewhere.
const oneShot = (nodeCrypto as { hash?: (alg: string, data: string, enc: 'hex') => string }).hash;
function digestHex(alg: string, text: string): string {
  return oneShot ? oneShot(alg, text, 'hex') : nodeCrypto.createHash(alg).update(text).digest('hex');
}

const md5 = (s: string): string => digestHex('md5', s);

/** Header names as Censys stores them: `-` → `_`, each part capitalised (`Content_Type`). */
const headerKeys = new Map<string, string>();
export function headerKey(name: string): string {
  let k = headerKeys.get(name);
  if (k === undefined) {
    k = name
      .split('-')
      .map((p) => p.charAt(0).toUpperCase() + p.slice(1).toLowerCase())
      .join('_');
    headerKeys.set(name, k);
  }
  return k;
}

function headerMap(list: readonly (readonly [string, string])[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of list) (out[headerKey(k)] ??= []).push(v);
  return out;
}

function pickVersion(list: readonly string[], idx: number): string {
  return list[Math.min(idx, list.length - 1)];
}

/** Versions a product can take on this host, oldest first (distribution packages when the OS ships them). */
export function productVersions(product: string, os: OsDef | undefined): readonly string[] {
  switch (product) {
    case 'nginx':
      return os?.nginx ?? UPSTREAM.nginx;
    case 'apache':
      return os?.apache ?? UPSTREAM.apache;
    case 'mysql':
      return os?.mysql ?? UPSTREAM.mysql;
    case 'ssh':
      return (os?.ssh ?? [['OpenSSH_8.9p1', '']]).map(([sw, c]) => (c ? `${sw} ${c}` : sw));
    default:
      return (UPSTREAM as Record<string, readonly string[]>)[product] ?? [''];
  }
}

function osTagVisible(os: OsDef | undefined): string | undefined {
  return os?.serverTag && os.serverTag !== '()' ? os.serverTag : undefined;
}

interface TlsParts {
  certificate: string;
  tls: Record<string, unknown>;
  jarm: Record<string, unknown>;
}

function chooseCertificate(spec: ServiceSpec, t: number, certs: readonly DemoCertificate[]): DemoCertificate | undefined {
  if (!spec.certs?.length) return undefined;
  const usable = spec.certs.filter((i) => certs[i].notBefore <= t);
  if (!usable.length) return certs[spec.fallbackCert ?? spec.certs[spec.certs.length - 1]];
  return certs[usable[spec.staleCert && usable.length > 1 ? 1 : 0]];
}

interface PresentedCertificate {
  leafData: Record<string, unknown>;
  chain: { fingerprint: string; subject_dn: string; issuer_dn: string }[];
}

// Many services present the same certificate: build its leaf_data once and share the (read-only) object.
const presented = new WeakMap<DemoCertificate, PresentedCertificate>();

function presentedCertificate(cert: DemoCertificate, certs: CertificateSet): PresentedCertificate {
  let p = presented.get(cert);
  if (p) return p;
  const d = cert.doc;
  const parsed = d.parsed;
  const key = parsed.subject_key_info;
  const publicKey: Record<string, unknown> = { fingerprint: key.fingerprint_sha256, key_algorithm: key.key_algorithm.name };
  if (key.rsa) publicKey.rsa = { exponent: key.rsa.exponent, length: key.rsa.length };
  if (key.ecdsa) publicKey.ecdsa = { curve: key.ecdsa.curve, length: key.ecdsa.length };
  const chain: { fingerprint: string; subject_dn: string; issuer_dn: string }[] = [];
  const issuer = cert.issuerFingerprint ? certs.byFingerprint.get(cert.issuerFingerprint) : undefined;
  if (issuer) chain.push({ fingerprint: issuer.doc.fingerprint_sha256, subject_dn: issuer.doc.parsed.subject_dn, issuer_dn: issuer.doc.parsed.issuer_dn });
  p = {
    chain,
    leafData: {
      fingerprint: d.fingerprint_sha256,
      issuer: parsed.issuer,
      issuer_dn: parsed.issuer_dn,
      names: d.names,
      pubkey_algorithm: key.key_algorithm.name,
      pubkey_bit_size: key.rsa?.length ?? key.ecdsa?.length ?? 0,
      public_key: publicKey,
      signature: { self_signed: parsed.signature.self_signed, signature_algorithm: parsed.signature.signature_algorithm.name },
      subject: parsed.subject,
      subject_dn: parsed.subject_dn,
      tbs_fingerprint: d.tbs_fingerprint_sha256,
    },
  };
  presented.set(cert, p);
  return p;
}

function renderTls(spec: ServiceSpec, t: number, certs: CertificateSet, rng: Rng, productKey: string): TlsParts | undefined {
  const cert = chooseCertificate(spec, t, certs.list);
  if (!cert) return undefined;
  const d = cert.doc;
  const key = d.parsed.subject_key_info;
  const v13 = rng.chance(0.62);
  const legacy = !v13 && rng.chance(0.04);
  const version = v13 ? 'TLSv1_3' : legacy ? 'TLSv1_1' : 'TLSv1_2';
  const ec = key.key_algorithm.name === 'ECDSA';
  const cipher = v13
    ? rng.pick(['TLS_AES_256_GCM_SHA384', 'TLS_AES_128_GCM_SHA256', 'TLS_CHACHA20_POLY1305_SHA256'])
    : legacy
      ? 'TLS_RSA_WITH_AES_128_CBC_SHA'
      : ec
        ? rng.pick(['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384'])
        : rng.pick(['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384']);
  const { chain, leafData } = presentedCertificate(cert, certs);
  const jarmSeed = md5(`${productKey}|${version}|${cipher}`) + md5(`${productKey}|${version}`);
  const jarmFp = (jarmSeed.slice(0, 30) + jarmSeed.slice(32, 64)).slice(0, 62);
  return {
    certificate: d.fingerprint_sha256,
    jarm: {
      cipher_and_version_fingerprint: jarmFp.slice(0, 30),
      fingerprint: jarmFp,
      tls_extensions_sha256: jarmFp.slice(30),
    },
    tls: {
      certificates: {
        ...(chain.length ? { chain, chain_fps_sha_256: chain.map((c) => c.fingerprint) } : {}),
        leaf_data: leafData,
        leaf_fp_sha_256: d.fingerprint_sha256,
      },
      cipher_selected: cipher,
      ja3s: md5(`${productKey}|${version}|${cipher}|ja3s`),
      ...(chain.length ? { presented_chain: chain } : {}),
      version_selected: version,
    },
  };
}

interface Body {
  banner?: string;
  decoded: string;
  sub?: Record<string, unknown>;
  software: SoftwareDoc[];
  labels: string[];
  revealsOs: boolean;
  tlsProduct: string;
  extended?: string;
}

function serverIdentity(spec: ServiceSpec, os: OsDef | undefined): { server: string; header?: string; version?: string; software?: SoftwareDoc; tag?: string } {
  const versions = productVersions(spec.product, os);
  const v = pickVersion(versions, spec.versionIdx);
  const tag = osTagVisible(os);
  switch (spec.product) {
    case 'nginx': {
      const hidden = spec.seed % 3 === 0;
      const showTag = os?.family === 'ubuntu' && tag;
      return {
        server: 'nginx',
        header: hidden ? 'nginx' : `nginx/${v}${showTag ? ` ${tag}` : ''}`,
        ...(hidden ? {} : { version: v }),
        software: cpe('a', 'f5', 'nginx', hidden ? undefined : v),
        ...(showTag && !hidden ? { tag } : {}),
      };
    }
    case 'apache': {
      const hidden = spec.seed % 4 === 0;
      return {
        server: 'apache',
        header: hidden ? 'Apache' : `Apache/${v}${tag ? ` ${tag}` : ''}`,
        ...(hidden ? {} : { version: v }),
        software: cpe('a', 'apache', 'http_server', hidden ? undefined : v),
        ...(tag && !hidden ? { tag } : {}),
      };
    }
    case 'iis': {
      const iv = os?.iis ?? '10.0';
      return { server: 'iis', header: `Microsoft-IIS/${iv}`, version: iv, software: cpe('a', 'microsoft', 'internet_information_services', iv) };
    }
    case 'openresty':
      return { server: 'openresty', header: spec.seed % 2 ? `openresty/${v}` : 'openresty', version: v, software: cpe('a', 'openresty', 'openresty', spec.seed % 2 ? v : undefined) };
    case 'lighttpd':
      return { server: 'lighttpd', header: `lighttpd/${v}`, version: v, software: cpe('a', 'lighttpd', 'lighttpd', v) };
    case 'caddy':
      return { server: 'caddy', header: 'Caddy', software: cpe('a', 'caddyserver', 'caddy') };
    case 'tomcat':
      return { server: 'tomcat', version: v, software: cpe('a', 'apache', 'tomcat', v) };
    case 'jetty':
      return { server: 'jetty', header: `Jetty(${v})`, version: v, software: cpe('a', 'eclipse', 'jetty', v.replace(/\.v\d+$/, '')) };
    case 'express':
      return { server: 'express', software: cpe('a', 'expressjs', 'express') };
    case 'cloudflare':
      return { server: 'cloudflare', header: 'cloudflare', software: cpe('a', 'cloudflare', 'cloudflare') };
    case 'goahead':
      return { server: 'goahead', header: 'GoAhead-Webs', software: cpe('a', 'embedthis', 'goahead') };
    case 'boa':
      return { server: 'boa', header: 'Boa/0.94.14rc21', version: '0.94.14rc21', software: cpe('a', 'boa', 'boa', '0.94.14rc21') };
    case 'mini_httpd':
      return { server: 'mini_httpd', header: 'mini_httpd/1.30 26Oct2018', version: '1.30', software: cpe('a', 'acme', 'mini_httpd', '1.30') };
    case 'uhttpd':
      return { server: 'uhttpd', software: cpe('a', 'openwrt', 'uhttpd') };
    case 'routeros':
      return { server: 'routeros' };
    default:
      return { server: spec.product };
  }
}

function httpBody(spec: ServiceSpec, host: HostContext, t: number, rng: Rng): Body {
  const os = host.os;
  const id = serverIdentity(spec, os);
  const target = host.hostname ?? host.ip;
  const defaultPort = spec.tls ? 443 : 80;
  const hostPart = host.ip.includes(':') && !host.hostname ? `[${target}]` : target;
  const uri = `${spec.tls ? 'https' : 'http'}://${hostPart}${spec.port === defaultPort ? '' : `:${spec.port}`}/`;
  const page = renderPage(spec.page ?? 'default', { server: id.server, ...(id.tag ? { distroTag: id.tag } : {}), ...(id.version ? { serverVersion: id.version } : {}), ...(host.org ? { org: host.org } : {}), host: target, tls: spec.tls }, rng);
  const headers: [string, string][] = [];
  if (id.header) headers.push(['Server', id.header]);
  headers.push(['Date', new Date(t).toUTCString()]);
  headers.push(['Content-Type', page.contentType]);
  headers.push(['Content-Length', String(Buffer.byteLength(page.body))]);
  if (id.server !== 'iis') headers.push(['Connection', 'keep-alive']);
  headers.push(...page.headers.map(([k, v]) => [k, v] as [string, string]));
  const software: SoftwareDoc[] = id.software ? [id.software] : [];
  if (page.status === 200 && page.labels.includes('default-landing-page')) {
    headers.push(['Last-Modified', new Date(t - (spec.seed % 900) * 86_400_000).toUTCString()], ['ETag', `"${rng.hex(4)}-${rng.hex(6)}"`], ['Accept-Ranges', 'bytes']);
  }
  if (id.server === 'iis') headers.push(['X-Powered-By', 'ASP.NET']);
  else if (id.server === 'express') headers.push(['X-Powered-By', 'Express']);
  else if ((id.server === 'apache' || id.server === 'nginx') && (page.labels.includes('login-page') || spec.page === 'site') && os?.php && spec.seed % 3 === 0) {
    headers.push(['X-Powered-By', `PHP/${os.php}`]);
    software.push(cpe('a', 'php', 'php', os.php.replace(/-.*$/, '')));
  }
  if (spec.tls && spec.seed % 3 === 1) headers.push(['Strict-Transport-Security', 'max-age=31536000; includeSubDomains']);
  if (spec.seed % 5 === 2) headers.push(['X-Frame-Options', 'SAMEORIGIN']);
  if (id.server === 'cloudflare') headers.push(['Vary', 'Accept-Encoding']);
  const revealsOs = !!id.tag || id.server === 'iis';
  if (revealsOs && os) software.push(os.os);
  const h = hashes(page.body);
  const statusLine = `HTTP/1.1 ${page.status} ${page.reason}`;
  const response: Record<string, unknown> = {
    body: page.body,
    body_hash: `sha1:${h.sha1}`,
    body_hashes: [`sha256:${h.sha256}`, `sha1:${h.sha1}`],
    body_size: Buffer.byteLength(page.body),
    headers: headerMap(headers),
  };
  if (page.title !== undefined) {
    response.html_tags = ['<meta charset="utf-8">', `<title>${page.title}</title>`];
    response.html_title = page.title;
  }
  response.protocol = 'HTTP/1.1';
  response.status_code = page.status;
  response.status_reason = page.reason;
  return {
    banner: `${statusLine}\r\n${headers.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n`,
    decoded: 'http',
    sub: {
      request: { headers: headerMap([['User-Agent', USER_AGENT], ['Accept', '*/*'], ['Accept-Encoding', 'gzip']]), method: 'GET', uri },
      response,
      ...(spec.tls ? { supports_http2: spec.seed % 2 === 0 } : {}),
    },
    software,
    labels: [...page.labels],
    revealsOs,
    tlsProduct: spec.product,
    ...(spec.tls ? { extended: 'HTTPS' } : {}),
  };
}

function sshBody(spec: ServiceSpec, host: HostContext, rng: Rng): Body {
  const full = pickVersion(productVersions('ssh', host.os), spec.versionIdx);
  const [sw, ...rest] = full.split(' ');
  const comment = rest.join(' ');
  const banner = `SSH-2.0-${full}`;
  const software: SoftwareDoc[] = [];
  const s = sshSoftware(sw);
  if (s) software.push(s);
  const fam = host.os?.family;
  const revealsOs = !!comment || fam === 'windows' || fam === 'mikrotik' || fam === 'cisco';
  if (revealsOs && host.os) software.push(host.os.os);
  const keyKind = rng.pick(['ed25519', 'ecdsa', 'rsa'] as const);
  const hostKey: Record<string, unknown> = { fingerprint_sha256: rng.hex(32) };
  if (keyKind === 'ed25519') hostKey.ed25519_public_key = { public_bytes: rng.bytes(32).toString('base64') };
  else if (keyKind === 'ecdsa') hostKey.ecdsa_public_key = { curve: 'P-256', length: 256, x: rng.bytes(32).toString('base64'), y: rng.bytes(32).toString('base64') };
  else hostKey.rsa_public_key = { exponent: 'AAEAAQ==', length: rng.pick([2048, 3072, 4096]) };
  const modern = sw.startsWith('OpenSSH_8') || sw.startsWith('OpenSSH_9');
  const cipher = modern ? 'chacha20-poly1305@openssh.com' : 'aes128-ctr';
  const mac = modern ? 'hmac-sha2-256-etm@openssh.com' : 'hmac-sha2-256';
  const group = { cipher, compression: 'none', mac };
  return {
    banner,
    decoded: 'ssh',
    sub: {
      algorithm_selection: {
        client_to_server_alg_group: group,
        host_key_algorithm: keyKind === 'ed25519' ? 'ssh-ed25519' : keyKind === 'ecdsa' ? 'ecdsa-sha2-nistp256' : 'rsa-sha2-512',
        kex_algorithm: modern ? 'curve25519-sha256' : 'diffie-hellman-group14-sha256',
        server_to_client_alg_group: group,
      },
      endpoint_id: { ...(comment ? { comment } : {}), protocol_version: '2.0', raw: banner, software_version: sw },
      hassh_fingerprint: md5(`hassh|${sw}`),
      server_host_key: hostKey,
    },
    software,
    labels: [],
    revealsOs,
    tlsProduct: 'ssh',
  };
}

function ftpBody(spec: ServiceSpec, host: HostContext, rng: Rng): Body {
  const v = pickVersion(productVersions(spec.product, host.os), spec.versionIdx);
  let banner: string;
  let software: SoftwareDoc | undefined;
  let revealsOs = false;
  switch (spec.product) {
    case 'vsftpd':
      banner = `220 (vsFTPd ${v})`;
      software = cpe('a', 'beasts', 'vsftpd', v);
      break;
    case 'proftpd':
      if (host.os?.family === 'debian' && spec.seed % 2 === 0) {
        banner = `220 ProFTPD Server (Debian) [::ffff:${host.ip}]`;
        software = cpe('a', 'proftpd', 'proftpd');
        revealsOs = true;
      } else {
        banner = `220 ProFTPD ${v} Server (ProFTPD Default Installation) [${host.ip}]`;
        software = cpe('a', 'proftpd', 'proftpd', v);
      }
      break;
    case 'pureftpd':
      banner =
        '220---------- Welcome to Pure-FTPd [privsep] [TLS] ----------\r\n220-You are user number 1 of 50 allowed.\r\n' +
        `220-Local time is now ${String(rng.int(24)).padStart(2, '0')}:${String(rng.int(60)).padStart(2, '0')}. Server port: ${spec.port}.\r\n` +
        '220-This is a private system - No anonymous login\r\n220 You will be disconnected after 15 minutes of inactivity.';
      software = cpe('a', 'pureftpd', 'pure-ftpd');
      break;
    case 'filezilla':
      banner = v.includes('beta')
        ? `220-FileZilla Server ${v}\r\n220-written by Tim Kosse (tim.kosse@filezilla-project.org)\r\n220 Please visit https://filezilla-project.org/`
        : `220-FileZilla Server ${v}\r\n220 Please visit https://filezilla-project.org/`;
      software = cpe('a', 'filezilla-project', 'filezilla_server', v.replace(' beta', ''));
      break;
    case 'msftp':
      banner = '220 Microsoft FTP Service';
      software = cpe('a', 'microsoft', 'internet_information_services', host.os?.iis);
      revealsOs = true;
      break;
    default:
      banner = `220 MikroTik FTP server (MikroTik ${host.os?.os.version ?? '6.49.7'}) ready`;
      revealsOs = true;
  }
  const sw: SoftwareDoc[] = software ? [software] : [];
  if (revealsOs && host.os) sw.push(host.os.os);
  const tlsOk = spec.seed % 3 !== 0;
  return {
    banner,
    decoded: 'ftp',
    sub: {
      auth_tls_response: tlsOk ? '234 AUTH TLS successful' : '500 AUTH not understood',
      banner,
      implicit_tls: false,
      status_code: 220,
      status_meaning: 'Service ready for new user',
    },
    software: sw,
    labels: ['file-sharing'],
    revealsOs,
    tlsProduct: spec.product,
  };
}

function mailName(host: HostContext): string {
  return host.hostname ?? host.ptr ?? 'localhost.localdomain';
}

function smtpDate(t: number): string {
  return new Date(t).toUTCString().replace('GMT', '+0000');
}

function smtpBody(spec: ServiceSpec, host: HostContext, t: number): Body {
  const name = mailName(host);
  const v = pickVersion(productVersions(spec.product, host.os), spec.versionIdx);
  let banner: string;
  let software: SoftwareDoc;
  let revealsOs = false;
  switch (spec.product) {
    case 'exim':
      banner = `220 ${name} ESMTP Exim ${v} ${smtpDate(t)}`;
      software = cpe('a', 'exim', 'exim', v);
      break;
    case 'exchange':
      banner = `220 ${name} Microsoft ESMTP MAIL Service ready at ${smtpDate(t)}`;
      software = cpe('a', 'microsoft', 'exchange_server');
      revealsOs = true;
      break;
    case 'sendmail':
      banner = `220 ${name} ESMTP Sendmail 8.15.2/8.15.2; ${smtpDate(t)}`;
      software = cpe('a', 'sendmail', 'sendmail', '8.15.2');
      break;
    default: {
      const tag = host.os?.family === 'ubuntu' || host.os?.family === 'debian' ? ` ${host.os.serverTag}` : '';
      banner = `220 ${name} ESMTP Postfix${tag}`;
      software = cpe('a', 'postfix', 'postfix');
      revealsOs = !!tag;
    }
  }
  const sw = [software];
  if (revealsOs && host.os) sw.push(host.os.os);
  const startTls = spec.port !== 465;
  const ehlo = [name, 'PIPELINING', 'SIZE 10240000', ...(startTls ? ['STARTTLS'] : []), 'AUTH PLAIN LOGIN', 'ENHANCEDSTATUSCODES', '8BITMIME', 'SMTPUTF8'];
  return {
    banner,
    decoded: 'smtp',
    sub: {
      banner,
      ehlo: ehlo.map((e, i) => `250${i === ehlo.length - 1 ? ' ' : '-'}${e}`).join('\r\n'),
      ...(startTls ? { start_tls: '220 2.0.0 Ready to start TLS' } : {}),
    },
    software: sw,
    labels: ['email'],
    revealsOs,
    tlsProduct: spec.product,
  };
}

function mailboxBody(spec: ServiceSpec, host: HostContext): Body {
  const tag = host.os?.family === 'ubuntu' || host.os?.family === 'debian' ? ` ${host.os.serverTag}` : '';
  const imap = spec.kind === 'IMAP';
  const startTls = !spec.tls;
  let banner: string;
  let software: SoftwareDoc;
  if (spec.product === 'exchange') {
    banner = imap ? '* OK The Microsoft Exchange IMAP4 service is ready.' : '+OK The Microsoft Exchange POP3 service is ready.';
    software = cpe('a', 'microsoft', 'exchange_server');
  } else if (spec.product === 'courier') {
    banner = imap
      ? `* OK [CAPABILITY IMAP4rev1 UIDPLUS CHILDREN NAMESPACE THREAD=ORDEREDSUBJECT THREAD=REFERENCES SORT QUOTA IDLE ACL ACL2=UNION${startTls ? ' STARTTLS' : ''}] Courier-IMAP ready. Copyright 1998-2018 Double Precision, Inc.  See COPYING for distribution information.`
      : '+OK Hello there.';
    software = cpe('a', 'double_precision_incorporated', 'courier-imap');
  } else {
    banner = imap
      ? `* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+${startTls ? ' STARTTLS' : ''} AUTH=PLAIN] Dovecot${tag} ready.`
      : `+OK Dovecot${tag} ready.`;
    software = cpe('a', 'dovecot', 'dovecot');
  }
  const revealsOs = !!tag && spec.product === 'dovecot';
  const sw = [software];
  if (revealsOs && host.os) sw.push(host.os.os);
  return {
    banner,
    decoded: imap ? 'imap' : 'pop3',
    sub: { banner, ...(startTls ? { start_tls: imap ? 'a001 OK Begin TLS negotiation now.' : '+OK Begin TLS negotiation now.' } : {}) },
    software: sw,
    labels: ['email'],
    revealsOs,
    tlsProduct: spec.product,
  };
}

function dnsBody(spec: ServiceSpec, host: HostContext): Body {
  const v = pickVersion(productVersions(spec.product, host.os), spec.versionIdx);
  const type = spec.seed % 5 === 0 ? 'AUTHORITATIVE' : spec.seed % 5 === 1 ? 'FORWARDING' : 'RECURSIVE_RESOLVER';
  const sub: Record<string, unknown> = {
    r_code: type === 'AUTHORITATIVE' && spec.seed % 2 ? 'REFUSED' : 'SUCCESS',
    resolves_correctly: type !== 'AUTHORITATIVE',
    server_type: type,
  };
  const software: SoftwareDoc[] = [];
  if (spec.product === 'bind') {
    sub.version = v;
    software.push(cpe('a', 'isc', 'bind', v.replace(/-.*$/, '')));
  } else if (spec.product === 'dnsmasq') {
    sub.version = `dnsmasq-${v}`;
    software.push(cpe('a', 'thekelleys', 'dnsmasq', v));
  } else if (spec.product === 'unbound') {
    software.push(cpe('a', 'nlnetlabs', 'unbound'));
  }
  return { decoded: 'dns', sub, software, labels: [], revealsOs: false, tlsProduct: spec.product, extended: 'DNS' };
}

function mysqlBody(spec: ServiceSpec, host: HostContext, rng: Rng): Body {
  if (spec.product === 'mysql-denied') {
    const msg = `Host '${SCANNER_NETS[spec.seed % SCANNER_NETS.length]}.${(spec.seed >>> 8) % 250}' is not allowed to connect to this MySQL server`;
    return { decoded: 'mysql', sub: { error_code: 1130, error_id: 'HY000', error_message: msg }, software: [cpe('a', 'oracle', 'mysql')], labels: ['database'], revealsOs: false, tlsProduct: 'mysql' };
  }
  const maria = spec.product === 'mariadb';
  const v = pickVersion(productVersions(maria ? 'mariadb' : 'mysql', host.os), spec.versionIdx);
  const ubuntuTag = host.os?.family === 'ubuntu' && host.os.os.version ? `-0ubuntu0.${host.os.os.version}.1` : '';
  const serverVersion = maria ? `5.5.5-${v}-MariaDB${ubuntuTag}` : v;
  const software = [maria ? cpe('a', 'mariadb', 'mariadb', v) : cpe('a', 'oracle', 'mysql', v.replace(/-.*$/, ''))];
  const revealsOs = serverVersion.includes('ubuntu');
  if (revealsOs && host.os) software.push(host.os.os);
  return {
    decoded: 'mysql',
    sub: {
      auth_plugin_name: maria || v.startsWith('5.') ? 'mysql_native_password' : 'caching_sha2_password',
      capability_flags: { CLIENT_CONNECT_WITH_DB: true, CLIENT_LONG_FLAG: true, CLIENT_LONG_PASSWORD: true, CLIENT_PLUGIN_AUTH: true, CLIENT_PROTOCOL_41: true, CLIENT_SECURE_CONNECTION: true, CLIENT_SSL: spec.seed % 2 === 0, CLIENT_TRANSACTIONS: true },
      character_set: maria ? 8 : 255,
      connection_id: rng.range(5, 900000),
      protocol_version: 10,
      server_version: serverVersion,
      status_flags: { SERVER_STATUS_AUTOCOMMIT: true },
    },
    software,
    labels: ['database'],
    revealsOs,
    tlsProduct: 'mysql',
  };
}

function redisBody(spec: ServiceSpec, host: HostContext, rng: Rng): Body {
  const v = pickVersion(UPSTREAM.redis, spec.versionIdx);
  if (spec.seed % 5 < 2) {
    return {
      banner: '-NOAUTH Authentication required.',
      decoded: 'redis',
      sub: { auth_response: '-ERR invalid password', ping_response: '-NOAUTH Authentication required.' },
      software: [cpe('a', 'redis', 'redis')],
      labels: ['database'],
      revealsOs: false,
      tlsProduct: 'redis',
    };
  }
  const [major, minor, patch] = v.split('.').map(Number);
  return {
    banner: '+PONG',
    decoded: 'redis',
    sub: {
      arch_bits: '64',
      build_id: rng.hex(8),
      commands_processed: rng.range(1000, 90_000_000),
      connections_received: rng.range(10, 5_000_000),
      gcc_version: rng.pick(['9.4.0', '11.4.0', '12.2.0']),
      git_sha1: '00000000',
      major,
      mem_allocator: 'jemalloc-5.2.1',
      minor,
      mode: 'standalone',
      os: host.os?.family === 'freebsd' ? 'FreeBSD 13.2-RELEASE amd64' : `Linux ${rng.pick(['5.15.0-105-generic', '6.1.0-18-amd64', '4.18.0-513.el8.x86_64', '5.4.0-182-generic'])} x86_64`,
      patch_level: patch,
      ping_response: 'PONG',
      uptime: rng.range(3600, 40_000_000),
      used_memory: rng.range(800_000, 4_000_000_000),
    },
    software: [cpe('a', 'redis', 'redis', v)],
    labels: ['database'],
    revealsOs: false,
    tlsProduct: 'redis',
  };
}

function otherBody(spec: ServiceSpec, host: HostContext, t: number, rng: Rng): Body {
  const os = host.os;
  const base = { labels: [] as string[], revealsOs: false, tlsProduct: spec.product, software: [] as SoftwareDoc[] };
  switch (spec.kind) {
    case 'POSTGRES': {
      const scanner = `${SCANNER_NETS[spec.seed % SCANNER_NETS.length]}.${(spec.seed >>> 8) % 250}`;
      const sub =
        spec.seed % 3 === 0
          ? { authentication_mode: { mode: rng.pick(['md5', 'scram-sha-256']) }, supported_versions: '3.0' }
          : {
              startup_error: { code: '28000', message: `no pg_hba.conf entry for host "${scanner}", user "postgres", database "postgres", no encryption`, routine: 'ClientAuthentication', severity: 'FATAL' },
              supported_versions: '3.0',
            };
      return { ...base, decoded: 'postgres', sub, software: [cpe('a', 'postgresql', 'postgresql')], labels: ['database'] };
    }
    case 'MONGODB': {
      const v = pickVersion(UPSTREAM.mongodb, spec.versionIdx);
      return {
        ...base,
        decoded: 'mongodb',
        sub: {
          build_info: {
            build_environment: { dist_arch: 'x86_64', dist_mod: rng.pick(['ubuntu2004', 'ubuntu2204', 'debian11', 'rhel80']), target_arch: 'x86_64', target_os: 'linux' },
            git_version: rng.hex(20),
            version: v,
          },
          is_master: { is_master: true, logical_session_timeout_minutes: 30, max_bson_object_size: 16777216, max_message_size_bytes: 48000000, max_wire_version: Number(v.split('.')[0]) >= 6 ? 17 : 13, max_write_batch_size: 100000, min_wire_version: 0, read_only: false },
        },
        software: [cpe('a', 'mongodb', 'mongodb', v)],
        labels: ['database'],
      };
    }
    case 'ELASTICSEARCH': {
      const v = pickVersion(UPSTREAM.elasticsearch, spec.versionIdx);
      return {
        ...base,
        decoded: 'elasticsearch',
        sub: {
          http_info: { headers: { Content_Type: ['application/json; charset=UTF-8'] }, status: '200 OK', status_code: 200 },
          node_info: {
            cluster_combined_info: {
              indices: { count: rng.range(1, 400), docs: { count: rng.range(0, 90_000_000) } },
              name: rng.pick(['elasticsearch', 'es-cluster', 'docker-cluster', 'logging', 'prod-search']),
              status: rng.pick(['green', 'green', 'yellow']),
              uuid: rng.bytes(16).toString('base64url').slice(0, 22),
            },
          },
        },
        software: [cpe('a', 'elastic', 'elasticsearch', v)],
        labels: ['database'],
      };
    }
    case 'MEMCACHED': {
      const v = pickVersion(UPSTREAM.memcached, spec.versionIdx);
      return {
        ...base,
        banner: `VERSION ${v}`,
        decoded: 'memcached',
        sub: {
          ascii_binding_protocol_enabled: true,
          binary_binding_protocol_enabled: spec.seed % 2 === 0,
          responds_to_udp: spec.seed % 7 === 0,
          stats: { curr_connections: String(rng.range(2, 900)), pid: String(rng.range(300, 90000)), threads: '4', total_items: String(rng.range(0, 5_000_000)), uptime: String(rng.range(3600, 30_000_000)) },
          version: v,
        },
        software: [cpe('a', 'memcached', 'memcached', v)],
        labels: ['database'],
      };
    }
    case 'MQTT': {
      const denied = spec.seed % 3 === 0;
      const sw = spec.product === 'emqx' ? cpe('a', 'emqx', 'emqx') : spec.product === 'hivemq' ? cpe('a', 'hivemq', 'hivemq') : cpe('a', 'eclipse', 'mosquitto');
      return {
        ...base,
        decoded: 'mqtt',
        sub: { connection_ack_return: { raw: denied ? 5 : 0, return_value: denied ? 5 : 0 } },
        software: [sw],
        labels: ['iot'],
      };
    }
    case 'VNC': {
      const banner = spec.product === 'realvnc' ? 'RFB 005.000' : 'RFB 003.008';
      const sw = spec.product === 'realvnc' ? cpe('a', 'realvnc', 'vnc_server') : spec.product === 'tightvnc' ? cpe('a', 'tightvnc', 'tightvnc') : cpe('a', 'libvnc_project', 'libvncserver');
      const open = spec.seed % 9 === 0;
      return {
        ...base,
        banner,
        decoded: 'vnc',
        sub: {
          ...(open ? { desktop_name: rng.pick(['ubuntu:1 (admin)', 'QEMU (vm-101)', 'raspberrypi:0', 'WIN-DESKTOP']) } : {}),
          screen_info: { height: rng.pick([768, 900, 1080]), width: rng.pick([1024, 1440, 1920]) },
          security_types: open ? [{ name: 'None', value: 1 }] : [{ name: 'VNC', value: 2 }],
          version: banner.slice(4).replace(/^0+/, '').replace('.0', '.'),
        },
        software: [sw],
        labels: ['remote-access'],
      };
    }
    case 'RDP':
      return {
        ...base,
        decoded: 'rdp',
        sub: {
          protocol_flags: { dynvc_graphics_pipeline: true, extended_client_data_supported: true, neg_resp_reserved: false, restricted_admin_mode: false, restricted_auth_mode: false },
          selected_security_protocol: { credssp: spec.seed % 4 !== 0, credssp_early_auth: false },
        },
        software: os ? [os.os] : [],
        labels: ['remote-access'],
        revealsOs: true,
      };
    case 'SMB': {
      const windows = os?.family === 'windows';
      return {
        ...base,
        decoded: 'smb',
        sub: {
          group_name: rng.pick(['WORKGROUP', 'CORP', 'OFFICE', 'AD']),
          has_ntlm: true,
          negotiation_log: { dialect_revision: 785, security_mode: 1, server_guid: rng.bytes(16).toString('base64') },
          smb_version: { major: 3, minor: 1, revision: 1, version_string: 'SMB 3.1.1' },
          smbv1_support: !windows && spec.seed % 3 === 0,
        },
        software: windows && os ? [os.os] : [cpe('a', 'samba', 'samba')],
        labels: ['file-sharing'],
        revealsOs: windows,
      };
    }
    case 'SNMP': {
      const name = host.hostname?.split('.')[0] ?? rng.pick(['gw-core-01', 'sw-floor2', 'rtr-edge', 'fw01', 'ap-lobby']);
      const desc =
        os?.family === 'mikrotik'
          ? `RouterOS ${rng.pick(['RB4011iGS+', 'CCR1009-7G-1C-1S+', 'hEX S', 'RB750Gr3'])}`
          : os?.family === 'cisco'
            ? 'Cisco IOS Software, C2960X Software (C2960X-UNIVERSALK9-M), Version 15.2(7)E8, RELEASE SOFTWARE (fc3)'
            : `Linux ${name} ${rng.pick(['5.15.0-105-generic', '4.14.180', '5.4.0-182-generic'])} #1 SMP x86_64`;
      const objectId = os?.family === 'mikrotik' ? '1.3.6.1.4.1.14988.1' : os?.family === 'cisco' ? '1.3.6.1.4.1.9.1.1208' : '1.3.6.1.4.1.8072.3.2.10';
      return {
        ...base,
        decoded: 'snmp',
        sub: {
          oid_interfaces: { num_ifaces: rng.range(2, 52) },
          oid_system: { contact: rng.pick(['admin', 'noc@localhost', 'root', '']), desc, location: rng.pick(['Server Room', 'Rack 12', 'Basement', '']), name, object_id: objectId },
        },
        software: os?.family === 'embedded' || os?.family === undefined || os.family === 'ubuntu' || os.family === 'debian' ? [cpe('a', 'net-snmp', 'net-snmp')] : [],
        revealsOs: os?.family === 'mikrotik' || os?.family === 'cisco',
      };
    }
    case 'NTP':
      return {
        ...base,
        decoded: 'ntp',
        sub: { get_time_header: { leap_indicator: 0, mode: 4, poll: rng.pick([3, 6, 10]), precision: rng.pick([-20, -23, -25]), reference_id: rng.pick(['GPS', 'PPS', '192.168.1.1', '10.0.0.1']), stratum: rng.range(1, 4), version: 4 } },
      };
    case 'TELNET': {
      const fam = os?.family;
      const banner =
        fam === 'mikrotik'
          ? `MikroTik v${os?.os.version} (stable)\r\nLogin: `
          : fam === 'cisco'
            ? '\r\n\r\nUser Access Verification\r\n\r\nUsername: '
            : fam === 'windows'
              ? 'Welcome to Microsoft Telnet Service \r\n\r\nlogin: '
              : fam === 'ubuntu'
                ? `Ubuntu ${os?.os.version} LTS\r\n${host.hostname?.split('.')[0] ?? 'ubuntu'} login: `
                : rng.pick(['\r\n(none) login: ', '\r\nDVR login: ', '\r\nlogin: ', 'BusyBox v1.31.1 (2022-03-14 10:42:11 CST) built-in shell (ash)\r\n\r\n# ']);
      return { ...base, banner, decoded: 'telnet', sub: { banner }, labels: ['remote-access'], revealsOs: fam === 'mikrotik' || fam === 'cisco' || fam === 'windows' || fam === 'ubuntu', software: fam === 'mikrotik' || fam === 'cisco' || fam === 'windows' || fam === 'ubuntu' ? [os!.os] : [] };
    }
    default: {
      const banners = ['', '', 'HELO\r\n', '-ERR unknown command\r\n', '220 Service ready\r\n', '\u0015\u0003\u0001\u0000\u0002\u0002\n', 'OK\r\n', '{"error":"unsupported request"}\n'];
      const banner = banners[spec.seed % banners.length];
      return { ...base, ...(banner ? { banner } : {}), decoded: 'banner_grab', sub: { ...(banner ? { banner } : {}), transport: spec.transport } };
    }
  }
}

/** The service object of `spec` on `host` as scanned at `t` (epoch ms); `scanIndex` varies scan metadata. */
export function renderService(spec: ServiceSpec, host: HostContext, t: number, scanIndex: number, certs: CertificateSet): RenderedService {
  const rng = new Rng(spec.seed);
  let body: Body;
  switch (spec.kind) {
    case 'HTTP':
      body = httpBody(spec, host, t, rng);
      break;
    case 'SSH':
      body = sshBody(spec, host, rng);
      break;
    case 'FTP':
      body = ftpBody(spec, host, rng);
      break;
    case 'SMTP':
      body = smtpBody(spec, host, t);
      break;
    case 'IMAP':
    case 'POP3':
      body = mailboxBody(spec, host);
      break;
    case 'DNS':
      body = dnsBody(spec, host);
      break;
    case 'MYSQL':
      body = mysqlBody(spec, host, rng);
      break;
    case 'REDIS':
      body = redisBody(spec, host, rng);
      break;
    default:
      body = otherBody(spec, host, t, rng);
  }
  const tlsRng = new Rng(spec.seed ^ 0x7f4a7c15);
  const tlsParts = spec.certs ? renderTls(spec, t, certs, tlsRng, body.tlsProduct) : undefined;
  const meta = new Rng((host.scanSeed ^ Math.imul(spec.port + 1, 0x85ebca6b) ^ Math.imul(scanIndex + 1, 0x9e3779b1)) >>> 0);
  const observed = t - meta.int(30 * 3_600_000);
  const banner = body.banner;
  const observedAt = new Date(observed).toISOString();
  // Built key by key (alphabetical, as Censys presents services) rather than with spreads: this runs ~100k times.
  const doc: Record<string, unknown> = { _decoded: body.decoded };
  if (banner !== undefined) {
    doc.banner = banner;
    doc.banner_hashes = [`sha256:${digestHex('sha256', banner)}`];
  }
  if (tlsParts) doc.certificate = tlsParts.certificate;
  doc.extended_service_name = body.extended ?? spec.kind;
  if (tlsParts) {
    tlsParts.jarm.observed_at = observedAt;
    doc.jarm = tlsParts.jarm;
  }
  if (body.labels.length) doc.labels = body.labels;
  doc.observed_at = observedAt;
  doc.perspective_id = meta.pick(PERSPECTIVES);
  doc.port = spec.port;
  if (body.sub) doc[body.decoded] = body.sub;
  doc.service_name = spec.kind;
  if (body.software.length) doc.software = body.software;
  doc.source_ip = `${meta.pick(SCANNER_NETS)}.${meta.range(1, 254)}`;
  if (tlsParts) doc.tls = tlsParts.tls;
  doc.transport_protocol = spec.transport;
  doc.truncated = false;
  return { doc: doc as ServiceDoc, labels: body.labels, revealsOs: body.revealsOs };
}
