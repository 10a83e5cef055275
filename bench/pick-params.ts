/**
 * Corpus-dependent query parameters, chosen by one pass over the corpus so that every query has
 * hits at any size: the most populated IPv4 /8 and the demo domain with the most names.
 */
import { demoDomains } from '../src/ingest/demo/index.ts';
import { cidrRange } from '../src/lib/ip.ts';
import type { CorpusEntry } from './corpus-file.ts';
import type { QueryParams } from './query-mix.ts';

export async function pickParams(batches: AsyncIterable<CorpusEntry[]>, seed: number): Promise<QueryParams> {
  const octets = new Map<string, number>();
  const domains = demoDomains(seed);
  const perDomain = new Map<string, number>();
  for await (const batch of batches) {
    for (const { doc } of batch) {
      const ip = String(doc.ip);
      const m = /^(\d+)\.\d+\.\d+\.\d+$/.exec(ip);
      if (m) octets.set(m[1]!, (octets.get(m[1]!) ?? 0) + 1);
      const names = (doc.dns as { names?: string[] } | undefined)?.names ?? [];
      for (const n of names) {
        const dot = n.indexOf('.');
        const suffix = dot < 0 ? '' : n.slice(dot + 1);
        if (suffix) perDomain.set(suffix, (perDomain.get(suffix) ?? 0) + 1);
      }
    }
  }
  const best = <K>(m: Map<K, number>, allowed?: (k: K) => boolean): K | undefined =>
    [...m.entries()].filter(([k]) => !allowed || allowed(k)).sort((a, b) => b[1] - a[1])[0]?.[0];
  const octet = best(octets) ?? '10';
  const cidr = `${octet}.0.0.0/8`;
  const range = cidrRange(cidr);
  if (!range) throw new Error(`bad cidr ${cidr}`);
  const domain = best(perDomain, (d) => domains.includes(d)) ?? domains[0] ?? 'example.com';
  return { cidr, cidrLo: range.lo, cidrHi: range.hi, domain, phrase: 'Server: nginx', term: 'nginx' };
}
