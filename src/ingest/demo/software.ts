/**
 * Operating systems and server software the demo hosts run, with the banners they show and
 * CPE 2.3 identifiers in the Censys `software` / `operating_system` shape.
 */

export type SoftwareDoc = {
  uniform_resource_identifier: string;
  part: 'a' | 'o' | 'h';
  vendor: string;
  product: string;
  version?: string;
  update?: string;
  sw_edition?: string;
  source: 'OSI_APPLICATION_LAYER';
  other?: { key: string; value: string }[];
};

/** A CPE 2.3 software entry; absent version/update become `*`. */
export function cpe(
  part: 'a' | 'o' | 'h',
  vendor: string,
  product: string,
  version?: string,
  options: { update?: string; swEdition?: string; family?: string } = {},
): SoftwareDoc {
  const f = (v: string | undefined): string => (v === undefined || v === '' ? '*' : v.replace(/([:\\])/g, '\\$1'));
  const uri = `cpe:2.3:${part}:${vendor}:${product}:${f(version)}:${f(options.update)}:*:*:${f(options.swEdition)}:*:*:*`;
  const doc: SoftwareDoc = { uniform_resource_identifier: uri, part, vendor, product, source: 'OSI_APPLICATION_LAYER' };
  if (version) doc.version = version;
  if (options.update) doc.update = options.update;
  if (options.swEdition) doc.sw_edition = options.swEdition;
  if (options.family) doc.other = [{ key: 'family', value: options.family }];
  return doc;
}

export type OsFamily = 'ubuntu' | 'debian' | 'rhel' | 'centos' | 'amazon' | 'freebsd' | 'windows' | 'mikrotik' | 'cisco' | 'embedded';

export interface OsDef {
  readonly id: string;
  readonly family: OsFamily;
  readonly os: SoftwareDoc;
  /** OpenSSH (or other) banner software part and comment, e.g. `OpenSSH_8.9p1`, `Ubuntu-3ubuntu0.6`. */
  readonly ssh: readonly (readonly [string, string])[];
  /** Apache/nginx versions shipped by the distribution, oldest first, and their Server tag. */
  readonly apache?: readonly string[];
  readonly nginx?: readonly string[];
  readonly serverTag?: string;
  readonly php?: string;
  readonly mysql?: readonly string[];
  readonly iis?: string;
}

const ubuntu = (v: string): SoftwareDoc => cpe('o', 'canonical', 'ubuntu_linux', v, { swEdition: 'lts', family: 'Linux' });

