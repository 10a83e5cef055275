/**
 * What discovery produces and every ASM use case reads: a workspace's assets with the trail that
 * ties each back to a seed, and the logbook events their changes write. The store keeps them
 * (AsmAssetRepository, AsmLogbookRepository in store/store.ts); presenters turn them into the
 * wire shapes of contract §2B.3/§2B.4.
 */

/** Asset families (contract §2B.3 `type` enum, plus web entities). */
export type AssetType = 'HOST' | 'CERT' | 'DOMAIN' | 'SUBDOMAIN' | 'WEB_ENTITY' | 'STORAGE_BUCKET';

export const ASSET_TYPES: readonly AssetType[] = ['HOST', 'CERT', 'DOMAIN', 'SUBDOMAIN', 'WEB_ENTITY', 'STORAGE_BUCKET'];

/** discoveryTrail step types (contract §2B.3). */
export type TrailStepType =
  | 'ASN'
  | 'CENSYS_HOST'
  | 'CENSYS_SCAN'
  | 'CERT_SHA_256'
  | 'CIDR'
  | 'CUSTOM'
  | 'DOMAIN_NAME'
  | 'IP_ADDRESS'
  | 'OBJECT_STORAGE'
  | 'WHOIS_ASN'
  | 'WHOIS_ENTITY'
  | 'WHOIS_NET';

/** One step of a discovery trail, seed first; the asset itself is not part of its trail. */
export interface TrailStep {
  readonly type: TrailStepType;
  /** Seed value or intermediate asset id (IP, domain, SHA-256, CIDR, decimal ASN). */
  readonly assetId: string;
  readonly isSeed: boolean;
}

/**
 * A discovered asset of one workspace. Identity is (workspaceId, type, assetId):
 * HOST → canonical IP; CERT → lower-case SHA-256; DOMAIN / SUBDOMAIN → lower-case name;
 * WEB_ENTITY → `name:port` (name is a host name or an IP); STORAGE_BUCKET → bucket URL.
 */
export interface Asset {
  readonly workspaceId: string;
  readonly type: AssetType;
  readonly assetId: string;
  /** True when the asset's value is itself a seed (an IP_ADDRESS or DOMAIN_NAME seed). */
  readonly isSeed: boolean;
  /** Where it came from: 'Seed' (directly a seed), 'CENSYS_SCAN' (discovered), 'CLOUD_CONNECTOR'. */
  readonly source: string;
  /** When discovery first associated it (kept across re-evaluations). */
  readonly associatedAt: string;
  /** When its row last changed. */
  readonly updatedAt: string;
  /** Shortest trail from a seed. */
  readonly trail: readonly TrailStep[];
  /** Cloud provider name (`Amazon AWS`, …) for hosts, else null; feeds /v1/clouds counts. */
  readonly cloud: string | null;
  /**
   * The facts discovery derived, per family, used by presenters and by logbook change detection:
   * HOST: `{ ports: [{port, transportProtocol, protocol, software: [uri...], certificates: [sha256...]}], names: [...] }`
   * CERT: `{ hosts: [{ip, port}], names: [...] }`; DOMAIN: `{ subdomains: [...] }`;
   * SUBDOMAIN: `{ domain, resolvedHosts: [ip...] }`; WEB_ENTITY: `{ name, port, hosts: [ip...], scheme }`;
   * STORAGE_BUCKET: `{ provider, accountId?, access? }`.
   */
  readonly data: Readonly<Record<string, unknown>>;
}

/** Logbook event types (contract §2B.4 client constants and spec additions). */
export type LogbookEventType =
  | 'CERT'
  | 'CERT_RISK'
  | 'DOMAIN'
  | 'DOMAIN_EXPIRATION_DATE'
  | 'DOMAIN_MAIL_EXCHANGE_SERVER'
  | 'DOMAIN_NAME_SERVER'
  | 'DOMAIN_REGISTRAR'
  | 'DOMAIN_RISK'
  | 'DOMAIN_SUBDOMAIN'
  | 'HOST'
  | 'HOST_CERT'
  | 'HOST_PORT'
  | 'HOST_PROTOCOL'
  | 'HOST_RISK'
  | 'HOST_SOFTWARE'
  | 'HOST_VULNERABILITY'
  | 'HOST_CDN'
  | 'OBJECT_STORAGE'
  | 'RISK_USER_CONFIG'
  | 'SUBDOMAIN'
  | 'WEB_ENTITY';

/** ASSOCIATE/DISASSOCIATE for an asset entering/leaving the workspace; ADD/CHANGE/REMOVE for its parts. */
export type LogbookOperation = 'ASSOCIATE' | 'DISASSOCIATE' | 'ADD' | 'CHANGE' | 'REMOVE';

export interface NewLogbookEvent {
  readonly type: LogbookEventType;
  readonly operation: LogbookOperation;
  /** e.g. `{ipAddress}`, `{sha256}`, `{domain}`; HOST_PORT may add `hostname`. */
  readonly entity: Readonly<Record<string, unknown>>;
  /** Change details, e.g. `{port}` for HOST_PORT; absent for association events. */
  readonly data?: Readonly<Record<string, unknown>>;
  readonly timestamp: string;
}

/** A stored event: ids are monotonic per instance and never reused. */
export interface LogbookEvent extends NewLogbookEvent {
  readonly id: number;
  readonly workspaceId: string;
}
