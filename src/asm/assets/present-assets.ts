/**
 * Assets as the ASM API shows them (contract §2B.3): the asset row gives identity, trail and what
 * discovery derived; the current host and certificate documents give the detail (names,
 * protocols, software, location, certificate facts). A row whose document has gone still shows,
 * from the facts the row kept.
 */
import type { Asset, AssetType, TrailStep } from '../../model/asm-asset.ts';
import type { AsmTag } from '../../store/store.ts';
import { assetUrl } from './asset-families.ts';
import { parseCpe } from './cpe.ts';
import { isEndOfLife } from './software-eol.ts';
import type { AssetRiskView } from './asset-risks.ts';

type Json = Record<string, unknown>;

/** Everything a page of assets is presented with, loaded once per page (load-present-context.ts). */
export interface PresentContext {
  /** The API base as the caller reached it, e.g. `https://periscope.example/api`. */
  readonly baseUrl: string;
  /** The collection URL the request used (comments' refUrl hangs below it). */
  readonly collectionUrl: string;
  readonly now: Date;
  readonly includeTrail: boolean;
  readonly tags: ReadonlyMap<string, readonly AsmTag[]>;
  readonly commentCounts: ReadonlyMap<string, number>;
  readonly risks: ReadonlyMap<string, readonly AssetRiskView[]>;
  /** Current host documents by IP. */
  readonly hostDocs: ReadonlyMap<string, Json>;
  /** Current certificate documents by SHA-256. */
  readonly certDocs: ReadonlyMap<string, Json>;
  /** The workspace's domain seeds, for certificate ownership. */
  readonly seedDomains: readonly string[];
}

const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const strings = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');

function at(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const key of path.split('.')) {
    const o = obj(cur);
    if (!o) return undefined;
    cur = o[key];
  }
  return cur;
}

const TRAIL_FAMILY: Partial<Record<TrailStep['type'], AssetType>> = {
  IP_ADDRESS: 'HOST',
  CENSYS_HOST: 'HOST',
  DOMAIN_NAME: 'DOMAIN',
  CERT_SHA_256: 'CERT',
  OBJECT_STORAGE: 'STORAGE_BUCKET',
};

export function presentTrail(trail: readonly TrailStep[], baseUrl: string): Json[] {
  return trail.map((step) => {
    const family = TRAIL_FAMILY[step.type];
    return { type: step.type, assetId: step.assetId, isSeed: step.isSeed, refUrl: family ? assetUrl(baseUrl, family, step.assetId) : null };
  });
}

function commentsRef(asset: Asset, pc: PresentContext): Json {
  const id = asset.type === 'STORAGE_BUCKET' ? encodeURIComponent(asset.assetId) : asset.assetId;
  return { totalComments: pc.commentCounts.get(asset.assetId) ?? 0, refUrl: `${pc.collectionUrl}/${id}/comments` };
}

const nameTags = (asset: Asset, pc: PresentContext) => (pc.tags.get(asset.assetId) ?? []).map((t) => ({ name: t.label, color: t.color }));
const labelTags = (asset: Asset, pc: PresentContext) => (pc.tags.get(asset.assetId) ?? []).map((t) => ({ label: t.label, tagId: t.tagId, color: t.color }));

/**
 * The keys the families share, in the spec's order, around the family's `data`. The spec's
 * schemas differ in which of `source` and `associatedAt` a family shows (certificates neither,
 * domains no `associatedAt`, bucket lists no `source`); each family passes what its schema has.
 */
function common(asset: Asset, pc: PresentContext, data: Json, shows: { source: boolean; associatedAt: boolean; trail?: boolean }): Json {
  return {
    assetId: asset.assetId,
    type: asset.type,
    isSeed: asset.isSeed,
    ...(shows.source ? { source: asset.source } : {}),
    ...(shows.associatedAt ? { associatedAt: asset.associatedAt } : {}),
    tags: nameTags(asset, pc),
    comments: commentsRef(asset, pc),
    risks: [...(pc.risks.get(asset.assetId) ?? [])],
    data,
    ...(pc.includeTrail || shows.trail ? { discoveryTrail: presentTrail(asset.trail, pc.baseUrl) } : {}),
  };
}

// ---------------------------------------------------------------- hosts

function software(entry: unknown, now: Date): Json | undefined {
  const e = obj(entry);
  if (!e) return undefined;
  const uri = str(e.uniform_resource_identifier) ?? str(e.cpe) ?? '';
  // The URI is read only for what the entry does not spell out (discovery keeps URIs alone).
  const spelled = str(e.product) !== undefined && str(e.vendor) !== undefined && str(e.part) !== undefined;
  const cpe = spelled ? {} : parseCpe(uri);
  const product = str(e.product) ?? cpe.product;
  if (!product) return undefined;
  const vendor = str(e.vendor) ?? cpe.vendor;
  const version = str(e.version) ?? cpe.version;
  const part = str(e.part) ?? cpe.part ?? '';
  return {
    name: product,
    version: version ?? '',
    uri,
    part: ['a', 'h', 'o'].includes(part) ? part : '',
    vendor: vendor ?? '',
    product,
    isEol: isEndOfLife(vendor, product, version, now),
  };
}

