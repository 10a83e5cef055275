/**
 * Software versions with well-known, remotely relevant vulnerabilities. Matching is by version
 * only, as banners show it: distributions often backport fixes without changing the upstream
 * version, so a match is "likely vulnerable"; rows list the distribution package revisions known
 * to carry the fix where the banner shows them (OpenSSH on Debian and Ubuntu).
 */
import type { Severity } from './risk-model.ts';
import type { VersionRange } from './version-compare.ts';

/** The date the table was last reviewed against vendor advisories. */
export const VULNERABLE_SOFTWARE_AS_OF = '2026-11-01';

export interface ProductMatch {
  /** CPE vendors accepted; absent = any vendor. */
  readonly vendors?: readonly string[];
  readonly product: string;
}

export interface DistributionFix {
  /** Start of the SSH banner comment, e.g. `Ubuntu-3ubuntu0.`. */
  readonly commentPrefix: string;
  /** First package revision (the number after the prefix) that carries the fix. */
  readonly fixedRevision: number;
}

export interface VulnerableSoftware {
  readonly type: string;
  readonly match: ProductMatch;
  /** Vulnerable when the version is in any of these ranges. */
  readonly ranges: readonly VersionRange[];
  readonly cves: readonly string[];
  readonly severity: Severity;
  readonly distributionFixes?: readonly DistributionFix[];
}

export const VULNERABLE_SOFTWARE: readonly VulnerableSoftware[] = [
  {
    type: 'software.vulnerable.openssh_regresshion',
    match: { vendors: ['openbsd'], product: 'openssh' },
    ranges: [{ from: '8.5p1', below: '9.8p1' }],
    cves: ['CVE-2024-6387'],
    severity: 'critical',
    distributionFixes: [
      { commentPrefix: 'Ubuntu-3ubuntu0.', fixedRevision: 10 },
      { commentPrefix: 'Ubuntu-3ubuntu13.', fixedRevision: 3 },
      { commentPrefix: 'Debian-2+deb12u', fixedRevision: 3 },
    ],
  },
  {
    type: 'software.vulnerable.openssh_user_enumeration',
    match: { vendors: ['openbsd'], product: 'openssh' },
    ranges: [{ below: '7.8' }],
    cves: ['CVE-2018-15473'],
    severity: 'medium',
  },
  {
    type: 'software.vulnerable.apache_path_traversal',
    match: { vendors: ['apache'], product: 'http_server' },
    ranges: [{ exact: ['2.4.49', '2.4.50'] }],
    cves: ['CVE-2021-41773', 'CVE-2021-42013'],
    severity: 'critical',
  },
  {
    type: 'software.vulnerable.nginx_resolver',
    match: { vendors: ['f5', 'nginx', 'igor_sysoev'], product: 'nginx' },
    ranges: [{ from: '0.6.18', below: '1.20.1' }],
    cves: ['CVE-2021-23017'],
    severity: 'high',
  },
  {
    type: 'software.vulnerable.iis6_webdav',
    match: { vendors: ['microsoft'], product: 'internet_information_services' },
    ranges: [{ exact: ['6.0'] }],
    cves: ['CVE-2017-7269'],
    severity: 'critical',
  },
  {
    type: 'software.vulnerable.openssl_heartbleed',
    match: { vendors: ['openssl'], product: 'openssl' },
    ranges: [{ from: '1.0.1', below: '1.0.1g' }],
    cves: ['CVE-2014-0160'],
    severity: 'high',
  },
  {
    type: 'software.vulnerable.exim_remote_command',
    match: { vendors: ['exim'], product: 'exim' },
    ranges: [{ from: '4.87', below: '4.92' }],
    cves: ['CVE-2019-10149'],
    severity: 'critical',
  },
  {
    type: 'software.vulnerable.exim_ntlm_auth',
    match: { vendors: ['exim'], product: 'exim' },
    ranges: [{ below: '4.96.1' }],
    cves: ['CVE-2023-42115'],
    severity: 'critical',
  },
  {
    type: 'software.vulnerable.vsftpd_backdoor',
    match: { vendors: ['beasts', 'vsftpd_project'], product: 'vsftpd' },
    ranges: [{ exact: ['2.3.4'] }],
    cves: ['CVE-2011-2523'],
    severity: 'critical',
  },
  {
    type: 'software.vulnerable.proftpd_mod_copy',
    match: { vendors: ['proftpd'], product: 'proftpd' },
    ranges: [{ exact: ['1.3.5'] }],
    cves: ['CVE-2015-3306'],
    severity: 'critical',
  },
  {
    type: 'software.vulnerable.redis_lua_cjson',
    match: { vendors: ['redis', 'redislabs'], product: 'redis' },
    ranges: [
      { from: '2.6', below: '6.0.20' },
      { from: '6.2', below: '6.2.13' },
      { from: '7.0', below: '7.0.12' },
    ],
    cves: ['CVE-2022-24834'],
    severity: 'high',
  },
  {
    type: 'software.vulnerable.tomcat_ghostcat',
    match: { vendors: ['apache'], product: 'tomcat' },
    ranges: [
      { from: '7.0.0', below: '7.0.100' },
      { from: '8.5.0', below: '8.5.51' },
      { from: '9.0.0', below: '9.0.31' },
    ],
    cves: ['CVE-2020-1938'],
    severity: 'high',
  },
];
