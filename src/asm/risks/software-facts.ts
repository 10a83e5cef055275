/**
 * The software a host runs, gathered from the places Censys documents show it: CPE entries of
 * each service (`software[]`) and of the host (`operating_system`), the SSH banner, and HTTP
 * `Server` / `X-Powered-By` headers (which name modules such as OpenSSL that CPEs often omit).
 */
import type { ServiceDoc } from './risk-model.ts';
import { headerValues } from './service-view.ts';

export interface SoftwareFact {
  /** CPE vendor when known. */
  readonly vendor?: string;
  /** CPE product (`openssh`, `http_server`, `php`...). */
  readonly product: string;
  /** Version with any update suffix joined (`8.9p1`); absent when the software hides it. */
  readonly version?: string;
  readonly part?: string;
  /** Where it was read: `cpe`, `ssh-banner` or `http-header`. */
  readonly source: string;
  /** Human form, e.g. `OpenSSH 8.9p1`. */
  readonly label: string;
}

const LABELS: Readonly<Record<string, string>> = {
  openssh: 'OpenSSH',
  http_server: 'Apache HTTP Server',
  nginx: 'nginx',
  php: 'PHP',
  openssl: 'OpenSSL',
  internet_information_services: 'IIS',
  exim: 'Exim',
  vsftpd: 'vsftpd',
  proftpd: 'ProFTPD',
  redis: 'Redis',
  tomcat: 'Apache Tomcat',
  mysql: 'MySQL',
  mariadb: 'MariaDB',
  mongodb: 'MongoDB',
  elasticsearch: 'Elasticsearch',
};

function label(product: string, version: string | undefined): string {
  const name = LABELS[product] ?? product;
  return version ? `${name} ${version}` : name;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' && v !== '*' ? v : undefined;
}

/** A CPE-shaped object (`software[]` entry or `operating_system`) as a fact, if it names a product. */
export function factFromCpe(entry: unknown): SoftwareFact | undefined {
  if (!entry || typeof entry !== 'object') return undefined;
  const e = entry as Record<string, unknown>;
  const product = str(e.product);
  if (!product) return undefined;
  const base = str(e.version);
  const update = str(e.update);
  // OpenSSH portable puts `p1` in the CPE update field; banners show it joined to the version.
  const version = base && update && /^p\d+$/.test(update) ? `${base}${update}` : base;
  const vendor = str(e.vendor);
  const part = str(e.part);
  return { ...(vendor ? { vendor } : {}), product, ...(version ? { version } : {}), ...(part ? { part } : {}), source: 'cpe', label: label(product, version) };
}

const HEADER_PRODUCTS: readonly (readonly [RegExp, string, string])[] = [
  [/\bOpenSSL\/(\d[\w.]*)/i, 'openssl', 'openssl'],
  [/\bPHP\/(\d[\w.]*)/i, 'php', 'php'],
  [/\bApache\/(\d[\w.]*)/i, 'apache', 'http_server'],
  [/\bnginx\/(\d[\w.]*)/i, 'f5', 'nginx'],
  [/\bMicrosoft-IIS\/(\d[\w.]*)/i, 'microsoft', 'internet_information_services'],
];

// Several detectors ask for the same service's software; documents are not changed while detected.
const softwareCache = new WeakMap<ServiceDoc, readonly SoftwareFact[]>();

/** Every software fact of one service, CPE entries first; a product already known from a CPE with a version is not repeated. */
export function serviceSoftware(service: ServiceDoc): readonly SoftwareFact[] {
  let facts = softwareCache.get(service);
  if (!facts) softwareCache.set(service, (facts = readServiceSoftware(service)));
  return facts;
}

function readServiceSoftware(service: ServiceDoc): SoftwareFact[] {
  const out: SoftwareFact[] = [];
  const list = Array.isArray(service.software) ? service.software : [];
  for (const entry of list) {
    const f = factFromCpe(entry);
    if (f && f.part !== 'o') out.push(f);
  }
  const known = (product: string): boolean => out.some((f) => f.product === product && f.version);
  const ssh = service.ssh as Record<string, unknown> | undefined;
  const endpoint = ssh?.endpoint_id as Record<string, unknown> | undefined;
  const sw = typeof endpoint?.software_version === 'string' ? endpoint.software_version : undefined;
  const m = sw ? /^OpenSSH_(\d+\.\d+(?:p\d+)?)/.exec(sw) : null;
  if (m && !known('openssh')) out.push({ vendor: 'openbsd', product: 'openssh', version: m[1], source: 'ssh-banner', label: label('openssh', m[1]) });
  const headers = [...headerValues(service, 'server'), ...headerValues(service, 'x-powered-by')];
  for (const h of headers) {
    for (const [re, vendor, product] of HEADER_PRODUCTS) {
      const hm = re.exec(h);
      if (hm && !known(product)) out.push({ vendor, product, version: hm[1], source: 'http-header', label: label(product, hm[1]) });
    }
  }
  return out;
}

/** The host's operating system facts: `operating_system` and any `part: o` CPE of its services. */
export function operatingSystems(host: Record<string, unknown>): SoftwareFact[] {
  const out: SoftwareFact[] = [];
  const seen = new Set<string>();
  const add = (entry: unknown): void => {
    const f = factFromCpe(entry);
    if (!f || (f.part !== undefined && f.part !== 'o')) return;
    const key = `${f.vendor}|${f.product}|${f.version}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(f);
  };
  add(host.operating_system);
  const services = Array.isArray(host.services) ? host.services : [];
  for (const s of services) {
    const list = s && typeof s === 'object' && Array.isArray((s as Record<string, unknown>).software) ? ((s as Record<string, unknown>).software as unknown[]) : [];
    for (const e of list) if (e && typeof e === 'object' && (e as Record<string, unknown>).part === 'o') add(e);
  }
  return out;
}
