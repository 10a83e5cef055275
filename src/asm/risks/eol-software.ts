/**
 * End-of-life dates of software branches (the last day the vendor or project shipped security
 * fixes for free; Ubuntu rows use the end of standard support). A row fires once `now` is past
 * its date, so the same table stays right as time passes.
 */
import type { ProductMatch } from './vulnerable-software.ts';
import type { VersionRange } from './version-compare.ts';

export const EOL_SOFTWARE_AS_OF = '2026-11-01';

export interface EolRow {
  readonly type: string;
  readonly match: ProductMatch;
  /** Versions of the branch; absent = every version of the product (e.g. `windows_server_2008`). */
  readonly versions?: VersionRange;
  /** Human name of the branch, e.g. `PHP 7.4`. */
  readonly branch: string;
  /** `YYYY-MM-DD`, the first day without support. */
  readonly eol: string;
}

const php = (from: string, below: string, eol: string, branch = `PHP ${from}`): EolRow => ({ type: 'software.eol.php', match: { vendors: ['php'], product: 'php' }, versions: { from, below }, branch, eol });
const win = (product: string, branch: string, eol: string): EolRow => ({ type: 'software.eol.windows', match: { vendors: ['microsoft'], product }, branch, eol });
const exact = (type: string, vendors: readonly string[], product: string, version: string, branch: string, eol: string): EolRow => ({ type, match: { vendors, product }, versions: { exact: [version] }, branch, eol });
const series = (type: string, vendors: readonly string[], product: string, from: string | undefined, below: string, branch: string, eol: string): EolRow => ({
  type,
  match: { vendors, product },
  versions: from === undefined ? { below } : { from, below },
  branch,
  eol,
});

export const EOL_SOFTWARE: readonly EolRow[] = [
  php('0', '7.0', '2019-01-01', 'PHP 5 and older'),
  php('7.0', '7.1', '2019-01-10'),
  php('7.1', '7.2', '2019-12-01'),
  php('7.2', '7.3', '2020-11-30'),
  php('7.3', '7.4', '2021-12-06'),
  php('7.4', '7.5', '2022-11-28'),
  php('8.0', '8.1', '2023-11-26'),
  php('8.1', '8.2', '2025-12-31'),
  php('8.2', '8.3', '2026-12-31'),
  php('8.3', '8.4', '2027-12-31'),
  series('software.eol.apache_httpd', ['apache'], 'http_server', undefined, '2.3', 'Apache HTTP Server 2.2', '2018-01-01'),
  exact('software.eol.iis', ['microsoft'], 'internet_information_services', '6.0', 'IIS 6.0 (Windows Server 2003)', '2015-07-14'),
  exact('software.eol.iis', ['microsoft'], 'internet_information_services', '7.0', 'IIS 7.0 (Windows Server 2008)', '2020-01-14'),
  exact('software.eol.iis', ['microsoft'], 'internet_information_services', '7.5', 'IIS 7.5 (Windows Server 2008 R2)', '2020-01-14'),
  exact('software.eol.iis', ['microsoft'], 'internet_information_services', '8.0', 'IIS 8.0 (Windows Server 2012)', '2023-10-10'),
  exact('software.eol.iis', ['microsoft'], 'internet_information_services', '8.5', 'IIS 8.5 (Windows Server 2012 R2)', '2023-10-10'),
  series('software.eol.nginx', ['f5', 'nginx', 'igor_sysoev'], 'nginx', undefined, '1.20', 'nginx before 1.20', '2021-04-20'),
  series('software.eol.openssh', ['openbsd'], 'openssh', undefined, '7.4', 'OpenSSH before 7.4', '2016-12-19'),
  series('software.eol.mysql', ['oracle', 'mysql'], 'mysql', undefined, '5.7', 'MySQL 5.6 and older', '2021-02-01'),
  series('software.eol.mysql', ['oracle', 'mysql'], 'mysql', '5.7', '5.8', 'MySQL 5.7', '2023-10-31'),
  series('software.eol.mysql', ['oracle', 'mysql'], 'mysql', '8.0', '8.1', 'MySQL 8.0', '2026-04-30'),
  series('software.eol.mariadb', ['mariadb'], 'mariadb', undefined, '10.4', 'MariaDB 10.3 and older', '2023-05-25'),
  series('software.eol.mariadb', ['mariadb'], 'mariadb', '10.5', '10.6', 'MariaDB 10.5', '2025-06-24'),
  series('software.eol.mariadb', ['mariadb'], 'mariadb', '10.6', '10.7', 'MariaDB 10.6', '2026-07-06'),
  series('software.eol.mongodb', ['mongodb'], 'mongodb', undefined, '4.4', 'MongoDB 4.2 and older', '2023-04-30'),
  series('software.eol.mongodb', ['mongodb'], 'mongodb', '4.4', '4.5', 'MongoDB 4.4', '2024-02-29'),
  series('software.eol.mongodb', ['mongodb'], 'mongodb', '5.0', '5.1', 'MongoDB 5.0', '2024-10-31'),
  series('software.eol.mongodb', ['mongodb'], 'mongodb', '6.0', '6.1', 'MongoDB 6.0', '2025-07-31'),
  series('software.eol.elasticsearch', ['elastic', 'elasticsearch'], 'elasticsearch', undefined, '7.0', 'Elasticsearch 6.x and older', '2022-02-10'),
  series('software.eol.tomcat', ['apache'], 'tomcat', undefined, '8.5', 'Apache Tomcat 8.0 and older', '2021-03-31'),
  series('software.eol.tomcat', ['apache'], 'tomcat', '8.5', '8.6', 'Apache Tomcat 8.5', '2024-03-31'),
  win('windows_xp', 'Windows XP', '2014-04-08'),
  win('windows_server_2003', 'Windows Server 2003', '2015-07-14'),
  win('windows_7', 'Windows 7', '2020-01-14'),
  win('windows_server_2008', 'Windows Server 2008', '2020-01-14'),
  win('windows_server_2012', 'Windows Server 2012', '2023-10-10'),
  win('windows_10', 'Windows 10', '2025-10-14'),
  exact('software.eol.ubuntu', ['canonical'], 'ubuntu_linux', '14.04', 'Ubuntu 14.04 LTS', '2019-04-30'),
  exact('software.eol.ubuntu', ['canonical'], 'ubuntu_linux', '16.04', 'Ubuntu 16.04 LTS', '2021-04-30'),
  exact('software.eol.ubuntu', ['canonical'], 'ubuntu_linux', '18.04', 'Ubuntu 18.04 LTS', '2023-05-31'),
  exact('software.eol.ubuntu', ['canonical'], 'ubuntu_linux', '20.04', 'Ubuntu 20.04 LTS', '2025-05-31'),
  exact('software.eol.debian', ['debian'], 'debian_linux', '8', 'Debian 8', '2020-06-30'),
  exact('software.eol.debian', ['debian'], 'debian_linux', '9', 'Debian 9', '2022-06-30'),
  exact('software.eol.debian', ['debian'], 'debian_linux', '10', 'Debian 10', '2024-06-30'),
  exact('software.eol.debian', ['debian'], 'debian_linux', '11', 'Debian 11', '2026-08-31'),
  exact('software.eol.centos', ['centos'], 'centos', '6', 'CentOS 6', '2020-11-30'),
  exact('software.eol.centos', ['centos'], 'centos', '7', 'CentOS 7', '2024-06-30'),
  exact('software.eol.centos', ['centos'], 'centos', '8', 'CentOS Linux 8', '2021-12-31'),
];
