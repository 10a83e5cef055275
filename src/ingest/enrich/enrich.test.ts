import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { cidrRange, ipKey } from '../../lib/ip.ts';
import { allCountries, citiesOf, countryByCode, coveredCountryCount, Enricher, sharedEnricher, versionBuildTime } from './index.ts';
import { bigIntToIpv6, parseIpv4, parseIpv6, wordsToBigInt } from './ip-words.ts';

const enricher: Enricher = sharedEnricher();

function inPrefix(ip: string, prefix: string): boolean {
  const r = cidrRange(prefix);
  const k = ipKey(ip);
  return !!r && !!k && k >= r.lo && k <= r.hi;
}

test('well-known addresses map to their AS', () => {
  const cf = enricher.asn.lookup('1.1.1.1');
  assert.equal(cf?.asn, 13335);
  assert.match(cf!.name, /Cloudflare/);
  assert.equal(cf!.bgp_prefix, '1.1.1.0/24');
  const google = enricher.asn.lookup('8.8.8.8');
  assert.equal(google?.asn, 15169);
  assert.equal(google!.country_code, 'US');
  assert.equal(google!.description, google!.name);
  assert.equal(enricher.asn.lookup('2606:4700:4700::1111')?.asn, 13335);
  const g6 = enricher.asn.lookup('2001:4860:4860::8888');
  assert.equal(g6?.asn, 15169);
  assert.ok(inPrefix('2001:4860:4860::8888', g6!.bgp_prefix));
  assert.equal(enricher.asn.lookup('::ffff:8.8.8.8')?.asn, 15169);
});

test('no AS for private, reserved or invalid input', () => {
  for (const ip of ['10.1.2.3', '192.168.0.1', '127.0.0.1', '0.0.0.0', 'fe80::1', 'not-an-ip', '1.2.3', '1.2.3.256', '']) {
    assert.equal(enricher.asn.lookup(ip), undefined, ip);
  }
});

test('the BGP prefix contains the address and lies inside one announced range', () => {
  const asn = enricher.asn;
  const n = asn.counts().ipv4;
  fc.assert(
    fc.property(fc.nat(n - 1), fc.double({ min: 0, max: 1, noNaN: true }), (i, f) => {
      const r = asn.ipv4Range(i);
      const x = r.start + Math.floor(f * (r.end - r.start));
      const ip = `${x >>> 24}.${(x >>> 16) & 255}.${(x >>> 8) & 255}.${x & 255}`;
      const as = asn.lookup(ip);
      assert.equal(as?.asn, r.asn);
      assert.ok(inPrefix(ip, as!.bgp_prefix));
      const pr = cidrRange(as!.bgp_prefix)!;
      assert.ok(pr.lo >= ipKey(asn.range(i).start)! && pr.hi <= ipKey(asn.range(i).end)!);
      // The largest such block: the one twice its size around it does not fit in the range.
      const [base, bits] = as!.bgp_prefix.split('/');
      const first = base!.split('.').reduce((n, o) => n * 256 + Number(o), 0);
      const size = 2 ** (32 - Number(bits));
      if (size < 2 ** 32) {
        const parent = first - (first % (2 * size));
        assert.ok(parent < r.start || parent + 2 * size - 1 > r.end, `${as!.bgp_prefix} is not the largest block of ${ip} in its range`);
      }
      // Answers are remembered by block: asked again, and for the block's other end, the same.
      assert.deepEqual(asn.lookup(ip), as);
      const other = x % 2 === 0 ? first + size - 1 : first;
      const otherIp = `${other >>> 24}.${(other >>> 16) & 255}.${(other >>> 8) & 255}.${other & 255}`;
      assert.deepEqual(asn.lookup(otherIp), as, otherIp);
    }),
    { numRuns: 300 },
  );
});

