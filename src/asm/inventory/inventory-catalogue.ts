/**
 * The inventory's field catalogue: one query language over every asset family of a workspace
 * (contract §2B.8). Host and certificate fields are the Search catalogues' own, prefixed
 * (`host.services.port`, `cert.parsed.issuer_dn`), so a field means the same thing in both APIs;
 * domains, web entities and storage buckets get small catalogues of what discovery knows about
 * them; `type`, `source`, `tags` and `risks` apply to every asset.
 */
import type { FieldCatalogue, FieldDef } from '../../model/field-def.ts';
import { catalogueFor } from '../../model/field-catalogue.ts';
import { makeCatalogue, makeField, type FieldSpec } from '../../model/make-catalogue.ts';

/** Prefix of each family's payload in an inventory document and in hits (`{type, host: {...}}`). */
export const FAMILY_PREFIX = {
  HOST: 'host',
  CERT: 'cert',
  DOMAIN: 'domain',
  WEB_ENTITY: 'web_entity',
  STORAGE_BUCKET: 'storage_bucket',
} as const;

export type InventoryHitType = keyof typeof FAMILY_PREFIX;

const COMMON: readonly FieldSpec[] = [
  { path: 'type', type: 'keyword' },
  { path: 'asset_id', type: 'keyword' },
  { path: 'source', type: 'keyword' },
  { path: 'is_seed', type: 'bool' },
  { path: 'associated_at', type: 'date' },
  { path: 'cloud', type: 'keyword' },
  { path: 'tags', type: 'keyword' },
  // `risks: <type id>` is the common question; the parts are there for finer ones.
  { path: 'risks', type: 'keyword', docPath: 'risks.type' },
  { path: 'risks.type', type: 'keyword' },
  { path: 'risks.name', type: 'text' },
  { path: 'risks.severity', type: 'keyword' },
  { path: 'risks.categories', type: 'keyword' },
];

const DOMAIN: readonly FieldSpec[] = [
  // `domain: foo.com` (the contract's example) names the domain itself.
  { path: 'domain', type: 'keyword', docPath: 'domain.name' },
  { path: 'domain.name', type: 'keyword' },
  { path: 'domain.is_subdomain', type: 'bool' },
  { path: 'domain.parent_domain', type: 'keyword' },
  { path: 'domain.subdomains', type: 'keyword' },
  { path: 'domain.resolved_ips', type: 'ip', fullText: false },
];

const WEB_ENTITY: readonly FieldSpec[] = [
  { path: 'web_entity.name', type: 'keyword' },
  { path: 'web_entity.hostname', type: 'keyword' },
  { path: 'web_entity.port', type: 'int' },
  { path: 'web_entity.scheme', type: 'keyword' },
  { path: 'web_entity.ips', type: 'ip', fullText: false },
];

const STORAGE_BUCKET: readonly FieldSpec[] = [
  { path: 'storage_bucket.url', type: 'keyword' },
  { path: 'storage_bucket.name', type: 'keyword' },
  { path: 'storage_bucket.provider', type: 'keyword' },
  { path: 'storage_bucket.account_id', type: 'keyword' },
  { path: 'storage_bucket.source', type: 'keyword' },
];

/** Own fields that hold lists (the fields endpoint reports them as repeated). */
const REPEATED = new Set(['tags', 'risks', 'risks.type', 'risks.name', 'risks.severity', 'risks.categories', 'domain.subdomains', 'domain.resolved_ips', 'web_entity.ips']);

const HOST_ROOT = 'host.services';

function prefixed(prefix: string, specs: readonly FieldSpec[]): FieldSpec[] {
  return specs.map((s) => ({ ...s, path: `${prefix}.${s.path}`, docPath: `${prefix}.${s.docPath ?? s.path}` }));
}

function specsOf(catalogue: FieldCatalogue): FieldSpec[] {
  return catalogue.all().map((f) => ({ path: f.path, type: f.type, docPath: f.docPath, fullText: f.fullText, aggregatable: f.aggregatable }));
}

function build(): FieldCatalogue {
  const hosts = catalogueFor('hosts');
  const certificates = catalogueFor('certificates');
  const specs: FieldSpec[] = [
    ...COMMON,
    ...prefixed('host', specsOf(hosts)),
    ...prefixed('cert', specsOf(certificates)),
    ...DOMAIN,
    ...WEB_ENTITY,
    ...STORAGE_BUCKET,
  ];
  const roots = [HOST_ROOT];
  // Pattern fields of hosts (HTTP headers by name) keep working behind the prefix.
  const cache = new Map<string, FieldDef | undefined>();
  const dynamic = (lowerPath: string): FieldDef | undefined => {
    if (!lowerPath.startsWith('host.')) return undefined;
    if (cache.has(lowerPath)) return cache.get(lowerPath);
    const inner = hosts.get(lowerPath.slice('host.'.length));
    const def = inner && makeField({ path: lowerPath, type: inner.type, docPath: `host.${inner.docPath}`, fullText: false, aggregatable: inner.aggregatable }, roots);
    if (cache.size >= 10_000) cache.clear();
    cache.set(lowerPath, def);
    return def;
  };
  // The catalogue's index name only shows in messages; inventory documents are not a Search index.
  return makeCatalogue('hosts', specs, roots, dynamic);
}

let built: FieldCatalogue | undefined;

/** The inventory catalogue (built on first use, then shared). */
export function inventoryCatalogue(): FieldCatalogue {
  return (built ??= build());
}

/** True when a field can hold several values in one asset (a list, or a per-service field). */
export function isRepeated(field: FieldDef): boolean {
  return REPEATED.has(field.path) || field.nested !== undefined || /(^|\.)(names|dns_names|ips|subdomains|addresses)(\.|$)/.test(field.path);
}