export const OPERATING_SYSTEMS: readonly OsDef[] = [
  {
    id: 'ubuntu-22.04',
    family: 'ubuntu',
    os: ubuntu('22.04'),
    ssh: [['OpenSSH_8.9p1', 'Ubuntu-3ubuntu0.4'], ['OpenSSH_8.9p1', 'Ubuntu-3ubuntu0.6'], ['OpenSSH_8.9p1', 'Ubuntu-3ubuntu0.10'], ['OpenSSH_8.9p1', 'Ubuntu-3ubuntu0.13']],
    apache: ['2.4.52'],
    nginx: ['1.18.0'],
    serverTag: '(Ubuntu)',
    php: '8.1.2-1ubuntu2.19',
    mysql: ['8.0.36-0ubuntu0.22.04.1', '8.0.39-0ubuntu0.22.04.1', '8.0.41-0ubuntu0.22.04.1'],
  },
  {
    id: 'ubuntu-20.04',
    family: 'ubuntu',
    os: ubuntu('20.04'),
    ssh: [['OpenSSH_8.2p1', 'Ubuntu-4ubuntu0.5'], ['OpenSSH_8.2p1', 'Ubuntu-4ubuntu0.9'], ['OpenSSH_8.2p1', 'Ubuntu-4ubuntu0.11'], ['OpenSSH_8.2p1', 'Ubuntu-4ubuntu0.13']],
    apache: ['2.4.41'],
    nginx: ['1.18.0'],
    serverTag: '(Ubuntu)',
    php: '7.4.3-4ubuntu2.24',
    mysql: ['8.0.33-0ubuntu0.20.04.2', '8.0.36-0ubuntu0.20.04.1', '8.0.40-0ubuntu0.20.04.1'],
  },
  {
    id: 'ubuntu-24.04',
    family: 'ubuntu',
    os: ubuntu('24.04'),
    ssh: [['OpenSSH_9.6p1', 'Ubuntu-3ubuntu13.4'], ['OpenSSH_9.6p1', 'Ubuntu-3ubuntu13.5'], ['OpenSSH_9.6p1', 'Ubuntu-3ubuntu13.11']],
    apache: ['2.4.58'],
    nginx: ['1.24.0'],
    serverTag: '(Ubuntu)',
    php: '8.3.6',
    mysql: ['8.0.39-0ubuntu0.24.04.2', '8.0.42-0ubuntu0.24.04.1'],
  },
  {
    id: 'ubuntu-18.04',
    family: 'ubuntu',
    os: ubuntu('18.04'),
    ssh: [['OpenSSH_7.6p1', 'Ubuntu-4ubuntu0.5'], ['OpenSSH_7.6p1', 'Ubuntu-4ubuntu0.7']],
    apache: ['2.4.29'],
    nginx: ['1.14.0'],
    serverTag: '(Ubuntu)',
    php: '7.2.24-0ubuntu0.18.04.17',
    mysql: ['5.7.42-0ubuntu0.18.04.1'],
  },
  {
    id: 'debian-12',
    family: 'debian',
    os: cpe('o', 'debian', 'debian_linux', '12', { family: 'Linux' }),
    ssh: [['OpenSSH_9.2p1', 'Debian-2+deb12u2'], ['OpenSSH_9.2p1', 'Debian-2+deb12u3'], ['OpenSSH_9.2p1', 'Debian-2+deb12u5']],
    apache: ['2.4.59', '2.4.61', '2.4.62'],
    nginx: ['1.22.1'],
    serverTag: '(Debian)',
    php: '8.2.24',
  },
  {
    id: 'debian-11',
    family: 'debian',
    os: cpe('o', 'debian', 'debian_linux', '11', { family: 'Linux' }),
    ssh: [['OpenSSH_8.4p1', 'Debian-5+deb11u1'], ['OpenSSH_8.4p1', 'Debian-5+deb11u3']],
    apache: ['2.4.56', '2.4.62'],
    nginx: ['1.18.0'],
    serverTag: '(Debian)',
    php: '7.4.33',
  },
  {
    id: 'debian-10',
    family: 'debian',
    os: cpe('o', 'debian', 'debian_linux', '10', { family: 'Linux' }),
    ssh: [['OpenSSH_7.9p1', 'Debian-10+deb10u2'], ['OpenSSH_7.9p1', 'Debian-10+deb10u4']],
    apache: ['2.4.38'],
    nginx: ['1.14.2'],
    serverTag: '(Debian)',
    php: '7.3.31-1~deb10u7',
  },
  {
    id: 'centos-7',
    family: 'centos',
    os: cpe('o', 'centos', 'centos', '7', { family: 'Linux' }),
    ssh: [['OpenSSH_7.4', '']],
    apache: ['2.4.6'],
    nginx: ['1.20.1'],
    serverTag: '(CentOS)',
    php: '5.4.16',
  },
  {
    id: 'rocky-9',
    family: 'rhel',
    os: cpe('o', 'rocky', 'rocky_linux', '9', { family: 'Linux' }),
    ssh: [['OpenSSH_8.7', '']],
    apache: ['2.4.57', '2.4.62'],
    nginx: ['1.20.1'],
    serverTag: '(Rocky Linux)',
  },
  {
    id: 'alma-9',
    family: 'rhel',
    os: cpe('o', 'almalinux', 'almalinux', '9', { family: 'Linux' }),
    ssh: [['OpenSSH_8.7', '']],
    apache: ['2.4.57', '2.4.62'],
    nginx: ['1.20.1'],
    serverTag: '(AlmaLinux)',
  },
  {
    id: 'rhel-8',
    family: 'rhel',
    os: cpe('o', 'redhat', 'enterprise_linux', '8', { family: 'Linux' }),
    ssh: [['OpenSSH_8.0', '']],
    apache: ['2.4.37'],
    nginx: ['1.14.1'],
    serverTag: '(Red Hat Enterprise Linux)',
  },
  {
    id: 'amazon-2023',
    family: 'amazon',
    os: cpe('o', 'amazon', 'linux_2023', undefined, { family: 'Linux' }),
    ssh: [['OpenSSH_8.7', '']],
    apache: ['2.4.58', '2.4.62'],
    nginx: ['1.24.0'],
    serverTag: '()',
  },
  {
    id: 'freebsd-13',
    family: 'freebsd',
    os: cpe('o', 'freebsd', 'freebsd', '13.2', { family: 'FreeBSD' }),
    ssh: [['OpenSSH_9.3', 'FreeBSD-20230316'], ['OpenSSH_9.3', 'FreeBSD-20230719']],
    apache: ['2.4.57'],
    nginx: ['1.24.0'],
    serverTag: '(FreeBSD)',
  },
  {
    id: 'windows-2022',
    family: 'windows',
    os: cpe('o', 'microsoft', 'windows_server_2022', undefined, { family: 'Windows' }),
    ssh: [['OpenSSH_for_Windows_8.1', ''], ['OpenSSH_for_Windows_9.5', '']],
    iis: '10.0',
  },
  {
    id: 'windows-2019',
    family: 'windows',
    os: cpe('o', 'microsoft', 'windows_server_2019', undefined, { family: 'Windows' }),
    ssh: [['OpenSSH_for_Windows_7.7', ''], ['OpenSSH_for_Windows_8.1', '']],
    iis: '10.0',
  },
  {
    id: 'windows-2016',
    family: 'windows',
    os: cpe('o', 'microsoft', 'windows_server_2016', undefined, { family: 'Windows' }),
    ssh: [['OpenSSH_for_Windows_7.7', '']],
    iis: '10.0',
  },
  {
    id: 'windows-2012r2',
    family: 'windows',
    os: cpe('o', 'microsoft', 'windows_server_2012', 'r2', { family: 'Windows' }),
    ssh: [['OpenSSH_for_Windows_7.7', '']],
    iis: '8.5',
  },
  {
    id: 'windows-10',
    family: 'windows',
    os: cpe('o', 'microsoft', 'windows_10', undefined, { family: 'Windows' }),
    ssh: [['OpenSSH_for_Windows_8.1', '']],
    iis: '10.0',
  },
  {
    id: 'routeros-6',
    family: 'mikrotik',
    os: cpe('o', 'mikrotik', 'routeros', '6.49.7', { family: 'RouterOS' }),
    ssh: [['ROSSSH', '']],
  },
  {
    id: 'routeros-7',
    family: 'mikrotik',
    os: cpe('o', 'mikrotik', 'routeros', '7.14.3', { family: 'RouterOS' }),
    ssh: [['ROSSSH', '']],
  },
  {
    id: 'cisco-ios',
    family: 'cisco',
    os: cpe('o', 'cisco', 'ios', '15.2', { family: 'IOS' }),
    ssh: [['Cisco-1.25', '']],
  },
  {
    id: 'embedded-linux',
    family: 'embedded',
    os: cpe('o', 'linux', 'linux_kernel', undefined, { family: 'Linux' }),
    ssh: [['dropbear_2019.78', ''], ['dropbear_2020.81', ''], ['dropbear_2022.83', '']],
  },
];

