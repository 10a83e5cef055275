import type { KnownCertificates } from './validate-chain.ts';
import { readChainCertificate } from './chain-certificate.ts';

/**
 * Known intermediates held in memory: CA certificates met during an ingest run (chains presented
 * by hosts, CT extra_data, PEM bundles), so a later leaf validates through an issuer seen
 * earlier. Non-CA certificates are ignored; a bound keeps the pool flat on endless inputs.
 */
export interface IntermediatePool extends KnownCertificates {
  /** Adds a certificate if it is a CA; returns whether it was kept. */
  add(der: Uint8Array): boolean;
  readonly size: number;
}

export function createIntermediatePool(maxSize = 100_000): IntermediatePool {
  const bySubject = new Map<string, Uint8Array[]>();
  const seen = new Set<string>();
  return {
    add(der) {
      if (seen.size >= maxSize) return false;
      const r = readChainCertificate(der);
      if (!r.ok || r.cert.isCa !== true || seen.has(r.cert.fingerprint)) return false;
      seen.add(r.cert.fingerprint);
      const list = bySubject.get(r.cert.subjectDn) ?? [];
      list.push(new Uint8Array(r.cert.der));
      bySubject.set(r.cert.subjectDn, list);
      return true;
    },
    bySubject: (dn) => bySubject.get(dn) ?? [],
    get size() {
      return seen.size;
    },
  };
}
