/** FTP servers: anonymous access announced in the greeting, and no way to protect the login with TLS. */
import { asObj, boolAt, serviceName, strAt, isTls } from '../service-view.ts';
import { finding, type ServiceDetector } from './detector.ts';

const ALLOWED = /anonymous[^\r\n]*\b(allowed|ok|permitted|accepted|granted|welcome|enabled)\b|^230[ -][^\r\n]*\b(anonymous|guest)\b|\banonymous (ftp|access|login)s? (server|site|only)\b/i;
const DENIED = /\b(no|not|denied|disabled|refused|prohibited|forbidden)\b[^\r\n]*\banonymous\b|\banonymous\b[^\r\n]*\b(no|not|denied|disabled|refused|prohibited|forbidden)\b/i;

/** The greeting line that says anonymous logins work, if any. */
export function anonymousLine(text: string): string | undefined {
  return text.split(/\r?\n/).find((line) => ALLOWED.test(line) && !DENIED.test(line));
}

export const ftpAnonymous: ServiceDetector = {
  id: 'ftp-anonymous',
  family: 'exposure',
  on: 'service',
  types: ['service.ftp.anonymous_login'],
  detect(s) {
    if (serviceName(s) !== 'FTP') return [];
    const texts = [strAt(s, 'ftp.banner'), strAt(s, 'ftp.status_meaning'), typeof s.banner === 'string' ? s.banner : undefined].filter((t): t is string => !!t);
    for (const t of texts) {
      const line = anonymousLine(t);
      if (line) return [finding('service.ftp.anonymous_login', { line: line.trim() })];
    }
    return [];
  },
};

export const ftpWithoutTls: ServiceDetector = {
  id: 'ftp-no-tls',
  family: 'tls',
  on: 'service',
  types: ['service.ftp.no_tls'],
  detect(s) {
    const ftp = asObj(s.ftp);
    if (serviceName(s) !== 'FTP' || !ftp || isTls(s) || boolAt(s, 'ftp.implicit_tls') === true) return [];
    const tls = strAt(s, 'ftp.auth_tls_response') ?? '';
    const ssl = strAt(s, 'ftp.auth_ssl_response') ?? '';
    // 234 = "security mechanism accepted"; with no AUTH answer recorded at all we cannot tell.
    if (!tls && !ssl) return [];
    if (tls.startsWith('234') || ssl.startsWith('234')) return [];
    return [finding('service.ftp.no_tls', { authTlsResponse: tls || null })];
  },
};