export const OS_BY_ID: ReadonlyMap<string, OsDef> = new Map(OPERATING_SYSTEMS.map((o) => [o.id, o]));

export const LINUX_SERVER_OS: readonly (readonly [string, number])[] = [
  ['ubuntu-22.04', 25],
  ['ubuntu-20.04', 18],
  ['ubuntu-24.04', 9],
  ['ubuntu-18.04', 6],
  ['debian-12', 11],
  ['debian-11', 8],
  ['debian-10', 4],
  ['centos-7', 8],
  ['rocky-9', 3],
  ['alma-9', 3],
  ['rhel-8', 3],
  ['amazon-2023', 2],
  ['freebsd-13', 1],
];

export const WINDOWS_SERVER_OS: readonly (readonly [string, number])[] = [
  ['windows-2019', 40],
  ['windows-2022', 30],
  ['windows-2016', 20],
  ['windows-2012r2', 10],
];

export const DEVICE_OS: readonly (readonly [string, number])[] = [
  ['routeros-6', 25],
  ['routeros-7', 20],
  ['embedded-linux', 45],
  ['cisco-ios', 10],
];

/** OpenSSH software from a banner software part like `OpenSSH_8.9p1` (version 8.9, update p1). */
export function sshSoftware(softwareVersion: string): SoftwareDoc | undefined {
  let m = softwareVersion.match(/^OpenSSH_(\d+\.\d+)(p\d+)?$/);
  if (m) return cpe('a', 'openbsd', 'openssh', m[1], m[2] ? { update: m[2] } : {});
  m = softwareVersion.match(/^OpenSSH_for_Windows_(\d+\.\d+)$/);
  if (m) return cpe('a', 'microsoft', 'openssh', m[1]);
  m = softwareVersion.match(/^dropbear_(\d+\.\d+)$/);
  if (m) return cpe('a', 'dropbear_ssh_project', 'dropbear_ssh', m[1]);
  if (softwareVersion === 'ROSSSH') return cpe('a', 'mikrotik', 'rosssh');
  if (softwareVersion.startsWith('Cisco-')) return cpe('a', 'cisco', 'ssh', softwareVersion.slice(6));
  return undefined;
}

