/**
 * IP → city-level location from an operator-supplied MaxMind-format database: MaxMind's own
 * GeoLite2/GeoIP2 City (nested `city.names.en`, `subdivisions`, `location`, `postal`) or the flat
 * records of ip-location-db's city databases (`city`, `state1`, `postcode`, `latitude`, …).
 */
import { readFileSync } from 'node:fs';
import { Reader, type CityResponse } from 'maxmind';
import { publicAddress } from './public-address.ts';
import { RecordCache } from './record-cache.ts';
import { isoTime } from '../../lib/time.ts';
import { mtimeOf, packageNear, fileLabel, type EnrichSource } from './enrich-source.ts';

/** The part of a record a city database adds; country codes let it agree with the country. */
export interface CityAnswer {
  country_code?: string;
  registered_country_code?: string;
  city?: string;
  province?: string;
  postal_code?: string;
  timezone?: string;
  coordinates?: { latitude: number; longitude: number };
}

type FlatCityRecord = {
  country_code?: string;
  city?: string;
  state1?: string;
  postcode?: string;
  timezone?: string;
  latitude?: number;
  longitude?: number;
};

type CityRecord = Partial<CityResponse> & FlatCityRecord;

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function finite(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Either record shape → the Censys location fields it provides. */
export function cityAnswerOf(rec: CityRecord): CityAnswer | undefined {
  const out: CityAnswer = {};
  const cc = text(rec.country?.iso_code) ?? text(rec.country_code);
  if (cc) out.country_code = cc.toUpperCase();
  const rcc = text(rec.registered_country?.iso_code);
  if (rcc) out.registered_country_code = rcc.toUpperCase();
  const city = text(rec.city?.names?.en) ?? text(rec.city);
  if (city) out.city = city;
  const province = text(rec.subdivisions?.[0]?.names?.en) ?? text(rec.state1);
  if (province) out.province = province;
  const postal = text(rec.postal?.code) ?? text(rec.postcode);
  if (postal) out.postal_code = postal;
  const tz = text(rec.location?.time_zone) ?? text(rec.timezone);
  if (tz) out.timezone = tz;
  const lat = finite(rec.location?.latitude) ?? finite(rec.latitude);
  const lon = finite(rec.location?.longitude) ?? finite(rec.longitude);
  if (lat !== undefined && lon !== undefined) out.coordinates = { latitude: lat, longitude: lon };
  return Object.keys(out).length > 0 ? out : undefined;
}

export class CityLookup {
  private reader?: Reader<CityRecord>;
  private loadedAt = '';
  private loadedMs = 0;

  constructor(private readonly file: string) {}

  load(): this {
    if (this.reader) return this;
    const t0 = performance.now();
    this.reader = new Reader<CityRecord>(readFileSync(this.file), { cache: new RecordCache() });
    this.loadedAt = isoTime(Date.now());
    this.loadedMs = performance.now() - t0;
    return this;
  }

  lookup(ip: string): CityAnswer | undefined {
    this.load();
    try {
      const addr = publicAddress(ip);
      if (!addr) return undefined;
      const rec = this.reader!.get(addr);
      return rec ? cityAnswerOf(rec) : undefined;
    } catch {
      return undefined;
    }
  }

  source(): EnrichSource {
    this.load();
    const built = this.reader!.metadata.buildEpoch;
    const pkg = packageNear(this.file);
    const builtAt = built instanceof Date && !Number.isNaN(built.getTime()) ? built.toISOString() : mtimeOf(this.file);
    return {
      name: 'city',
      path: this.file,
      ...(pkg ? { package: pkg.name } : {}),
      version: pkg?.version ?? `${fileLabel(this.file)} (${this.reader!.metadata.databaseType})`,
      ...(builtAt ? { builtAt, builtFrom: built instanceof Date && !Number.isNaN(built.getTime()) ? 'mmdb build_epoch' : 'file mtime' } : {}),
      loadedAt: this.loadedAt,
      loadMs: Math.round(this.loadedMs),
    };
  }
}