function banner64(service: Json): string | null {
  const hex = str(service.banner_hex);
  if (hex && /^([0-9a-f]{2})+$/i.test(hex)) return Buffer.from(hex, 'hex').toString('base64');
  const banner = str(service.banner);
  return banner ? Buffer.from(banner, 'utf8').toString('base64') : null;
}

function certRefs(shas: readonly string[], baseUrl: string): Json[] {
  return [...new Set(shas)].map((sha256) => ({ sha256, refUrl: assetUrl(baseUrl, 'CERT', sha256) }));
}

function protocolsFromDocument(doc: Json, pc: PresentContext): Json[] {
  return arr(doc.services)
    .map(obj)
    .filter((s): s is Json => s !== undefined && num(s.port) !== undefined)
    .map((s) => {
      const sha = str(s.certificate) ?? str(at(s, 'tls.certificates.leaf_fp_sha_256'));
      return {
        transportProtocol: str(s.transport_protocol) ?? 'TCP',
        port: num(s.port)!,
        protocol: str(s.extended_service_name) ?? str(s.service_name) ?? 'UNKNOWN',
        base64EncodedBanner: banner64(s),
        software: arr(s.software)
          .map((e) => software(e, pc.now))
          .filter((x): x is Json => x !== undefined),
        certificates: certRefs(sha ? [sha.toLowerCase()] : [], pc.baseUrl),
      };
    })
    .sort((a, b) => a.port - b.port || a.transportProtocol.localeCompare(b.transportProtocol));
}

/** Ports as discovery summarised them, when the host document is gone. */
function protocolsFromFacts(asset: Asset, pc: PresentContext): Json[] {
  return arr(asset.data.ports)
    .map(obj)
    .filter((p): p is Json => p !== undefined && num(p.port) !== undefined)
    .map((p) => ({
      transportProtocol: str(p.transportProtocol) ?? 'TCP',
      port: num(p.port)!,
      protocol: str(p.protocol) ?? 'UNKNOWN',
      base64EncodedBanner: null,
      software: strings(p.software)
        .map((uri) => software({ uniform_resource_identifier: uri }, pc.now))
        .filter((x): x is Json => x !== undefined),
      certificates: certRefs(strings(p.certificates), pc.baseUrl),
    }));
}

/** When `name` last resolved to the host (names contain dots, so `records` is indexed directly). */
function recordResolvedAt(doc: Json | undefined, name: string): string | undefined {
  return str(obj(obj(at(doc, 'dns.records'))?.[name])?.resolved_at);
}

function resolvedAtOf(doc: Json | undefined, name: string, fallback: string): string {
  return recordResolvedAt(doc, name) ?? str(at(doc, 'dns.reverse_dns.resolved_at')) ?? fallback;
}

export function hostData(asset: Asset, pc: PresentContext): Json {
  const doc = pc.hostDocs.get(asset.assetId);
  const forward = doc ? strings(at(doc, 'dns.names')) : strings(asset.data.names);
  const reverse = doc ? strings(at(doc, 'dns.reverse_dns.names')) : [];
  const reverseAt = str(at(doc, 'dns.reverse_dns.resolved_at')) ?? asset.updatedAt;
  const location = obj(doc?.location);
  return {
    ipAddress: asset.assetId,
    names: {
      forwardDns: forward.map((name) => ({ name, resolvedAt: recordResolvedAt(doc, name) ?? asset.updatedAt })),
      reverseDns: reverse.map((name) => ({ name, resolvedAt: reverseAt })),
    },
    protocols: doc ? protocolsFromDocument(doc, pc) : protocolsFromFacts(asset, pc),
    asn: num(at(doc, 'autonomous_system.asn')) ?? null,
    cloud: asset.cloud ?? str(at(doc, 'cloud.provider')) ?? null,
    location: {
      countryCode: str(location?.country_code) ?? null,
      province: str(location?.province) ?? null,
      latitude: num(at(location, 'coordinates.latitude')) ?? null,
      longitude: num(at(location, 'coordinates.longitude')) ?? null,
    },
    cdn: strings(doc?.cdn),
    classifications: strings(doc?.labels),
  };
}

export function presentHost(asset: Asset, pc: PresentContext): Json {
  return common(asset, pc, hostData(asset, pc), { source: true, associatedAt: true });
}

// ---------------------------------------------------------------- certificates

