import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { CloudRanges, parseCidr, flatten } from './cloud-ranges.ts';
import { parseRangeFile } from './cloud-range-file.ts';
import { cloudProviderOfAsn } from './cloud-providers.ts';
import { Enricher, sharedEnricher } from './enricher.ts';

const DIR = fileURLToPath(new URL('../../../test/fixtures/enrich/cloud-ranges/', import.meta.url));
const read = (name: string) => readFileSync(join(DIR, name), 'utf8');

test('cloud provider by AS number', () => {
  assert.equal(cloudProviderOfAsn(16509), 'Amazon AWS');
  assert.equal(cloudProviderOfAsn(14618), 'Amazon AWS');
  assert.equal(cloudProviderOfAsn(396982), 'Google Cloud');
  assert.equal(cloudProviderOfAsn(8075), 'Microsoft Azure');
  assert.equal(cloudProviderOfAsn(24940), 'Hetzner');
  assert.equal(cloudProviderOfAsn(3320), undefined);
  const e = sharedEnricher().enrich('8.8.8.8');
  assert.deepEqual(e.cloud, { provider: 'Google Cloud' });
  assert.deepEqual(sharedEnricher().enrich('2600:1f18::1').cloud, { provider: 'Amazon AWS' });
  assert.equal(sharedEnricher().enrich('192.168.1.1').cloud, undefined);
});

test('each published range-file shape is recognised by its content', () => {
  const cases: [string, string, string, number][] = [
    ['ip-ranges.json', 'aws', 'Amazon AWS', 5],
    ['cloud.json', 'google-cloud', 'Google Cloud', 3],
    ['ServiceTags_Public_20261116.json', 'azure', 'Microsoft Azure', 5],
    ['public_ip_ranges.json', 'oracle', 'Oracle Cloud', 3],
    ['ips-v4', 'cloudflare', 'Cloudflare', 2],
    ['ips-v6', 'cloudflare', 'Cloudflare', 2],
  ];
  for (const [file, format, provider, n] of cases) {
    // The name must not matter (except Azure's date): read under a neutral name.
    const r = parseRangeFile(read(file), file.startsWith('ServiceTags') ? file : 'renamed');
    assert.ok(r.ok, file);
    assert.equal(r.value.format, format, file);
    assert.equal(r.value.provider, provider, file);
    assert.equal(r.value.entries.length, n, file);
  }
  const aws = parseRangeFile(read('ip-ranges.json'));
  assert.ok(aws.ok);
  assert.equal(aws.value.builtAt, '2026-11-18T21:06:40.000Z');
  assert.equal(aws.value.builtFrom, 'createDate');
  assert.equal(aws.value.version, 'syncToken 1763500000');
  const g = parseRangeFile(read('cloud.json'));
  assert.ok(g.ok);
  assert.equal(g.value.builtAt, '2026-11-17T17:20:00.000Z');
  const az = parseRangeFile(read('ServiceTags_Public_20261116.json'), 'ServiceTags_Public_20261116.json');
  assert.ok(az.ok);
  assert.equal(az.value.builtAt, '2026-11-16T00:00:00.000Z');
  assert.equal(az.value.version, 'changeNumber 412');
  const o = parseRangeFile(read('public_ip_ranges.json'));
  assert.ok(o.ok);
  assert.equal(o.value.builtAt, '2026-11-15T09:14:02.118Z');
  const cfApi = parseRangeFile(JSON.stringify({ result: { ipv4_cidrs: ['173.245.48.0/20'], ipv6_cidrs: ['2400:cb00::/32'], etag: 'abc' }, success: true }));
  assert.ok(cfApi.ok);
  assert.equal(cfApi.value.provider, 'Cloudflare');
  assert.equal(cfApi.value.entries.length, 2);
  for (const bad of ['', 'hello world\n', '{"prefixes": 3}', '{not json', '[1,2]']) {
    const r = parseRangeFile(bad);
    assert.equal(r.ok, false, bad);
  }
});

test('range files beat the AS number and give region and service', () => {
  const enricher = Enricher.fromFiles({ cloudRangesDir: DIR });
  // AMAZON and EC2 both list 52.94.76.0/22; the service listing wins, and the /22 beats the /16.
  assert.deepEqual(enricher.enrich('52.94.77.1').cloud, { provider: 'Amazon AWS', region: 'us-west-2', service: 'EC2' });
  assert.deepEqual(enricher.enrich('52.94.1.1').cloud, { provider: 'Amazon AWS', region: 'GLOBAL', service: 'AMAZON' });
  assert.deepEqual(enricher.enrich('3.5.140.2').cloud, { provider: 'Amazon AWS', region: 'ap-northeast-2', service: 'S3' });
  assert.deepEqual(enricher.enrich('34.80.0.5').cloud, { provider: 'Google Cloud', region: 'asia-east1', service: 'Google Cloud' });
  // Azure: the regional storage tag beats the regional tag, which beats the global one.
  assert.deepEqual(enricher.enrich('20.42.0.10').cloud, { provider: 'Microsoft Azure', region: 'eastus', service: 'AzureStorage' });
  assert.deepEqual(enricher.enrich('20.42.1.10').cloud, { provider: 'Microsoft Azure', region: 'eastus' });
  assert.deepEqual(enricher.enrich('13.64.1.1').cloud, { provider: 'Microsoft Azure' });
  assert.deepEqual(enricher.enrich('129.146.1.1').cloud, { provider: 'Oracle Cloud', region: 'us-phoenix-1', service: 'OCI' });
  assert.deepEqual(enricher.enrich('104.16.0.1').cloud, { provider: 'Cloudflare' });
  // Outside the files, the AS table still answers (no region).
  assert.deepEqual(enricher.enrich('8.8.8.8').cloud, { provider: 'Google Cloud' });
  assert.equal(enricher.enrich('52.94.77.1').autonomous_system?.asn, 16509);
});

