/**
 * The asset families of contract §2B.3 as the API addresses them: where they live, how a path id
 * becomes an asset id, which errorCode says "not found", and how comments name their asset.
 */
import type { AssetType } from '../../model/asm-asset.ts';
import { fail, ok, type Result } from '../../lib/problem.ts';
import { ipText } from '../../lib/ip.ts';

export type FamilyName = 'hosts' | 'certificates' | 'domains' | 'subdomains' | 'web-entities' | 'object-storages';

export interface AssetFamily {
  readonly name: FamilyName;
  readonly type: AssetType;
  /** Path of the collection below the API base, e.g. `/v1/assets/hosts`. */
  readonly path: string;
  /** `type` of this family's comments (object storages say OBJECT_STORAGE). */
  readonly commentType: string;
  /** Key naming the asset in a comment: `ipAddress`, `sha256`, `domain`, ... */
  readonly commentIdKey: string;
  /** Array key of list responses. */
  readonly listKey: 'assets' | 'subdomains';
  /** The path id as an asset id, or the family's error for an id no asset can have. */
  parseId(raw: string): Result<string>;
  notFound(assetId: string): Result<never>;
}

const NAME = /^(?=.{1,253}$)(\*\.)?([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** A DNS name in the form assets are stored: lower case, no trailing dot. */
export function normaliseName(raw: string): string | undefined {
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  return NAME.test(name) ? name : undefined;
}

function notFoundAs(asmCode: number, what: string) {
  return (assetId: string): Result<never> => fail('not_found', `No ${what} ${JSON.stringify(assetId)} among this workspace's assets.`, { asmCode });
}

const hostNotFound = notFoundAs(10018, 'host');
const certNotFound = notFoundAs(10020, 'certificate');
const domainNotFound = notFoundAs(10019, 'domain');
const subdomainNotFound = notFoundAs(10057, 'subdomain');
const webEntityNotFound = notFoundAs(10086, 'web entity');
const storageNotFound = notFoundAs(10061, 'object storage');

/** `name:port` or `[v6]:port` with the name lower-cased and an IP in its normal form. */
export function parseWebEntityId(raw: string): { name: string; port: number } | undefined {
  const m = /^(?:\[([^\]]+)\]|(.+)):(\d{1,5})$/.exec(raw.trim());
  if (!m) return undefined;
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return undefined;
  const host = m[1] ?? m[2]!;
  const ip = ipText(host);
  if (ip) return { name: ip, port };
  if (m[1] !== undefined) return undefined;
  const name = normaliseName(host);
  return name ? { name, port } : undefined;
}

export function webEntityId(name: string, port: number): string {
  // Discovery names IPv6 entities without brackets; the port is always after the last colon.
  return `${name}:${port}`;
}

/** Bucket URLs as discovery stores them: scheme and host lower case, path kept. */
export function parseStorageId(raw: string): string | undefined {
  const text = raw.trim();
  if (text === '' || text.length > 2048 || /\s/.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (!['http:', 'https:', 's3:', 'gs:', 'az:'].includes(url.protocol) || url.host === '') return undefined;
  return text.replace(/^[a-z0-9+.-]+:\/\/[^/]+/i, (prefix) => prefix.toLowerCase());
}

export const FAMILIES: Readonly<Record<FamilyName, AssetFamily>> = {
  hosts: {
    name: 'hosts',
    type: 'HOST',
    path: '/v1/assets/hosts',
    commentType: 'HOST',
    commentIdKey: 'ipAddress',
    listKey: 'assets',
    parseId(raw) {
      const ip = ipText(raw);
      return ip ? ok(ip) : fail('invalid_ip', `${JSON.stringify(raw)} is not an IP address.`, { asmCode: 10021 });
    },
    notFound: hostNotFound,
  },
  certificates: {
    name: 'certificates',
    type: 'CERT',
    path: '/v1/assets/certificates',
    commentType: 'CERT',
    commentIdKey: 'sha256',
    listKey: 'assets',
    // No certificate has an id that is not a SHA-256, so such an id is simply not found.
    parseId: (raw) => (/^[0-9a-fA-F]{64}$/.test(raw.trim()) ? ok(raw.trim().toLowerCase()) : certNotFound(raw)),
    notFound: certNotFound,
  },
  domains: {
    name: 'domains',
    type: 'DOMAIN',
    path: '/v1/assets/domains',
    commentType: 'DOMAIN',
    commentIdKey: 'domain',
    listKey: 'assets',
    parseId: (raw) => {
      const name = normaliseName(raw);
      return name ? ok(name) : domainNotFound(raw);
    },
    notFound: domainNotFound,
  },
  subdomains: {
    name: 'subdomains',
    type: 'SUBDOMAIN',
    path: '/v1/assets/subdomains',
    commentType: 'SUBDOMAIN',
    commentIdKey: 'subdomain',
    listKey: 'subdomains',
    parseId: (raw) => {
      const name = normaliseName(raw);
      return name ? ok(name) : subdomainNotFound(raw);
    },
    notFound: subdomainNotFound,
  },
  'web-entities': {
    name: 'web-entities',
    type: 'WEB_ENTITY',
    path: '/v1/assets/web-entities',
    commentType: 'WEB_ENTITY',
    commentIdKey: 'webEntity',
    listKey: 'assets',
    parseId: (raw) => {
      const id = parseWebEntityId(raw);
      return id ? ok(webEntityId(id.name, id.port)) : webEntityNotFound(raw);
    },
    notFound: webEntityNotFound,
  },
  'object-storages': {
    name: 'object-storages',
    type: 'STORAGE_BUCKET',
    path: '/beta/assets/object-storages',
    commentType: 'OBJECT_STORAGE',
    commentIdKey: 'objectStorageName',
    listKey: 'assets',
    parseId: (raw) => {
      const id = parseStorageId(raw);
      return id
        ? ok(id)
        : fail('invalid_request', `${JSON.stringify(raw)} is not an object storage URL (https://, s3://, gs://; URL-encoded in the path).`, { asmCode: 10060 });
    },
    notFound: storageNotFound,
  },
};

/** The family whose assets have this type. */
export function familyOf(type: AssetType): AssetFamily {
  return Object.values(FAMILIES).find((f) => f.type === type)!;
}

/** Where an asset is served, for `refUrl`s: the API base (`https://host/api`) plus its path. */
export function assetUrl(baseUrl: string, type: AssetType, assetId: string): string {
  const family = familyOf(type);
  const id = type === 'STORAGE_BUCKET' ? encodeURIComponent(assetId) : assetId;
  return `${baseUrl}${family.path}/${id}`;
}
