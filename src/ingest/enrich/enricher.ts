/**
 * ASN, geo and cloud enrichment together, loaded lazily once per process: the AS country comes
 * from the geo database at the start of the announced range, so both answers agree with the data.
 * Every source defaults to the bundled packages; operators can point at newer files.
 */
import { AsnLookup, type AutonomousSystem, type SourceInfo } from './asn-lookup.ts';
import { GeoLookup, countryLocation, type HostLocation } from './geo-lookup.ts';
import { CityLookup, type CityAnswer } from './city-lookup.ts';
import { CloudRanges, type CloudInfo } from './cloud-ranges.ts';
import { CLOUD_ASN_TABLE_DATE, cloudAsnCount, cloudProviderOfAsn } from './cloud-providers.ts';
import type { EnrichSource } from './enrich-source.ts';
import { isoTime } from '../../lib/time.ts';

export interface Enrichment {
  autonomous_system?: AutonomousSystem;
  location?: HostLocation;
  /** The cloud provider hosting the address (from range files, else from the AS number). */
  cloud?: CloudInfo;
}

/** Operator-supplied files; each absent one falls back to the bundled data (city and ranges: none). */
export interface EnrichFiles {
  /** A folder shaped like @ip-location-db/asn, or one CSV in its row shape. */
  readonly asnDb?: string;
  /** An mmdb with country records (ip-location-db flat or MaxMind nested). */
  readonly countryDb?: string;
  /** An mmdb with city records (GeoLite2-City or ip-location-db city). */
  readonly cityDb?: string;
  /** A folder of the providers' published range files. */
  readonly cloudRangesDir?: string;
}

/** City fields on top of the country, keys in the Censys order. */
function withCity(code: string | undefined, c: CityAnswer | undefined): HostLocation | undefined {
  if (!c) return code ? countryLocation(code) : undefined;
  // A city database geolocates; its country must agree with its city, so it wins over the
  // registration country, which stays as `registered_country`.
  const cc = c.country_code ?? code;
  if (!cc) return undefined;
  const base = countryLocation(cc);
  const reg = countryLocation(c.registered_country_code ?? code ?? cc);
  const ordered: HostLocation = {
    ...(base.continent ? { continent: base.continent } : {}),
    ...(base.country ? { country: base.country } : {}),
    country_code: base.country_code,
  };
  if (c.city) ordered.city = c.city;
  if (c.province) ordered.province = c.province;
  if (c.postal_code) ordered.postal_code = c.postal_code;
  if (c.timezone) ordered.timezone = c.timezone;
  if (c.coordinates) ordered.coordinates = c.coordinates;
  if (reg.registered_country) ordered.registered_country = reg.registered_country;
  ordered.registered_country_code = reg.registered_country_code;
  return ordered;
}

export class Enricher {
  readonly asn: AsnLookup;
  readonly geo: GeoLookup;
  readonly city?: CityLookup;
  readonly cloudRanges?: CloudRanges;
  private loadMs?: number;
  private readonly createdAt = isoTime(Date.now());

  constructor(options: { asn?: AsnLookup; geo?: GeoLookup; city?: CityLookup; cloudRanges?: CloudRanges } = {}) {
    this.geo = options.geo ?? new GeoLookup();
    this.asn = options.asn ?? new AsnLookup();
    this.city = options.city;
    this.cloudRanges = options.cloudRanges;
    this.asn.setCountrySource((ip) => this.geo.countryCode(ip));
  }

  /** An enricher over the operator's files, the bundled data standing in for any not given. */
  static fromFiles(files: EnrichFiles = {}): Enricher {
    return new Enricher({
      ...(files.asnDb ? { asn: AsnLookup.at(files.asnDb) } : {}),
      ...(files.countryDb ? { geo: new GeoLookup({ file: files.countryDb }) } : {}),
      ...(files.cityDb ? { city: new CityLookup(files.cityDb) } : {}),
      ...(files.cloudRangesDir ? { cloudRanges: new CloudRanges(files.cloudRangesDir) } : {}),
    });
  }

  /** Loads every source now; returns the time it took in milliseconds. */
  load(): number {
    if (this.loadMs === undefined) {
      const t0 = performance.now();
      this.geo.load();
      this.asn.load();
      this.city?.load();
      this.cloudRanges?.load();
      this.loadMs = performance.now() - t0;
    }
    return this.loadMs;
  }

  /** AS, location and cloud of `ip`; keys absent when the data has no answer. */
  enrich(ip: string): Enrichment {
    this.load();
    const out: Enrichment = {};
    const as = this.asn.lookup(ip);
    if (as) out.autonomous_system = as;
    const loc = this.city ? withCity(this.geo.countryCode(ip), this.city.lookup(ip)) : this.geo.location(ip);
    if (loc) out.location = loc;
    const ranged = this.cloudRanges?.lookup(ip);
    const provider = ranged ? undefined : as ? cloudProviderOfAsn(as.asn) : undefined;
    if (ranged) out.cloud = ranged;
    else if (provider) out.cloud = { provider };
    return out;
  }

  /** Every source in use, with its version and build date. */
  sources(): EnrichSource[] {
    this.load();
    const out: EnrichSource[] = [this.asn.source(), this.geo.source()];
    if (this.city) out.push(this.city.source());
    out.push({
      name: 'cloud-asn',
      path: '(built in)',
      version: 'AS number table',
      builtAt: CLOUD_ASN_TABLE_DATE,
      builtFrom: 'table revision',
      loadedAt: this.createdAt,
      loadMs: 0,
      rows: cloudAsnCount(),
    });
    if (this.cloudRanges) out.push(...this.cloudRanges.sources());
    return out;
  }

  sourceInfo(): { asn: SourceInfo; geo: SourceInfo; loadMs: number } {
    const loadMs = this.load();
    return { asn: this.asn.sourceInfo(), geo: this.geo.sourceInfo(), loadMs: Math.round(loadMs) };
  }
}

let shared: Enricher | undefined;
let bundled: Enricher | undefined;
let sharedFiles: EnrichFiles = {};

function sameFiles(a: EnrichFiles, b: EnrichFiles): boolean {
  return a.asnDb === b.asnDb && a.countryDb === b.countryDb && a.cityDb === b.cityDb && a.cloudRangesDir === b.cloudRangesDir;
}

/**
 * Sets the files the process-wide enricher uses (main/ calls this once from the configuration).
 * A change of files drops the loaded enricher; the next sharedEnricher() loads the new files.
 */
export function configureEnrichment(files: EnrichFiles): void {
  const next: EnrichFiles = { ...files };
  if (!sameFiles(next, sharedFiles)) shared = undefined;
  sharedFiles = next;
}

/** The process-wide enricher over the configured files (the tables are large; load them once). */
export function sharedEnricher(): Enricher {
  const configured = Object.values(sharedFiles).some((v) => v !== undefined);
  shared ??= configured ? Enricher.fromFiles(sharedFiles) : bundledEnricher();
  return shared;
}

/**
 * The process-wide enricher over the bundled data only, whatever is configured: for output that
 * must not depend on an operator's files (the deterministic demo dataset).
 */
export function bundledEnricher(): Enricher {
  bundled ??= new Enricher();
  return bundled;
}