test('IPv6 and IPv4-mapped addresses in range files', () => {
  const ranges = new CloudRanges(DIR);
  assert.deepEqual(ranges.lookup('2600:1f18::1'), { provider: 'Amazon AWS', region: 'us-east-1', service: 'EC2' });
  assert.deepEqual(ranges.lookup('2600:1900:4000::9'), { provider: 'Google Cloud', region: 'us-central1', service: 'Google Cloud' });
  assert.deepEqual(ranges.lookup('2a01:111:f100::1'), { provider: 'Microsoft Azure' });
  assert.deepEqual(ranges.lookup('2603:c020:1::1'), { provider: 'Oracle Cloud', region: 'eu-frankfurt-1', service: 'OCI' });
  assert.deepEqual(ranges.lookup('2606:4700::1111'), { provider: 'Cloudflare' });
  assert.deepEqual(ranges.lookup('::ffff:52.94.77.1'), { provider: 'Amazon AWS', region: 'us-west-2', service: 'EC2' });
  assert.equal(ranges.lookup('2001:db8::1'), undefined);
  assert.equal(ranges.lookup('not an ip'), undefined);
});

test('the folder reports each file as a source and skips what is not a range file', () => {
  const ranges = new CloudRanges(DIR);
  const sources = ranges.sources();
  assert.deepEqual(sources.map((s) => s.provider).sort(), ['Amazon AWS', 'Cloudflare', 'Cloudflare', 'Google Cloud', 'Microsoft Azure', 'Oracle Cloud']);
  const aws = sources.find((s) => s.format === 'aws')!;
  assert.equal(aws.builtAt, '2026-11-18T21:06:40.000Z');
  assert.equal(aws.rows, 5);
  const cf = sources.find((s) => s.path.endsWith('ips-v4'))!;
  assert.equal(cf.builtFrom, 'file mtime');
  assert.ok(cf.builtAt);
  assert.deepEqual(ranges.skipped().map((s) => s.path.replace(/.*\//, '')), ['notes.txt']);
  assert.match(new CloudRanges('/nonexistent/dir').skipped()[0].reason, /cannot read/);
});

test('flattened segments answer like a scan of every prefix (most specific wins)', () => {
  const prefix = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 16, max: 32 })).map(([b, len]) => `10.${b}.${(b * 7) & 255}.0/${len}`);
  fc.assert(
    fc.property(fc.array(prefix, { minLength: 1, maxLength: 30 }), fc.array(fc.nat(0xffff), { minLength: 1, maxLength: 20 }), (prefixes, probes) => {
      const ivs = prefixes.map((p, i) => {
        const c = parseCidr(p)!;
        return { lo: c.lo, hi: c.hi, bits: c.bits, priority: i, info: { provider: `p${i}` } };
      });
      const table = flatten(ivs.map((x) => ({ ...x })));
      for (const probe of probes) {
        const x = BigInt((10 << 24) >>> 0) + BigInt(probe) * 256n + BigInt(probe & 255);
        let best: (typeof ivs)[number] | undefined;
        for (const iv of ivs) {
          if (iv.lo <= x && x <= iv.hi && (!best || iv.bits > best.bits || (iv.bits === best.bits && iv.priority > best.priority))) best = iv;
        }
        let got: string | undefined;
        for (let i = 0; i < table.los.length; i++) if (table.los[i] <= x && x <= table.his[i]) got = table.infos[i].provider;
        assert.equal(got, best?.info.provider);
      }
      for (let i = 1; i < table.los.length; i++) assert.ok(table.los[i] > table.his[i - 1]);
    }),
    { numRuns: 200 },
  );
  assert.deepEqual(parseCidr('10.1.2.3/8'), { v6: false, lo: 10n << 24n, hi: (11n << 24n) - 1n, bits: 8 });
  assert.equal(parseCidr('10.0.0.0/33'), undefined);
  assert.equal(parseCidr('10.0.0.0/x'), undefined);
  assert.equal(parseCidr('zz::/8'), undefined);
});
