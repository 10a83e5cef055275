/**
 * Deterministic host documents shaped like real Censys hosts (several services with banners,
 * software, TLS certificate fields, HTTP responses with headers and bodies, location, AS, DNS,
 * labels, timestamps), for engine smoke tests and the embedded engine's size benchmark.
 */
import type { Doc } from '../../src/engine/index.ts';

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

const SOFTWARE = [
  { vendor: 'Apache', product: 'HTTPD', versions: ['2.4.41', '2.4.52', '2.4.57'], server: 'Apache/{v} (Ubuntu)' },
  { vendor: 'F5', product: 'NGINX', versions: ['1.18.0', '1.22.1', '1.24.0'], server: 'nginx/{v}' },
  { vendor: 'Microsoft', product: 'IIS', versions: ['8.5', '10.0'], server: 'Microsoft-IIS/{v}' },
  { vendor: 'lighttpd', product: 'lighttpd', versions: ['1.4.59'], server: 'lighttpd/{v}' },
];
const COUNTRIES = [
  ['US', 'United States', 'Ashburn'], ['DE', 'Germany', 'Frankfurt am Main'], ['FR', 'France', 'Paris'],
  ['NL', 'Netherlands', 'Amsterdam'], ['JP', 'Japan', 'Tokyo'], ['BR', 'Brazil', 'São Paulo'], ['SG', 'Singapore', 'Singapore'],
];
const ASES = [
  [16509, 'AMAZON-02', 'Amazon.com, Inc.'], [15169, 'GOOGLE', 'Google LLC'], [13335, 'CLOUDFLARENET', 'Cloudflare, Inc.'],
  [14061, 'DIGITALOCEAN-ASN', 'DigitalOcean, LLC'], [24940, 'HETZNER-AS', 'Hetzner Online GmbH'], [16276, 'OVH', 'OVH SAS'],
];
const WORDS = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'stark', 'wayne', 'wonka', 'tyrell', 'cyberdyne', 'soylent', 'oscorp'];
const TITLES = ['Welcome to nginx!', 'Apache2 Ubuntu Default Page: It works', 'IIS Windows Server', 'Login', '403 Forbidden', '404 Not Found', 'Index of /'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

function ipOf(i: number): string {
  const n = (0x0a000000 + i * 7919) >>> 0;
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

function hex(r: () => number, len: number): string {
  let s = '';
  while (s.length < len) s += Math.floor(r() * 0x100000000).toString(16).padStart(8, '0');
  return s.slice(0, len);
}

function httpService(r: () => number, port: number, org: string, domain: string, t: string): Record<string, unknown> {
  const sw = pick(r, SOFTWARE);
  const version = pick(r, sw.versions);
  const server = sw.server.replace('{v}', version);
  const title = r() < 0.5 ? pick(r, TITLES) : `${org} — Home`;
  const body =
    `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>` +
    `<p>${org} serves customers from ${domain}. Contact support@${domain} for help.</p>` +
    `<footer>Copyright ${org} ${2015 + Math.floor(r() * 10)} · ${server}</footer></body></html>`;
  const tls = port === 443 || port === 8443;
  return {
    port,
    service_name: 'HTTP',
    extended_service_name: tls ? 'HTTPS' : 'HTTP',
    transport_protocol: 'TCP',
    observed_at: t,
    perspective_id: 'PERSPECTIVE_NTT',
    source_ip: '167.94.138.' + Math.floor(r() * 255),
    banner: `HTTP/1.1 200 OK\r\nServer: ${server}\r\nContent-Type: text/html\r\nContent-Length: ${body.length}`,
    software: [{ uniform_resource_identifier: `cpe:2.3:a:${sw.vendor.toLowerCase()}:${sw.product.toLowerCase()}:${version}:*:*:*:*:*:*:*`, part: 'a', vendor: sw.vendor, product: sw.product, version, source: 'OSI_APPLICATION_LAYER' }],
    http: {
      request: { method: 'GET', uri: `http://${domain}/`, headers: { User_Agent: ['Mozilla/5.0 (compatible; CensysInspect/1.1)'] } },
      response: {
        protocol: 'HTTP/1.1',
        status_code: 200,
        status_reason: 'OK',
        headers: { Server: [server], Content_Type: ['text/html'], Date: [t], Connection: ['keep-alive'] },
        html_title: title,
        body_size: body.length,
        body,
        body_hash: `sha1:${hex(r, 40)}`,
      },
      supports_http2: r() < 0.3,
    },
    ...(tls
      ? {
          tls: {
            version_selected: pick(r, ['TLSv1_2', 'TLSv1_3']),
            cipher_selected: 'TLS_AES_128_GCM_SHA256',
            certificates: {
              leaf_fp_sha_256: hex(r, 64),
              leaf_data: {
                subject_dn: `CN=${domain}`,
                issuer_dn: pick(r, ['C=US, O=Let\'s Encrypt, CN=R3', 'C=US, O=DigiCert Inc, CN=DigiCert TLS RSA SHA256 2020 CA1']),
                names: [domain, `www.${domain}`],
                pubkey_bit_size: 2048,
                pubkey_algorithm: 'RSA',
                fingerprint: hex(r, 64),
              },
            },
          },
        }
      : {}),
  };
}

export function realisticHost(i: number): { id: string; doc: Doc } {
  const r = rng(i + 1);
  const ip = ipOf(i);
  const org = `${pick(r, WORDS)} ${pick(r, WORDS)}`.replace(/^\w/, (c) => c.toUpperCase());
  const domain = `${org.toLowerCase().replace(/\s+/g, '-')}-${i % 997}.example.com`;
  const t = new Date(Date.UTC(2024, 0, 1) + Math.floor(r() * 180 * 86400000)).toISOString();
  const [cc, country, city] = pick(r, COUNTRIES) as string[];
  const [asn, asName, asDesc] = pick(r, ASES) as [number, string, string];
  const services: Record<string, unknown>[] = [];
  if (r() < 0.7) {
    services.push({
      port: 22,
      service_name: 'SSH',
      extended_service_name: 'SSH',
      transport_protocol: 'TCP',
      observed_at: t,
      banner: `SSH-2.0-OpenSSH_${pick(r, ['7.4', '8.2p1 Ubuntu-4ubuntu0.5', '8.9p1 Ubuntu-3', '9.3'])}`,
      software: [{ vendor: 'OpenBSD', product: 'OpenSSH', version: pick(r, ['7.4', '8.2', '8.9', '9.3']) }],
      ssh: { hassh_fingerprint: hex(r, 32), server_host_key: { fingerprint_sha256: hex(r, 64) } },
    });
  }
  if (r() < 0.8) services.push(httpService(r, 80, org, domain, t));
  if (r() < 0.6) services.push(httpService(r, 443, org, domain, t));
  if (r() < 0.2) services.push({ port: pick(r, [21, 25, 3306, 5432, 6379]), service_name: pick(r, ['FTP', 'SMTP', 'MYSQL', 'POSTGRES', 'REDIS']), transport_protocol: 'TCP', observed_at: t, banner: `220 ${domain} ready` });
  if (r() < 0.1) services.push({ port: 53, service_name: 'DNS', transport_protocol: 'UDP', observed_at: t });
  const doc: Doc = {
    ip,
    services,
    location: { continent: 'Europe', country, country_code: cc, city, postal_code: String(10000 + Math.floor(r() * 89999)), timezone: 'UTC', coordinates: { latitude: r() * 180 - 90, longitude: r() * 360 - 180 } },
    location_updated_at: t,
    autonomous_system: { asn, description: asDesc, bgp_prefix: `${ip.split('.').slice(0, 3).join('.')}.0/24`, name: asName, country_code: cc },
    autonomous_system_updated_at: t,
    dns: { names: [domain, `www.${domain}`], reverse_dns: { names: [`host-${i}.${asName.toLowerCase()}.net`] } },
    operating_system: { vendor: 'Canonical', product: 'Linux', version: '20.04', source: 'OSI_APPLICATION_LAYER' },
    labels: services.length > 2 ? ['remote-access', 'web'] : ['web'],
    last_updated_at: t,
  };
  return { id: ip, doc };
}
