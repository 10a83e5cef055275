/**
 * The trust anchors certificates are validated against: Mozilla's NSS root store as bundled in
 * Node (tls.rootCertificates, fixed at the Node release), optionally joined by a PEM bundle on
 * disk (Debian's ca-certificates, also built from Mozilla's list, usually newer) and by extra
 * anchors an operator or a test adds.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { pemToDer } from '../x509/pem.ts';
import { readChainCertificate, type ChainCertificate } from './chain-certificate.ts';

export const DEBIAN_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

export interface RootSource {
  /** `node` or the bundle's path, or `extra`. */
  readonly name: string;
  /** What dates the source: the Node version for the bundled roots, the file's modification time for a bundle. */
  readonly version: string;
  readonly count: number;
}

export interface RootStore {
  readonly sources: readonly RootSource[];
  readonly size: number;
  isRoot(cert: ChainCertificate): boolean;
  bySubject(subjectDn: string): readonly ChainCertificate[];
}

export interface RootStoreOptions {
  /** Use Node's bundled Mozilla roots (default true). */
  readonly node?: boolean;
  /** A PEM bundle to add; default the Debian bundle when it exists; null for none. */
  readonly bundlePath?: string | null;
  /** Further DER anchors (tests, private roots). */
  readonly extraRoots?: readonly Uint8Array[];
}

export function loadRootStore(options: RootStoreOptions = {}): RootStore {
  const byFp = new Map<string, ChainCertificate>();
  const bySubject = new Map<string, ChainCertificate[]>();
  // Cross-signed variants of one root share subject and key; either one anchors a path.
  const subjectKeys = new Set<string>();
  const sources: RootSource[] = [];
  const add = (ders: readonly Uint8Array[]): number => {
    let n = 0;
    for (const der of ders) {
      const r = readChainCertificate(der);
      if (!r.ok || byFp.has(r.cert.fingerprint)) continue;
      byFp.set(r.cert.fingerprint, r.cert);
      const list = bySubject.get(r.cert.subjectDn) ?? [];
      list.push(r.cert);
      bySubject.set(r.cert.subjectDn, list);
      subjectKeys.add(subjectKey(r.cert));
      n++;
    }
    return n;
  };
  if (options.node !== false) {
    const pem = pemToDer(rootCertificates.join('\n'));
    const count = add(pem.ok ? pem.ders : []);
    sources.push({ name: 'node', version: `Node.js ${process.version} bundled NSS roots`, count });
  }
  const bundle = options.bundlePath === undefined ? (existsSync(DEBIAN_CA_BUNDLE) ? DEBIAN_CA_BUNDLE : null) : options.bundlePath;
  if (bundle) {
    const pem = pemToDer(readFileSync(bundle, 'utf8'));
    const count = add(pem.ok ? pem.ders : []);
    sources.push({ name: bundle, version: statSync(bundle).mtime.toISOString(), count });
  }
  if (options.extraRoots?.length) sources.push({ name: 'extra', version: 'configured', count: add(options.extraRoots) });
  return {
    sources,
    get size() {
      return byFp.size;
    },
    isRoot: (cert) => byFp.has(cert.fingerprint) || subjectKeys.has(subjectKey(cert)),
    bySubject: (dn) => bySubject.get(dn) ?? [],
  };
}

function subjectKey(c: ChainCertificate): string {
  return `${c.subjectDn}\u0000${Buffer.from(c.spki).toString('base64')}`;
}

let shared: RootStore | undefined;
/** The default store (Node's roots plus Debian's bundle when present), loaded once. */
export function defaultRootStore(): RootStore {
  shared ??= loadRootStore();
  return shared;
}