/** Upstream versions offered when a distribution version is not used, oldest first. */
export const UPSTREAM = {
  nginx: ['1.20.2', '1.22.1', '1.24.0', '1.25.3', '1.26.2', '1.27.3'],
  apache: ['2.4.54', '2.4.57', '2.4.58', '2.4.62'],
  openresty: ['1.19.9.1', '1.21.4.1', '1.21.4.3', '1.25.3.1'],
  lighttpd: ['1.4.59', '1.4.64', '1.4.69', '1.4.76'],
  tomcat: ['8.5.93', '9.0.58', '9.0.83', '10.1.17'],
  jetty: ['9.4.44.v20210927', '9.4.51.v20230217', '10.0.18', '11.0.20'],
  vsftpd: ['2.3.4', '3.0.2', '3.0.3', '3.0.5'],
  proftpd: ['1.3.5e', '1.3.6', '1.3.7a', '1.3.8b'],
  pureftpd: [''],
  filezilla: ['0.9.60 beta', '1.8.1'],
  exim: ['4.94.2', '4.95', '4.96', '4.97.1'],
  postfix: [''],
  redis: ['5.0.7', '6.0.16', '6.2.14', '7.0.15', '7.2.4'],
  mongodb: ['4.4.29', '5.0.26', '6.0.14', '7.0.12'],
  elasticsearch: ['6.8.23', '7.10.2', '7.17.18', '8.12.2'],
  memcached: ['1.5.22', '1.6.14', '1.6.21', '1.6.29'],
  mariadb: ['10.3.39', '10.5.23', '10.6.18', '10.11.6'],
  mysql: ['5.7.44', '8.0.35', '8.0.40', '8.4.2'],
  bind: ['9.11.5-P4-5.1+deb10u11-Debian', '9.16.1-Ubuntu', '9.18.28-0ubuntu0.22.04.1-Ubuntu', '9.18.33-1~deb12u2-Debian'],
  dnsmasq: ['2.80', '2.85', '2.89', '2.90'],
} as const;
