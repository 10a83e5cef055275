/**
 * ASN and geo enrichment together, loaded lazily once per process: the AS country comes from the
 * geo database at the start of the announced range, so both answers agree with the bundled data.
 */
import { AsnLookup, type AutonomousSystem, type SourceInfo } from './asn-lookup.ts';
import { GeoLookup, type HostLocation } from './geo-lookup.ts';

export interface Enrichment {
  autonomous_system?: AutonomousSystem;
  location?: HostLocation;
}

export class Enricher {
  readonly asn: AsnLookup;
  readonly geo: GeoLookup;
  private loadMs?: number;

  constructor(options: { asn?: AsnLookup; geo?: GeoLookup } = {}) {
    this.geo = options.geo ?? new GeoLookup();
    this.asn = options.asn ?? new AsnLookup();
    this.asn.setCountrySource((ip) => this.geo.countryCode(ip));
  }

  /** Loads both sources now; returns the time it took in milliseconds. */
  load(): number {
    if (this.loadMs === undefined) {
      const t0 = performance.now();
      this.geo.load();
      this.asn.load();
      this.loadMs = performance.now() - t0;
    }
    return this.loadMs;
  }

  /** AS and country-level location of `ip`; keys absent when the data has no answer. */
  enrich(ip: string): Enrichment {
    this.load();
    const out: Enrichment = {};
    const as = this.asn.lookup(ip);
    if (as) out.autonomous_system = as;
    const loc = this.geo.location(ip);
    if (loc) out.location = loc;
    return out;
  }

  sourceInfo(): { asn: SourceInfo; geo: SourceInfo; loadMs: number } {
    const loadMs = this.load();
    return { asn: this.asn.sourceInfo(), geo: this.geo.sourceInfo(), loadMs: Math.round(loadMs) };
  }
}

let shared: Enricher | undefined;

/** The process-wide enricher (the tables are large; load them once). */
export function sharedEnricher(): Enricher {
  shared ??= new Enricher();
  return shared;
}
