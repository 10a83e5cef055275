/** Protocol versions and cipher suites a TLS service negotiated with the scanner. */
import { strAt } from '../service-view.ts';
import { finding, type ServiceDetector } from './detector.ts';

/** `TLSv1_0`, `TLSv1.0`, `TLS 1.0`, `tls10` → `tls1_0`; `SSLv3` → `ssl3`. */
export function normaliseTlsVersion(v: string): string {
  const m = /^(ssl|tls)\s*v?\s*(\d)(?:[._\s]?(\d))?$/i.exec(v.trim());
  if (!m) return v.toLowerCase();
  const proto = m[1].toLowerCase();
  return proto === 'ssl' ? `ssl${m[2]}` : `tls${m[2]}_${m[3] ?? '0'}`;
}

const WEAK_VERSIONS: Readonly<Record<string, string>> = {
  ssl2: 'tls.version.ssl',
  ssl3: 'tls.version.ssl',
  tls1_0: 'tls.version.tls1_0',
  tls1_1: 'tls.version.tls1_1',
};

export const weakTlsVersion: ServiceDetector = {
  id: 'weak-tls-version',
  family: 'tls',
  on: 'service',
  types: ['tls.version.ssl', 'tls.version.tls1_0', 'tls.version.tls1_1'],
  detect(s) {
    const v = strAt(s, 'tls.version_selected');
    const type = v ? WEAK_VERSIONS[normaliseTlsVersion(v)] : undefined;
    return type && v ? [finding(type, { versionSelected: v })] : [];
  },
};

const WEAK_CIPHER = /(^|_)(RC4|DES|3DES|DES40|NULL|EXPORT|EXPORT40|EXPORT1024|ANON|anon)(_|$)|_DES_CBC|_RC4_|3DES_EDE|_NULL_|_EXPORT/;

export const weakTlsCipher: ServiceDetector = {
  id: 'weak-tls-cipher',
  family: 'tls',
  on: 'service',
  types: ['tls.cipher.weak'],
  detect(s) {
    const c = strAt(s, 'tls.cipher_selected');
    return c && WEAK_CIPHER.test(c) ? [finding('tls.cipher.weak', { cipherSelected: c })] : [];
  },
};