/** A stable integer for a certificate: its first 48 bits (exact as a JSON number). */
export function certId(sha256: string): number {
  return parseInt(sha256.slice(0, 12), 16);
}

function trusted(doc: Json | undefined, store: string): boolean | undefined {
  const v = obj(at(doc, `validation.${store}`));
  if (!v) return undefined;
  return v.is_valid === true || (v.is_valid === undefined && v.has_trusted_path === true);
}

/** A name is owned when it is a seed domain or under one. */
export function ownedBy(names: readonly string[], seedDomains: readonly string[]): boolean {
  return names.some((n) => {
    const name = n.toLowerCase().replace(/^\*\./, '');
    return seedDomains.some((d) => name === d || name.endsWith(`.${d}`));
  });
}

export function certData(asset: Asset, pc: PresentContext): Json {
  const doc = pc.certDocs.get(asset.assetId);
  const names = doc ? strings(doc.names) : strings(asset.data.names);
  const hosts = arr(asset.data.hosts)
    .map(obj)
    .filter((h): h is Json => h !== undefined && str(h.ip) !== undefined);
  const notAfter = str(at(doc, 'parsed.validity_period.not_after'));
  const labels = strings(doc?.labels);
  const nss = trusted(doc, 'nss');
  const expired = notAfter !== undefined && Date.parse(notAfter) < pc.now.getTime();
  const keyAlgorithm = str(at(doc, 'parsed.subject_key_info.key_algorithm.name')) ?? '';
  const exponent = at(doc, 'parsed.subject_key_info.rsa.exponent');
  return {
    certId: certId(asset.assetId),
    sha256: asset.assetId,
    isInUse: hosts.length > 0,
    ownershipStatus: ownedBy(names, pc.seedDomains) ? 'OWNED_BY' : 'UNKNOWN',
    isValid: !expired && (nss ?? labels.includes('trusted')),
    isSelfSigned: at(doc, 'parsed.signature.self_signed') === true || labels.includes('self-signed'),
    issuerName:
      strings(at(doc, 'parsed.issuer.organization'))[0] ?? strings(at(doc, 'parsed.issuer.common_name'))[0] ?? str(at(doc, 'parsed.issuer_dn')) ?? '',
    hostsPresentingCert: hosts.map((h) => {
      const ip = str(h.ip)!;
      const port = num(h.port) ?? 443;
      const service = arr(pc.hostDocs.get(ip)?.services)
        .map(obj)
        .find((s) => s && num(s.port) === port);
      return { assetId: ip, port, refUrl: assetUrl(pc.baseUrl, 'HOST', ip), lastSeenAt: str(service?.observed_at) ?? asset.updatedAt };
    }),
    expirationDate: notAfter ?? '',
    namesListedOnCert: names,
    publicKey: {
      algorithmName: keyAlgorithm,
      length: num(at(doc, 'parsed.subject_key_info.rsa.length')) ?? num(at(doc, 'parsed.subject_key_info.ecdsa.length')) ?? 0,
      exponent: typeof exponent === 'number' ? exponent : 0,
      curve: str(at(doc, 'parsed.subject_key_info.ecdsa.curve')) ?? null,
    },
    browserTrust: {
      // Periscope validates against one root store (Mozilla's); the others follow it unless known.
      apple: trusted(doc, 'apple') ?? nss ?? false,
      google: trusted(doc, 'chrome') ?? nss ?? false,
      microsoft: trusted(doc, 'microsoft') ?? nss ?? false,
      publicKeyType: keyAlgorithm,
      subjectDn: str(at(doc, 'parsed.subject_dn')) ?? '',
    },
  };
}

export function presentCertificate(asset: Asset, pc: PresentContext): Json {
  return common(asset, pc, certData(asset, pc), { source: false, associatedAt: false });
}

// ---------------------------------------------------------------- domains and subdomains

export function presentDomain(asset: Asset, pc: PresentContext): Json {
  const registration = obj(asset.data.registration) ?? {};
  const data = {
    domain: asset.assetId,
    nameServers: strings(asset.data.nameServers),
    mailServers: strings(asset.data.mailServers),
    registration: {
      ...(str(registration.registrarName) ? { registrarName: registration.registrarName } : {}),
      ...(str(registration.expirationDate) ? { expirationDate: registration.expirationDate } : {}),
    },
  };
  return common(asset, pc, data, { source: true, associatedAt: false });
}

/** The domain a subdomain belongs to: as discovery recorded it, else its last two labels. */
export function domainOfSubdomain(asset: Asset): string {
  return str(asset.data.domain) ?? asset.assetId.split('.').slice(-2).join('.');
}

function resolvedHosts(asset: Asset, pc: PresentContext): Json[] {
  return strings(asset.data.resolvedHosts).map((ip) => ({
    ipAddress: ip,
    resolvedAt: resolvedAtOf(pc.hostDocs.get(ip), asset.assetId, asset.updatedAt),
    refUrl: assetUrl(pc.baseUrl, 'HOST', ip),
  }));
}

