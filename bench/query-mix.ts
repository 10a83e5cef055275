/**
 * The timed query mix and aggregations. Each query is written once in the Censys language (for
 * Periscope); the baselines translate the same `QueryName` into their own SQL, using the
 * corpus-dependent parameters picked in `pickParams`.
 */
export type QueryName = 'term' | 'boolean' | 'negation' | 'same-service' | 'cidr' | 'range' | 'wildcard' | 'banner-phrase' | 'full-text';

export interface QueryParams {
  /** A /8 populated by the corpus, e.g. `104.0.0.0/8`. */
  readonly cidr: string;
  /** `ipKey` bounds of the /8 (inclusive). */
  readonly cidrLo: string;
  readonly cidrHi: string;
  /** A common demo domain: `dns.names: *.<domain>`. */
  readonly domain: string;
  /** A phrase of demo banners, matched as a token phrase (lower-cased substring in SQL). */
  readonly phrase: string;
  /** A bare full-text term. */
  readonly term: string;
}

export interface BenchQuery {
  readonly name: QueryName;
  readonly censys: string;
}

export function queryMix(p: QueryParams): BenchQuery[] {
  return [
    { name: 'term', censys: 'services.service_name: SSH' },
    { name: 'boolean', censys: 'services.service_name: HTTP and location.country: Germany' },
    { name: 'negation', censys: 'services.service_name: HTTP and not services.port: 80' },
    { name: 'same-service', censys: 'services: (service_name: HTTP and port: 8080)' },
    { name: 'cidr', censys: `ip: ${p.cidr}` },
    { name: 'range', censys: 'services.port: [8000 TO 9000]' },
    { name: 'wildcard', censys: `dns.names: *.${p.domain}` },
    { name: 'banner-phrase', censys: `services.banner: "${p.phrase}"` },
    { name: 'full-text', censys: p.term },
  ];
}

export type AggField = 'services.port' | 'location.country' | 'autonomous_system.asn' | 'services.software.product';

export interface AggSpec {
  /** e.g. `services.port` or `services.port | HTTP`. */
  readonly name: string;
  readonly field: AggField;
  /** The Censys filter (`*` for the whole corpus). */
  readonly censys: string;
  readonly filtered: boolean;
}

const AGG_FIELDS: readonly AggField[] = ['services.port', 'location.country', 'autonomous_system.asn', 'services.software.product'];
export const AGG_FILTER = 'services.service_name: HTTP';

export function aggregations(): AggSpec[] {
  return [
    ...AGG_FIELDS.map((field) => ({ name: field, field, censys: '*', filtered: false })),
    ...AGG_FIELDS.map((field) => ({ name: `${field} | HTTP`, field, censys: AGG_FILTER, filtered: true })),
  ];
}

export const TOP_BUCKETS = 50;
export const PAGE = 100;

export interface SearchAnswer {
  readonly count: number;
  readonly ids: readonly string[];
}

export interface Bucket {
  readonly key: string;
  readonly count: number;
}

/** SQL string literal (the bench's own constants only, never user input). */
export const lit = (s: string): string => `'${s.replaceAll("'", "''")}'`;