test('country-level location from the geo database', () => {
  const loc = enricher.geo.location('8.8.8.8');
  assert.deepEqual(loc, { continent: 'North America', country: 'United States', country_code: 'US', registered_country: 'United States', registered_country_code: 'US' });
  assert.equal(enricher.geo.countryCode('81.2.69.142'), 'GB');
  assert.equal(enricher.geo.countryCode('::ffff:81.2.69.142'), 'GB');
  assert.equal(enricher.geo.countryCode('2001:4860:4860::8888'), 'US');
  assert.equal(enricher.geo.countryCode('10.0.0.1'), undefined);
  assert.equal(enricher.geo.countryCode('garbage'), undefined);
  const both = enricher.enrich('1.1.1.1');
  assert.equal(both.autonomous_system?.asn, 13335);
  assert.ok(both.location?.country_code);
  assert.deepEqual(enricher.enrich('192.168.1.1'), {});
});

test('source information names packages, versions and build times', () => {
  const info = enricher.sourceInfo();
  assert.equal(info.asn.package, '@ip-location-db/asn');
  assert.match(info.asn.version, /^\d+\.\d+\.\d{10}$/);
  assert.ok(info.asn.builtAt && !Number.isNaN(Date.parse(info.asn.builtAt)));
  assert.ok(info.asn.rows! > 400_000);
  assert.equal(info.geo.package, '@ip-location-db/geo-whois-asn-country-mmdb');
  assert.ok(info.geo.builtAt && !Number.isNaN(Date.parse(info.geo.builtAt)));
  assert.equal(typeof info.loadMs, 'number');
  assert.equal(versionBuildTime('2.3.2026061719'), '2026-06-17T19:00:00.000Z');
  assert.equal(versionBuildTime('1.0.0'), undefined);
});

test('country and city tables are consistent', () => {
  assert.equal(countryByCode('de')?.name, 'Germany');
  assert.equal(countryByCode('US')?.continent, 'North America');
  assert.equal(countryByCode('ZZ'), undefined);
  assert.ok(allCountries().length > 240);
  assert.ok(coveredCountryCount() >= 60);
  const continents = new Set(['Africa', 'Antarctica', 'Asia', 'Europe', 'North America', 'Oceania', 'South America']);
  for (const c of allCountries()) assert.ok(continents.has(c.continent), c.code);
  for (const c of allCountries()) {
    for (const city of citiesOf(c.code)) {
      assert.ok(countryByCode(city.countryCode));
      assert.ok(Math.abs(city.latitude) <= 90 && Math.abs(city.longitude) <= 180, city.city);
      assert.doesNotThrow(() => new Intl.DateTimeFormat('en', { timeZone: city.timezone }), city.timezone);
    }
  }
  assert.equal(citiesOf('US')[0].city, 'Ashburn');
  assert.deepEqual(citiesOf('XX'), []);
});

test('fast IP parsers agree with ipaddr.js', () => {
  fc.assert(
    fc.property(fc.ipV4(), (ip) => {
      assert.equal(parseIpv4(ip), ipaddr.parse(ip).toByteArray().reduce((a, b) => a * 256 + b, 0));
    }),
  );
  fc.assert(
    // ipaddr.js reads the deprecated IPv4-compatible form ::a.b.c.d as IPv4-mapped; leave those out.
    fc.property(fc.ipV6().filter((ip) => !/^::\d+\./.test(ip)), (ip) => {
      const w = parseIpv6(ip);
      assert.ok(w, ip);
      const expected = ipaddr.parse(ip).toByteArray().reduce((a, b) => (a << 8n) | BigInt(b), 0n);
      assert.equal(wordsToBigInt(w), expected);
      assert.equal(bigIntToIpv6(expected), ipaddr.parse(ip).toString());
    }),
  );
  for (const bad of ['1::2::3', ':::', '1:2:3:4:5:6:7:8:9', '12345::', 'g::', '1:', '']) assert.equal(parseIpv6(bad), undefined, bad);
  for (const bad of ['1.2.3', '256.1.1.1', '1.2.3.4.5', '01234.1.1.1', 'a.b.c.d']) assert.equal(parseIpv4(bad), -1, bad);
});
