export { AsnLookup, versionBuildTime, type AutonomousSystem, type AsnRange, type SourceInfo } from './asn-lookup.ts';
export { GeoLookup, countryLocation, locationWithCity, type HostLocation } from './geo-lookup.ts';
export { Enricher, sharedEnricher, type Enrichment } from './enricher.ts';
export { countryByCode, allCountries, type Country } from './countries.ts';
export { citiesOf, coveredCountryCount, type City } from './cities.ts';
