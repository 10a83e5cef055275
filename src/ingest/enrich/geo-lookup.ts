/**
 * IP → country from the bundled @ip-location-db/geo-whois-asn-country-mmdb database (country of
 * the whois/ASN registration). The data has no city, so a location from here is country-level.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Reader, type CountryResponse } from 'maxmind';
import { publicAddress } from './public-address.ts';
import { RecordCache } from './record-cache.ts';
import type { City } from './cities.ts';
import { countryByCode } from './countries.ts';
import type { SourceInfo } from './asn-lookup.ts';
import { isoTime } from '../../lib/time.ts';
import { fileLabel, mtimeOf, packageNear, type EnrichSource } from './enrich-source.ts';

/** The Censys host `location` object; city-level keys only when a city is known. */
export type HostLocation = {
  continent?: string;
  country?: string;
  country_code: string;
  city?: string;
  province?: string;
  postal_code?: string;
  timezone?: string;
  coordinates?: { latitude: number; longitude: number };
  registered_country?: string;
  registered_country_code?: string;
};

/** ip-location-db's country databases carry a bare `country_code` instead of MaxMind's nested records. */
type CountryRecord = CountryResponse & { country_code?: string };

export class GeoLookup {
  private readonly file: string;
  private reader?: Reader<CountryRecord>;
  private loadedMs = 0;
  private loadedAt = '';
  private versionText = '';

  /** `file`: an mmdb with `{country_code}` records (default: the installed package's combined v4+v6 database). */
  constructor(options: { file?: string } = {}) {
    this.file =
      options.file ??
      join(
        dirname(createRequire(import.meta.url).resolve('@ip-location-db/geo-whois-asn-country-mmdb/package.json')),
        'geo-whois-asn-country.mmdb',
      );
  }

  load(): this {
    if (this.reader) return this;
    const t0 = performance.now();
    this.reader = new Reader<CountryRecord>(readFileSync(this.file), { cache: new RecordCache() });
    try {
      this.versionText = String(JSON.parse(readFileSync(join(dirname(this.file), 'package.json'), 'utf8')).version ?? '');
    } catch {
      this.versionText = '';
    }
    this.loadedMs = performance.now() - t0;
    this.loadedAt = isoTime(Date.now());
    return this;
  }

  /** Alpha-2 country code of `ip`, or undefined (reserved space, unknown, or not an IP). */
  countryCode(ip: string): string | undefined {
    this.load();
    try {
      const addr = publicAddress(ip);
      if (!addr) return undefined;
      const rec = this.reader!.get(addr);
      // MaxMind's own country and city databases nest the code; ip-location-db's keep it flat.
      return rec?.country_code ?? rec?.country?.iso_code ?? rec?.registered_country?.iso_code ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** Country-level location: continent, country, code and the same as registered country. */
  location(ip: string): HostLocation | undefined {
    const code = this.countryCode(ip);
    return code ? countryLocation(code) : undefined;
  }

  source(): EnrichSource {
    this.load();
    const built = this.reader!.metadata.buildEpoch;
    const epoch = built instanceof Date && !Number.isNaN(built.getTime()) ? built.toISOString() : undefined;
    const pkg = packageNear(this.file);
    const builtAt = epoch ?? mtimeOf(this.file);
    return {
      name: 'country',
      path: this.file,
      ...(pkg ? { package: pkg.name } : {}),
      version: pkg?.version ?? `${fileLabel(this.file)} (${this.reader!.metadata.databaseType})`,
      ...(builtAt ? { builtAt, builtFrom: epoch ? 'mmdb build_epoch' : 'file mtime' } : {}),
      loadedAt: this.loadedAt,
      loadMs: Math.round(this.loadedMs),
    };
  }

  sourceInfo(): SourceInfo {
    this.load();
    const built = this.reader!.metadata.buildEpoch;
    return {
      package: '@ip-location-db/geo-whois-asn-country-mmdb',
      version: this.versionText,
      ...(built instanceof Date && !Number.isNaN(built.getTime()) ? { builtAt: built.toISOString() } : {}),
      loadMs: Math.round(this.loadedMs),
    };
  }
}

export function countryLocation(code: string): HostLocation {
  const upper = code.toUpperCase();
  const c = countryByCode(upper);
  if (!c) return { country_code: upper, registered_country_code: upper };
  return {
    continent: c.continent,
    country: c.name,
    country_code: upper,
    registered_country: c.name,
    registered_country_code: upper,
  };
}

/** A country-level location refined with a known city (used for demo data). Key order is fixed. */
export function locationWithCity(code: string, city: City | undefined): HostLocation {
  const base = countryLocation(code);
  if (!city) return base;
  const loc: HostLocation = {
    continent: base.continent,
    country: base.country,
    country_code: base.country_code,
    city: city.city,
  };
  if (city.province) loc.province = city.province;
  if (city.postalCode) loc.postal_code = city.postalCode;
  loc.timezone = city.timezone;
  loc.coordinates = { latitude: city.latitude, longitude: city.longitude };
  if (base.registered_country) loc.registered_country = base.registered_country;
  loc.registered_country_code = base.registered_country_code;
  return loc;
}
