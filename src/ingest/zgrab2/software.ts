/**
 * Software identification from what scanners report: HTTP `Server` headers, SSH software
 * versions and Wappalyzer technology names (httpx `tech`). CPE vendor/product pairs follow NVD's
 * dictionary; a CPE is given only when the version is known, since a versionless CPE says little
 * more than the product name.
 */
import type { SoftwareObservation } from '../observation.ts';

interface Known {
  readonly vendor: string;
  readonly product: string;
  readonly part: 'a' | 'o';
}

// Keys are lower-cased product tokens as they appear in Server headers and Wappalyzer names.
const KNOWN: ReadonlyMap<string, Known> = new Map<string, Known>([
  ['nginx', { vendor: 'f5', product: 'nginx', part: 'a' }],
  ['apache', { vendor: 'apache', product: 'http_server', part: 'a' }],
  ['apache http server', { vendor: 'apache', product: 'http_server', part: 'a' }],
  ['microsoft-iis', { vendor: 'microsoft', product: 'internet_information_services', part: 'a' }],
  ['iis', { vendor: 'microsoft', product: 'internet_information_services', part: 'a' }],
  ['lighttpd', { vendor: 'lighttpd', product: 'lighttpd', part: 'a' }],
  ['openresty', { vendor: 'openresty', product: 'openresty', part: 'a' }],
  ['caddy', { vendor: 'caddyserver', product: 'caddy', part: 'a' }],
  ['jetty', { vendor: 'eclipse', product: 'jetty', part: 'a' }],
  ['apache tomcat', { vendor: 'apache', product: 'tomcat', part: 'a' }],
  ['tomcat', { vendor: 'apache', product: 'tomcat', part: 'a' }],
  ['litespeed', { vendor: 'litespeedtech', product: 'litespeed_web_server', part: 'a' }],
  ['php', { vendor: 'php', product: 'php', part: 'a' }],
  ['openssl', { vendor: 'openssl', product: 'openssl', part: 'a' }],
  ['wordpress', { vendor: 'wordpress', product: 'wordpress', part: 'a' }],
  ['drupal', { vendor: 'drupal', product: 'drupal', part: 'a' }],
  ['jquery', { vendor: 'jquery', product: 'jquery', part: 'a' }],
  ['grafana', { vendor: 'grafana', product: 'grafana', part: 'a' }],
  ['jenkins', { vendor: 'jenkins', product: 'jenkins', part: 'a' }],
  ['gitlab', { vendor: 'gitlab', product: 'gitlab', part: 'a' }],
  ['ubuntu', { vendor: 'canonical', product: 'ubuntu_linux', part: 'o' }],
  ['debian', { vendor: 'debian', product: 'debian_linux', part: 'o' }],
  ['centos', { vendor: 'centos', product: 'centos', part: 'o' }],
]);

function cpeField(v: string | undefined): string {
  return v === undefined || v === '' ? '*' : v.replace(/([\\:*?!"#$%&'()+,/;<=>@[\]^`{|}~ ])/g, '\\$1');
}

export function cpe23(part: 'a' | 'o' | 'h', vendor: string, product: string, version?: string, update?: string): string {
  return `cpe:2.3:${part}:${vendor}:${product}:${cpeField(version)}:${cpeField(update)}:*:*:*:*:*:*`;
}

/** One product token with an optional version: a known product gets vendor/product (and a CPE with a version). */
export function softwareFor(name: string, version?: string, update?: string): SoftwareObservation {
  const known = KNOWN.get(name.trim().toLowerCase());
  const v = version && version !== '' ? version : undefined;
  if (!known) return { product: name.trim(), part: 'a', ...(v ? { version: v } : {}) };
  return {
    vendor: known.vendor,
    product: known.product,
    part: known.part,
    ...(v ? { version: v, cpe: cpe23(known.part, known.vendor, known.product, v, update) } : {}),
  };
}

/**
 * Products of an HTTP `Server` header (`nginx/1.18.0 (Ubuntu)`, `Apache/2.4.41 (Unix) OpenSSL/1.1.1`,
 * `Microsoft-IIS/10.0`). Comments in parentheses are skipped; a distribution named in one becomes
 * an operating-system entry.
 */
export function serverHeaderSoftware(header: string): SoftwareObservation[] {
  const out: SoftwareObservation[] = [];
  const text = header.trim();
  if (text === '') return out;
  const re = /\(([^)]*)\)|([^\s/()]+)(?:\/([^\s()]+))?/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[1] !== undefined) {
      const os = KNOWN.get(m[1].trim().toLowerCase());
      if (os?.part === 'o') out.push({ vendor: os.vendor, product: os.product, part: 'o' });
      continue;
    }
    out.push(softwareFor(m[2], m[3]));
  }
  return out;
}

/** A Wappalyzer technology as httpx prints it: `Nginx:1.18.0`, `PHP`, `Apache HTTP Server:2.4.41`. */
export function technologySoftware(tech: string): SoftwareObservation | undefined {
  const t = tech.trim();
  if (t === '') return undefined;
  const colon = t.lastIndexOf(':');
  const name = colon > 0 ? t.slice(0, colon) : t;
  const version = colon > 0 ? t.slice(colon + 1).trim() : undefined;
  return softwareFor(name, version);
}

/** SSH software from the endpoint id's software part (`OpenSSH_8.9p1`, `dropbear_2022.83`). */
export function sshSoftware(softwareVersion: string): SoftwareObservation | undefined {
  let m = /^OpenSSH_(\d+(?:\.\d+)*)(p\d+)?/.exec(softwareVersion);
  if (m) {
    // The portable release (`p1`) is the CPE update field; SoftwareObservation has no field of its own for it.
    return { vendor: 'openbsd', product: 'openssh', part: 'a', version: m[1], cpe: cpe23('a', 'openbsd', 'openssh', m[1], m[2]) };
  }
  m = /^dropbear_(\d+(?:\.\d+)*)/i.exec(softwareVersion);
  if (m) {
    return { vendor: 'dropbear_ssh_project', product: 'dropbear_ssh', part: 'a', version: m[1], cpe: cpe23('a', 'dropbear_ssh_project', 'dropbear_ssh', m[1]) };
  }
  if (softwareVersion === '') return undefined;
  const [product, version] = softwareVersion.split('_', 2);
  return { product, part: 'a', ...(version ? { version } : {}) };
}