/** A subdomain in a list (`subdomains` key): its own, smaller shape. */
export function presentSubdomainItem(asset: Asset, pc: PresentContext): Json {
  return {
    subdomain: asset.assetId,
    resolvedHosts: resolvedHosts(asset, pc),
    tags: labelTags(asset, pc),
    ...(pc.includeTrail ? { discoveryTrail: presentTrail(asset.trail, pc.baseUrl) } : {}),
  };
}

export function presentSubdomain(asset: Asset, pc: PresentContext): Json {
  return {
    data: { domain: domainOfSubdomain(asset), subdomain: asset.assetId, resolvedHosts: resolvedHosts(asset, pc) },
    comments: commentsRef(asset, pc),
    associatedAt: asset.associatedAt,
    type: asset.type,
    assetId: asset.assetId,
    isSeed: asset.isSeed,
    tags: nameTags(asset, pc),
    discoveryTrail: presentTrail(asset.trail, pc.baseUrl),
  };
}

// ---------------------------------------------------------------- web entities

export function webEntityHosts(asset: Asset): string[] {
  return strings(asset.data.hosts);
}

export function presentWebEntity(asset: Asset, pc: PresentContext): Json {
  const port = num(asset.data.port) ?? Number(asset.assetId.slice(asset.assetId.lastIndexOf(':') + 1));
  const name = str(asset.data.name) ?? asset.assetId.slice(0, asset.assetId.lastIndexOf(':')).replace(/^\[|\]$/g, '');
  return common(
    asset,
    pc,
    {
      name,
      port,
      scheme: str(asset.data.scheme) ?? (port === 443 ? 'https' : 'http'),
      hosts: webEntityHosts(asset).map((ip) => ({ ipAddress: ip, refUrl: assetUrl(pc.baseUrl, 'HOST', ip) })),
    },
    // No schema in the spec: every key, and the trail, as a single asset shows it.
    { source: true, associatedAt: true, trail: true },
  );
}

/** One host serving a web entity, from the host document's service on that port. */
export function presentInstance(asset: Asset, ip: string, pc: PresentContext): Json {
  const port = num(asset.data.port) ?? Number(asset.assetId.slice(asset.assetId.lastIndexOf(':') + 1));
  const name = str(asset.data.name) ?? asset.assetId.slice(0, asset.assetId.lastIndexOf(':'));
  const service = arr(pc.hostDocs.get(ip)?.services)
    .map(obj)
    .find((s) => s && num(s.port) === port);
  const scheme = str(asset.data.scheme) ?? (str(service?.extended_service_name) === 'HTTPS' || port === 443 ? 'https' : 'http');
  const headers = obj(at(service, 'http.response.headers'));
  return {
    instanceId: `${asset.assetId}/${ip}`,
    ipAddress: ip,
    port,
    scheme,
    url: `${scheme}://${name.includes(':') ? `[${name}]` : name}:${port}/`,
    hostRefUrl: assetUrl(pc.baseUrl, 'HOST', ip),
    lastSeenAt: str(service?.observed_at) ?? asset.updatedAt,
    http: service
      ? {
          statusCode: num(at(service, 'http.response.status_code')) ?? null,
          title: str(at(service, 'http.response.html_title')) ?? null,
          server: strings(headers?.Server)[0] ?? null,
        }
      : null,
  };
}

// ---------------------------------------------------------------- object storages

function bool(v: unknown): boolean | null {
  return typeof v === 'boolean' ? v : null;
}

export function presentStorageItem(asset: Asset, pc: PresentContext): Json {
  return common(asset, pc, { accountId: str(asset.data.accountId) ?? '' }, { source: false, associatedAt: true });
}

export function presentStorage(asset: Asset, pc: PresentContext): Json {
  const access = obj(asset.data.access) ?? {};
  return {
    assetId: asset.assetId,
    type: asset.type,
    isSeed: asset.isSeed,
    source: asset.source === 'CLOUD_CONNECTOR' ? 'CLOUD_CONNECTOR' : 'CENSYS_SCAN',
    associatedAt: asset.associatedAt,
    lastScannedAt: asset.updatedAt,
    access: {
      editableSettings: bool(access.editableSettings ?? access.editable),
      readableObjects: bool(access.readableObjects ?? access.readable ?? access.public),
      writableObjects: bool(access.writableObjects ?? access.writable),
    },
    data: { accountId: str(asset.data.accountId) ?? '' },
    nameStems: {},
    tags: labelTags(asset, pc),
    comments: commentsRef(asset, pc),
    risks: [...(pc.risks.get(asset.assetId) ?? [])],
    discoveryTrail: presentTrail(asset.trail, pc.baseUrl),
  };
}
