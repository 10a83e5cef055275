import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildMmdb } from '../../../test/fixtures/enrich/mmdb-writer.ts';
import { CityLookup } from './city-lookup.ts';
import { Enricher } from './enricher.ts';
import { AsnLookup } from './asn-lookup.ts';
import { GeoLookup } from './geo-lookup.ts';

const tmp = mkdtempSync(join(tmpdir(), 'periscope-city-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const BUILD = Date.UTC(2026, 9, 1, 12) / 1000;

/** GeoLite2-City record shape (nested, MaxMind's own). */
const maxmindFile = join(tmp, 'GeoLite2-City.mmdb');
writeFileSync(
  maxmindFile,
  buildMmdb(
    [
      {
        cidr: '81.2.69.0/24',
        record: {
          city: { geoname_id: 2643743, names: { en: 'London', de: 'London' } },
          continent: { code: 'EU', names: { en: 'Europe' } },
          country: { iso_code: 'GB', names: { en: 'United Kingdom' } },
          location: { latitude: { double: 51.5142 }, longitude: { double: -0.0931 }, time_zone: 'Europe/London', accuracy_radius: 10 },
          postal: { code: 'EC2V' },
          registered_country: { iso_code: 'GB', names: { en: 'United Kingdom' } },
          subdivisions: [{ iso_code: 'ENG', names: { en: 'England' } }],
        },
      },
      {
        cidr: '2001:4860::/32',
        record: {
          city: { names: { en: 'Mountain View' } },
          country: { iso_code: 'US' },
          location: { latitude: { double: 37.4223 }, longitude: { double: -122.085 }, time_zone: 'America/Los_Angeles' },
          postal: { code: '94043' },
          subdivisions: [{ names: { en: 'California' } }],
        },
      },
    ],
    { databaseType: 'GeoLite2-City', buildEpoch: BUILD },
  ),
);

/** ip-location-db city record shape (flat). */
const flatFile = join(tmp, 'geolite2-city.mmdb');
writeFileSync(
  flatFile,
  buildMmdb(
    [
      {
        cidr: '8.8.8.0/24',
        record: { country_code: 'US', city: 'Ashburn', state1: 'Virginia', postcode: '20149', latitude: { double: 39.03 }, longitude: { double: -77.5 }, timezone: 'America/New_York' },
      },
      // A geolocated country different from the registration country.
      { cidr: '1.1.1.0/24', record: { country_code: 'AU', city: 'Sydney', state1: 'New South Wales', latitude: { double: -33.86 }, longitude: { double: 151.2 }, timezone: 'Australia/Sydney' } },
    ],
    { databaseType: 'geolite2-city', buildEpoch: BUILD },
  ),
);

test('a MaxMind GeoLite2-City database gives city-level location', () => {
  const city = new CityLookup(maxmindFile);
  assert.deepEqual(city.lookup('81.2.69.142'), {
    country_code: 'GB',
    registered_country_code: 'GB',
    city: 'London',
    province: 'England',
    postal_code: 'EC2V',
    timezone: 'Europe/London',
    coordinates: { latitude: 51.5142, longitude: -0.0931 },
  });
  assert.equal(city.lookup('2001:4860:4860::8888')?.city, 'Mountain View');
  assert.equal(city.lookup('::ffff:81.2.69.1')?.city, 'London');
  assert.equal(city.lookup('81.2.70.1'), undefined);
  assert.equal(city.lookup('10.0.0.1'), undefined);
  assert.equal(city.lookup('garbage'), undefined);
  const src = city.source();
  assert.equal(src.name, 'city');
  assert.equal(src.builtAt, '2026-10-01T12:00:00.000Z');
  assert.equal(src.builtFrom, 'mmdb build_epoch');
  assert.match(src.version, /GeoLite2-City/);
});

test('the enricher puts city fields on top of the country, in the Censys shape', () => {
  const enricher = Enricher.fromFiles({ cityDb: maxmindFile });
  assert.deepEqual(enricher.enrich('81.2.69.142').location, {
    continent: 'Europe',
    country: 'United Kingdom',
    country_code: 'GB',
    city: 'London',
    province: 'England',
    postal_code: 'EC2V',
    timezone: 'Europe/London',
    coordinates: { latitude: 51.5142, longitude: -0.0931 },
    registered_country: 'United Kingdom',
    registered_country_code: 'GB',
  });
  // Not in the city database: country level from the bundled country database, as before.
  assert.deepEqual(enricher.enrich('8.8.8.8').location, {
    continent: 'North America',
    country: 'United States',
    country_code: 'US',
    registered_country: 'United States',
    registered_country_code: 'US',
  });
  assert.deepEqual(enricher.sources().map((s) => s.name), ['asn', 'country', 'city', 'cloud-asn']);
});

test('ip-location-db flat city records; the geolocated country wins, registration stays', () => {
  const enricher = new Enricher({ asn: new AsnLookup(), geo: new GeoLookup(), city: new CityLookup(flatFile) });
  const loc = enricher.enrich('8.8.8.8').location!;
  assert.equal(loc.city, 'Ashburn');
  assert.equal(loc.province, 'Virginia');
  assert.equal(loc.postal_code, '20149');
  assert.equal(loc.timezone, 'America/New_York');
  assert.deepEqual(loc.coordinates, { latitude: 39.03, longitude: -77.5 });
  const cf = enricher.enrich('1.1.1.1').location!;
  assert.equal(cf.country_code, 'AU');
  assert.equal(cf.country, 'Australia');
  assert.equal(cf.city, 'Sydney');
  assert.equal(cf.registered_country_code, enricher.geo.countryCode('1.1.1.1'));
});

test('an operator country database in MaxMind shape is read too', () => {
  const geo = new GeoLookup({ file: maxmindFile });
  assert.equal(geo.countryCode('81.2.69.9'), 'GB');
  assert.equal(geo.countryCode('2001:4860::1'), 'US');
  const src = geo.source();
  assert.equal(src.name, 'country');
  assert.equal(src.package, undefined);
  assert.equal(src.builtAt, '2026-10-01T12:00:00.000Z');
});

test('an operator ASN file: one CSV in the text row shape, unsorted, both families', () => {
  const file = fileURLToPath(new URL('../../../test/fixtures/enrich/asn/asn-operator.csv', import.meta.url));
  const asn = AsnLookup.at(file);
  assert.deepEqual(asn.lookup('203.0.113.7'), { asn: 64501, name: 'Example Net', description: 'Example Net', bgp_prefix: '203.0.113.0/24' });
  assert.equal(asn.lookup('198.51.100.5')?.bgp_prefix, '198.51.100.0/25');
  assert.equal(asn.lookup('198.51.100.200'), undefined);
  // A range that is one block answers every address alike (remembered), each with its own object.
  const first = asn.lookup('203.0.113.200');
  const again = asn.lookup('203.0.113.1');
  assert.deepEqual(again, first);
  assert.notEqual(again, first);
  again!.name = 'changed by a caller';
  assert.equal(asn.lookup('203.0.113.9')?.name, 'Example Net');
  assert.equal(asn.lookup('2001:db8::1')?.name, 'Example Six, Inc.');
  assert.equal(asn.lookup('8.8.8.8'), undefined);
  const src = asn.source();
  assert.equal(src.name, 'asn');
  assert.equal(src.version, 'asn-operator.csv');
  assert.equal(src.builtFrom, 'file mtime');
  assert.equal(src.rows, 3);
  // A folder shaped like the package (here: the package itself) uses the package's version.
  const dir = AsnLookup.at(fileURLToPath(new URL('../../../node_modules/@ip-location-db/asn/', import.meta.url)).replace(/\/$/, ''));
  assert.equal(dir.source().builtFrom, 'package version');
});

test('configured files replace the shared enricher; the bundled one stays for the demo', async () => {
  const { bundledEnricher, configureEnrichment, sharedEnricher } = await import('./enricher.ts');
  const before = sharedEnricher();
  assert.equal(before, bundledEnricher());
  configureEnrichment({ cityDb: maxmindFile });
  try {
    const configured = sharedEnricher();
    assert.notEqual(configured, before);
    assert.equal(configured.enrich('81.2.69.142').location?.city, 'London');
    assert.equal(bundledEnricher().enrich('81.2.69.142').location?.city, undefined);
    configureEnrichment({ cityDb: maxmindFile });
    assert.equal(sharedEnricher(), configured, 'the same files keep the loaded enricher');
  } finally {
    configureEnrichment({});
  }
  assert.equal(sharedEnricher(), bundledEnricher());
});
