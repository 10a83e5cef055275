/**
 * The enrichment settings: flags, then environment, then the config file, then the bundled data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/main/config.ts';

const tmp = mkdtempSync(join(tmpdir(), 'periscope-enrich-config-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const file = (name: string) => {
  const p = join(tmp, name);
  writeFileSync(p, 'x');
  return p;
};
const dir = (name: string) => {
  const p = join(tmp, name);
  mkdirSync(p, { recursive: true });
  return p;
};

const flagCity = file('flag-city.mmdb');
const envCity = file('env-city.mmdb');
const fileCity = file('file-city.mmdb');
const envRanges = dir('env-ranges');
const fileRanges = dir('file-ranges');
const fileAsn = dir('file-asn');
const fileCountry = file('file-country.mmdb');
const configFile = join(tmp, 'periscope.json');
writeFileSync(configFile, JSON.stringify({ enrich: { cityDb: fileCity, cloudRangesDir: fileRanges, asnDb: fileAsn, countryDb: fileCountry } }));

test('defaults: no operator files', () => {
  assert.deepEqual(loadConfig({ flags: {}, env: {} }).enrich, {});
});

test('flags beat environment, environment beats the config file', () => {
  const c = loadConfig({
    flags: { config: configFile, cityDb: flagCity },
    env: { PERISCOPE_CITY_DB: envCity, PERISCOPE_CLOUD_RANGES_DIR: envRanges },
  });
  assert.deepEqual(c.enrich, { asnDb: fileAsn, countryDb: fileCountry, cityDb: flagCity, cloudRangesDir: envRanges });
  const e = loadConfig({ flags: {}, env: { PERISCOPE_CONFIG: configFile, PERISCOPE_CITY_DB: envCity, PERISCOPE_ASN_DB: flagCity, PERISCOPE_COUNTRY_DB: envCity } });
  assert.deepEqual(e.enrich, { asnDb: flagCity, countryDb: envCity, cityDb: envCity, cloudRangesDir: fileRanges });
  const f = loadConfig({ flags: { config: configFile }, env: {} });
  assert.deepEqual(f.enrich, { asnDb: fileAsn, countryDb: fileCountry, cityDb: fileCity, cloudRangesDir: fileRanges });
});

test('missing or mistyped paths are configuration errors, not crashes mid-ingest', () => {
  assert.throws(() => loadConfig({ flags: { cityDb: join(tmp, 'nope.mmdb') }, env: {} }), (e) => e instanceof ConfigError && /city db .* does not exist/.test(e.message));
  assert.throws(() => loadConfig({ flags: {}, env: { PERISCOPE_CLOUD_RANGES_DIR: flagCity } }), (e) => e instanceof ConfigError && /not a folder/.test(e.message));
  assert.throws(() => loadConfig({ flags: { countryDb: envRanges }, env: {} }), (e) => e instanceof ConfigError && /is a folder/.test(e.message));
  // An ASN source may be either a folder or one file.
  assert.equal(loadConfig({ flags: { asnDb: envRanges }, env: {} }).enrich.asnDb, envRanges);
});
