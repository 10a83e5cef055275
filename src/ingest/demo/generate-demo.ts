/**
 * The deterministic demo dataset: the same options give byte-identical certificates and hosts
 * (seeded PRNG, fixed keys, deterministic RSA signatures, fixed default `now`).
 */
import { bundledEnricher, type Enricher } from '../enrich/index.ts';
import { makeDomains } from './domains.ts';
import { generateCertificates, type CertificateIndex, type DemoCertificate } from './generate-certificates.ts';
import { generateHosts, type DemoHost } from './generate-hosts.ts';
import { DEFAULT_KEYS_DIR, loadKeyPool } from './key-pool.ts';
import type { CertificateSet } from './render-service.ts';

export const DEMO_DEFAULT_NOW = '2026-11-01T00:00:00Z';
export const DEMO_DEFAULT_SEED = 1;

export interface DemoOptions {
  /** IP hosts to generate (named virtual hosts come on top of these). */
  readonly hosts: number;
  /** Certificates in total, the demo CA hierarchy (13 certificates) included and always present. */
  readonly certificates: number;
  readonly seed?: number;
  /** Reference time for validity, labels and scan times (default 2026-11-01T00:00:00Z). */
  readonly now?: Date;
  /** Folder of the fixed key pool (default assets/demo-keys). */
  readonly keysDir?: string;
  /** Enrichment to use (default: the process-wide one). */
  readonly enricher?: Enricher;
}

export interface DemoData {
  readonly seed: number;
  readonly now: string;
  /** Demo domains (organisations first, then providers used for reverse DNS). */
  readonly domains: string[];
  readonly certificates: DemoCertificate[];
  /** IP hosts, each followed by its virtual hosts (`ip+name`). */
  readonly hosts: DemoHost[];
}

interface Prepared {
  seed: number;
  now: Date;
  domains: ReturnType<typeof makeDomains>;
  certificates: DemoCertificate[];
  index: CertificateIndex;
  set: CertificateSet;
  enricher: Enricher;
}

function prepare(options: DemoOptions): Prepared {
  const seed = options.seed ?? DEMO_DEFAULT_SEED;
  const now = options.now ?? new Date(DEMO_DEFAULT_NOW);
  const domains = makeDomains(seed);
  const keys = loadKeyPool(options.keysDir ?? DEFAULT_KEYS_DIR);
  const { certificates, index } = generateCertificates({ count: options.certificates, seed, now, domains, keys });
  const set: CertificateSet = { list: certificates, byFingerprint: new Map(certificates.map((c) => [c.doc.fingerprint_sha256, c])) };
  // Bundled data only: an operator's newer files must not change the deterministic demo.
  return { seed, now, domains, certificates, index, set, enricher: options.enricher ?? bundledEnricher() };
}

/** The demo domain names for a seed (what tests and examples can query). */
export function demoDomains(seed: number = DEMO_DEFAULT_SEED): string[] {
  return makeDomains(seed).map((d) => d.name);
}

/** Certificates first (hosts refer to them), then hosts one at a time, for callers that stream into a store. */
export function demoStream(options: DemoOptions): { seed: number; now: string; domains: string[]; certificates: DemoCertificate[]; hosts: Iterable<DemoHost> } {
  const p = prepare(options);
  return {
    seed: p.seed,
    now: p.now.toISOString(),
    domains: p.domains.map((d) => d.name),
    certificates: p.certificates,
    hosts: {
      [Symbol.iterator]: () =>
        generateHosts({ count: options.hosts, seed: p.seed, now: p.now, enricher: p.enricher, domains: p.domains, certs: p.set, index: p.index }),
    },
  };
}

/** Just the hosts of `demoStream` (certificates are still generated, since hosts present them). */
export function demoHostStream(options: DemoOptions): Iterable<DemoHost> {
  return demoStream(options).hosts;
}

export function generateDemo(options: DemoOptions): DemoData {
  const s = demoStream(options);
  return { seed: s.seed, now: s.now, domains: s.domains, certificates: s.certificates, hosts: [...s.hosts] };
}
