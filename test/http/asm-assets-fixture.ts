/**
 * A small crafted attack surface for the asset API tests: host and certificate documents put
 * straight into the store, and asset rows as discovery would write them, so every expected value
 * is known. Used by the HTTP tests and the 2.1.9 compat test.
 */
import type { Asset, AssetType, TrailStep } from '../../src/model/asm-asset.ts';
import type { Store } from '../../src/store/index.ts';

export const T0 = '2026-10-01T00:00:00.000Z';
export const SHA_A = 'a1'.repeat(32);
export const SHA_B = 'b2'.repeat(32);
export const HOST_A = '203.0.113.10';
export const HOST_B = '203.0.113.11';
/** Hosts 198.51.100.1 … 198.51.100.N without documents (shown from the row's facts). */
export const BULK_HOSTS = 23;
export const BUCKET = 'https://periscope-fixture.s3.amazonaws.com/';

export const HOST_A_DOC = {
  ip: HOST_A,
  dns: {
    names: ['www.example.com'],
    records: { 'www.example.com': { record_type: 'A', resolved_at: '2026-10-20T10:00:00.000Z' } },
    reverse_dns: { names: ['host-a.example.net'], resolved_at: '2026-10-21T10:00:00.000Z' },
  },
  autonomous_system: { asn: 64500, name: 'EXAMPLE-AS', bgp_prefix: '203.0.113.0/24' },
  location: { country_code: 'US', province: 'Ohio', coordinates: { latitude: 40.1, longitude: -83.2 } },
  labels: ['remote-access'],
  services: [
    {
      port: 443,
      service_name: 'HTTP',
      extended_service_name: 'HTTPS',
      transport_protocol: 'TCP',
      observed_at: '2026-10-25T08:00:00.000Z',
      banner: 'HTTP/1.1 200 OK\r\nServer: nginx/1.18.0\r\n',
      certificate: SHA_A,
      software: [
        { uniform_resource_identifier: 'cpe:2.3:a:f5:nginx:1.18.0:*:*:*:*:*:*:*', part: 'a', vendor: 'f5', product: 'nginx', version: '1.18.0' },
      ],
      http: { response: { status_code: 200, html_title: 'Example', headers: { Server: ['nginx/1.18.0'] } } },
    },
    {
      port: 22,
      service_name: 'SSH',
      extended_service_name: 'SSH',
      transport_protocol: 'TCP',
      observed_at: '2026-10-25T08:00:00.000Z',
      software: [
        { uniform_resource_identifier: 'cpe:2.3:a:openbsd:openssh:9.6:*:*:*:*:*:*:*', part: 'a', vendor: 'openbsd', product: 'openssh', version: '9.6' },
      ],
    },
  ],
};

export const HOST_B_DOC = {
  ip: HOST_B,
  services: [{ port: 443, service_name: 'HTTP', extended_service_name: 'HTTPS', transport_protocol: 'TCP', observed_at: '2026-10-24T08:00:00.000Z' }],
};

export const CERT_A_DOC = {
  fingerprint_sha256: SHA_A,
  names: ['example.com', 'www.example.com'],
  labels: ['leaf', 'trusted', 'unexpired'],
  parsed: {
    issuer_dn: 'C=US, O=Example Trust, CN=Example CA 1',
    subject_dn: 'CN=www.example.com',
    issuer: { organization: ['Example Trust'], common_name: ['Example CA 1'] },
    validity_period: { not_before: '2026-01-01T00:00:00Z', not_after: '2030-01-01T00:00:00Z' },
    subject_key_info: { key_algorithm: { name: 'RSA' }, rsa: { length: 2048, exponent: 65537 } },
    signature: { self_signed: false },
  },
  validation: { nss: { is_valid: true, has_trusted_path: true } },
};

const fromDomain: TrailStep[] = [{ type: 'DOMAIN_NAME', assetId: 'example.com', isSeed: true }];
const fromCidr: TrailStep[] = [{ type: 'CIDR', assetId: '198.51.100.0/24', isSeed: true }];

export function asset(workspaceId: string, type: AssetType, assetId: string, data: Record<string, unknown>, extra: Partial<Asset> = {}): Asset {
  return {
    workspaceId,
    type,
    assetId,
    isSeed: false,
    source: 'CENSYS_SCAN',
    associatedAt: T0,
    updatedAt: T0,
    trail: fromDomain,
    cloud: null,
    data,
    ...extra,
  };
}

export function fixtureAssets(ws: string): Asset[] {
  const bulk = Array.from({ length: BULK_HOSTS }, (_, i) =>
    asset(ws, 'HOST', `198.51.100.${i + 1}`, { ports: [{ port: 80, transportProtocol: 'TCP', protocol: 'HTTP', software: [], certificates: [] }], names: [] }, { trail: fromCidr, cloud: i % 2 ? 'Amazon AWS' : null }),
  );
  return [
    asset(ws, 'HOST', HOST_A, { ports: [], names: ['www.example.com'] }, { cloud: 'Amazon AWS', trail: [...fromDomain, { type: 'DOMAIN_NAME', assetId: 'www.example.com', isSeed: false }] }),
    asset(ws, 'HOST', HOST_B, { ports: [], names: [] }),
    ...bulk,
    asset(ws, 'CERT', SHA_A, { hosts: [{ ip: HOST_A, port: 443 }], names: ['example.com', 'www.example.com'] }),
    asset(ws, 'CERT', SHA_B, { hosts: [], names: ['old.example.com'] }),
    asset(ws, 'DOMAIN', 'example.com', { subdomains: ['www.example.com', 'api.example.com'] }, { isSeed: true, source: 'Seed', trail: [] }),
    asset(ws, 'DOMAIN', 'example.org', { subdomains: [] }, { isSeed: true, source: 'Seed', trail: [] }),
    asset(ws, 'SUBDOMAIN', 'www.example.com', { domain: 'example.com', resolvedHosts: [HOST_A] }),
    asset(ws, 'SUBDOMAIN', 'api.example.com', { domain: 'example.com', resolvedHosts: [] }),
    asset(ws, 'SUBDOMAIN', 'mail.example.org', { domain: 'example.org', resolvedHosts: [] }),
    asset(ws, 'WEB_ENTITY', 'www.example.com:443', { name: 'www.example.com', port: 443, scheme: 'https', hosts: [HOST_A, HOST_B] }),
    asset(ws, 'STORAGE_BUCKET', BUCKET, { provider: 'aws', accountId: '123456789012', access: { readableObjects: true, writableObjects: false } }),
  ];
}

/** Documents first (as ingest would), then the asset rows. */
export async function loadFixture(store: Store, workspaceId: string): Promise<Asset[]> {
  await store.documents.put('hosts', HOST_A, HOST_A_DOC, '2026-10-25T08:00:00.000Z');
  await store.documents.put('hosts', HOST_B, HOST_B_DOC, '2026-10-24T08:00:00.000Z');
  await store.documents.put('certificates', SHA_A, CERT_A_DOC, '2026-10-25T08:00:00.000Z');
  const assets = fixtureAssets(workspaceId);
  await store.asmAssets.apply(workspaceId, { upsert: assets, remove: [] }, []);
  return assets;
}
