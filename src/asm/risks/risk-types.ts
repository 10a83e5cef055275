/**
 * The catalogue of risk types Periscope detects. Ids are stable: risk instances, events and user
 * overrides refer to them, so an id is never renamed or reused once shipped.
 */
import type { ContextType, RiskType, Severity, SubjectType } from './risk-model.ts';

interface Spec {
  readonly name: string;
  readonly severity: Severity;
  readonly recommended?: Severity;
  readonly categories: readonly string[];
  readonly description: string;
  readonly remediations: readonly string[];
  readonly contextType?: ContextType;
  readonly subjectType?: SubjectType;
  readonly config?: string;
}

function make(type: string, s: Spec): RiskType {
  return {
    type,
    name: s.name,
    description: s.description,
    contextType: s.contextType ?? 'service',
    subjectType: s.subjectType ?? 'HOST',
    defaultSeverity: s.severity,
    recommendedSeverity: s.recommended ?? s.severity,
    defaultCategories: s.categories.map((c) => [c]),
    remediations: s.remediations,
    enabled: true,
    config: s.config ?? '',
  };
}

const RENEW = 'Renew the certificate with a publicly trusted certificate authority and deploy it on every service that presents it.';
const FIREWALL = 'Restrict the port to trusted networks with a firewall or security group, or put the service behind a VPN.';
const AUTH = 'Require authentication for every client and remove anonymous or default accounts.';
const UPGRADE = 'Upgrade to a release in which the vulnerability is fixed, or apply the vendor or distribution patch.';
const SUPPORTED = 'Migrate to a release that still receives security updates.';

const presentedCert = (name: string, severity: Severity, description: string, remediations: readonly string[], config = ''): Spec => ({
  name,
  severity,
  categories: ['Certificates', 'Service Certificates'],
  description,
  remediations,
  config,
});

const certAsset = (name: string, severity: Severity, description: string, remediations: readonly string[], config = ''): Spec => ({
  name,
  severity,
  categories: ['Certificates', 'Certificate Hygiene'],
  contextType: 'cert',
  subjectType: 'CERT',
  description,
  remediations,
  config,
});

const exposed = (name: string, severity: Severity, sub: string, description: string, extra: readonly string[] = [], recommended?: Severity): Spec => ({
  name,
  severity,
  ...(recommended ? { recommended } : {}),
  categories: ['Exposure', sub],
  description,
  remediations: [FIREWALL, ...extra],
});

const vulnerable = (name: string, severity: Severity, description: string): Spec => ({
  name,
  severity,
  categories: ['Vulnerabilities', 'Vulnerable Software'],
  description,
  remediations: [UPGRADE],
});

const eol = (name: string, severity: Severity, description: string, contextType: ContextType = 'service'): Spec => ({
  name,
  severity,
  categories: ['Software', 'End-of-Life Software'],
  contextType,
  description,
  remediations: [SUPPORTED],
});

const SPECS: readonly (readonly [string, Spec])[] = [
  // Certificates presented by a service of a host.
  ['tls.certificate.expired', presentedCert('Expired certificate', 'high', 'A TLS service presents a certificate whose validity period has ended; clients reject it or users learn to click through warnings.', [RENEW])],
  ['tls.certificate.expiring_soon', presentedCert('Certificate expiring soon', 'medium', 'A TLS service presents a certificate that expires within the configured number of days.', [RENEW, 'Automate renewal (for example with ACME) so certificates are replaced well before they expire.'], 'days=30')],
  ['tls.certificate.self_signed', presentedCert('Self-signed certificate', 'medium', 'A TLS service presents a self-signed certificate, which clients cannot authenticate.', [RENEW])],
  ['tls.certificate.untrusted_chain', presentedCert('Untrusted certificate chain', 'medium', 'The certificate a TLS service presents does not chain to a root trusted by common browsers.', [RENEW, 'Serve the complete intermediate chain.'])],
  ['tls.certificate.weak_key', presentedCert('Weak certificate key', 'high', 'The certificate a TLS service presents uses a public key that is too short (RSA or DSA under 2048 bits, ECDSA under 224 bits).', ['Issue a new certificate with an RSA key of at least 2048 bits or an ECDSA P-256 key.'])],
  ['tls.certificate.weak_signature', presentedCert('Weak certificate signature algorithm', 'medium', 'The certificate a TLS service presents is signed with SHA-1 or MD5, for which collisions are practical.', ['Reissue the certificate with a SHA-256 (or stronger) signature.'])],
  ['tls.certificate.name_mismatch', presentedCert('Certificate name mismatch', 'medium', 'The certificate a TLS service presents does not cover any of the names the host is known by (wildcards taken into account).', ['Issue a certificate whose subject alternative names include every name the service answers to.'])],
  // Certificates as assets of their own.
  ['cert.expired', certAsset('Expired certificate asset', 'medium', 'A certificate that belongs to the attack surface has expired.', [RENEW, 'Remove the certificate from every service still presenting it.'])],
  ['cert.expiring_soon', certAsset('Certificate asset expiring soon', 'low', 'A certificate that belongs to the attack surface expires within the configured number of days.', [RENEW], 'days=30')],
  ['cert.self_signed', certAsset('Self-signed certificate asset', 'low', 'A certificate that belongs to the attack surface is self-signed.', [RENEW])],
  ['cert.untrusted', certAsset('Untrusted certificate asset', 'medium', 'A certificate that belongs to the attack surface is not trusted by common root stores.', [RENEW])],
  ['cert.weak_key', certAsset('Certificate asset with a weak key', 'high', 'A certificate that belongs to the attack surface has a public key that is too short.', ['Replace the certificate with one using an RSA key of at least 2048 bits or an ECDSA P-256 key.'])],
  ['cert.weak_signature', certAsset('Certificate asset with a weak signature', 'medium', 'A certificate that belongs to the attack surface is signed with SHA-1 or MD5.', ['Replace the certificate with one signed with SHA-256 or stronger.'])],
  ['cert.revoked', certAsset('Revoked certificate', 'high', 'A certificate that belongs to the attack surface has been revoked by its issuer.', ['Replace the certificate and find out why it was revoked (for example a key compromise).'])],
  // Protocol versions and ciphers.
  ['tls.version.ssl', { name: 'SSL protocol negotiated', severity: 'high', categories: ['Encryption', 'Weak TLS'], description: 'A service negotiated SSLv2 or SSLv3, protocols with practical attacks (DROWN, POODLE).', remediations: ['Disable SSLv2 and SSLv3; allow only TLS 1.2 and TLS 1.3.'] }],
  ['tls.version.tls1_0', { name: 'TLS 1.0 negotiated', severity: 'medium', categories: ['Encryption', 'Weak TLS'], description: 'A service negotiated TLS 1.0, deprecated by RFC 8996.', remediations: ['Disable TLS 1.0; allow only TLS 1.2 and TLS 1.3.'] }],
  ['tls.version.tls1_1', { name: 'TLS 1.1 negotiated', severity: 'medium', categories: ['Encryption', 'Weak TLS'], description: 'A service negotiated TLS 1.1, deprecated by RFC 8996.', remediations: ['Disable TLS 1.1; allow only TLS 1.2 and TLS 1.3.'] }],
  ['tls.cipher.weak', { name: 'Weak TLS cipher negotiated', severity: 'medium', categories: ['Encryption', 'Weak TLS'], description: 'A service negotiated a cipher suite with RC4, DES, 3DES, NULL or export-grade encryption.', remediations: ['Allow only AEAD cipher suites (AES-GCM, ChaCha20-Poly1305) with forward secrecy.'] }],
  // Databases and caches.
  ['service.database.mysql_exposed', exposed('Exposed MySQL server', 'high', 'Databases', 'A MySQL or MariaDB server accepts connections from the internet and offers a login.', ['Bind the server to a private interface (bind-address).'])],
  ['service.database.postgres_exposed', exposed('Exposed PostgreSQL server', 'high', 'Databases', 'A PostgreSQL server accepts connections from the internet and asks for credentials.', ['Limit listen_addresses and pg_hba.conf to trusted networks.'])],
  ['service.database.mongodb_exposed', exposed('Exposed MongoDB server', 'high', 'Databases', 'A MongoDB server answers commands from the internet.', [AUTH])],
  ['service.database.redis_exposed', exposed('Exposed Redis server', 'high', 'Databases', 'A Redis server accepts connections from the internet.', ['Enable protected mode and bind Redis to a private interface.'])],
  ['service.database.redis_no_auth', exposed('Redis without authentication', 'critical', 'Databases', 'A Redis server answers commands without a password, so anyone can read, change or delete its data and often run code on the host.', [AUTH])],
  ['service.database.elasticsearch_exposed', exposed('Exposed Elasticsearch cluster', 'high', 'Databases', 'An Elasticsearch node answers REST requests from the internet and discloses cluster information.', ['Enable Elasticsearch security features (authentication and TLS).'], 'critical')],
  ['service.database.memcached_exposed', exposed('Exposed Memcached server', 'high', 'Databases', 'A Memcached server, which has no authentication by default, accepts connections from the internet.', ['Bind Memcached to localhost or a private interface.'])],
  ['service.database.mssql_exposed', exposed('Exposed Microsoft SQL Server', 'high', 'Databases', 'A Microsoft SQL Server instance accepts connections from the internet.')],
  ['service.database.couchdb_exposed', exposed('Exposed CouchDB server', 'high', 'Databases', 'A CouchDB server answers requests from the internet.', [AUTH])],
  ['service.database.cassandra_exposed', exposed('Exposed Cassandra node', 'high', 'Databases', 'A Cassandra node accepts CQL connections from the internet.', [AUTH])],
  ['service.database.oracle_exposed', exposed('Exposed Oracle database listener', 'high', 'Databases', 'An Oracle TNS listener accepts connections from the internet.')],
  // Remote access.
  ['service.remote_access.rdp_exposed', exposed('Exposed RDP', 'high', 'Remote Access', 'Remote Desktop is reachable from the internet, a frequent target of credential stuffing and ransomware operators.', ['Require a VPN or an RD Gateway with multi-factor authentication.'])],
  ['service.remote_access.rdp_without_nla', exposed('RDP without Network Level Authentication', 'medium', 'Remote Access', 'A Remote Desktop service accepts sessions without Network Level Authentication (CredSSP), exposing the login screen to unauthenticated clients.', ['Require Network Level Authentication.'])],
  ['service.remote_access.vnc_exposed', exposed('Exposed VNC', 'high', 'Remote Access', 'A VNC server is reachable from the internet.')],
  ['service.remote_access.vnc_no_auth', exposed('VNC without authentication', 'critical', 'Remote Access', 'A VNC server offers the "None" security type: anyone can take over the desktop.', [AUTH])],
  ['service.remote_access.telnet_exposed', exposed('Exposed Telnet', 'high', 'Remote Access', 'A Telnet service, which sends credentials in clear text, is reachable from the internet.', ['Disable Telnet and use SSH.'])],
  ['service.remote_access.smb_exposed', exposed('Exposed SMB', 'high', 'Remote Access', 'Windows file sharing (SMB) is reachable from the internet.', ['Block TCP 445 and 139 at the network edge.'])],
  ['service.remote_access.smbv1_enabled', exposed('SMBv1 enabled', 'high', 'Remote Access', 'An internet-facing SMB server still supports SMBv1, the protocol version exploited by EternalBlue.', ['Disable SMBv1.'])],
  ['service.remote_access.x11_exposed', exposed('Exposed X11 server', 'high', 'Remote Access', 'An X11 display server is reachable from the internet; an open one lets anyone capture the screen and keystrokes.')],
  ['service.remote_access.ipmi_exposed', exposed('Exposed IPMI', 'high', 'Remote Access', 'A baseboard management controller answers IPMI from the internet; IPMI 2.0 discloses password hashes to unauthenticated clients.', ['Put management interfaces on a dedicated management network.'])],
  // File transfer.
  ['service.ftp.anonymous_login', { name: 'Anonymous FTP login', severity: 'high', categories: ['Exposure', 'File Sharing'], description: 'An FTP server announces that anonymous logins are allowed.', remediations: ['Disable anonymous access unless the server is meant to publish public files, and never allow anonymous uploads.'] }],
  ['service.ftp.no_tls', { name: 'FTP without TLS', severity: 'low', categories: ['Encryption', 'Clear-Text Protocols'], description: 'An FTP server does not support AUTH TLS, so credentials and files cross the network in clear text.', remediations: ['Enable FTPS (AUTH TLS) or replace FTP with SFTP.'] }],
  // Web.
  ['service.http.login_over_plaintext', { name: 'Login page over plain HTTP', severity: 'high', categories: ['Encryption', 'Clear-Text Protocols'], description: 'A page with a password field is served over HTTP without TLS, so credentials can be read on the network.', remediations: ['Serve the page only over HTTPS and redirect HTTP to HTTPS.'] }],
  ['service.http.basic_auth_over_plaintext', { name: 'HTTP Basic authentication over plain HTTP', severity: 'medium', categories: ['Encryption', 'Clear-Text Protocols'], description: 'A service asks for HTTP Basic credentials over HTTP without TLS; Basic credentials are only base64-encoded.', remediations: ['Require HTTPS for every authenticated resource.'] }],
  ['service.http.missing_hsts', { name: 'Missing HSTS header', severity: 'low', categories: ['Web Security', 'Security Headers'], description: 'An HTTPS service does not send Strict-Transport-Security, so browsers may be downgraded to HTTP.', remediations: ['Send Strict-Transport-Security with a max-age of at least six months.'] }],
  ['service.http.missing_security_headers', { name: 'Missing common security headers', severity: 'low', categories: ['Web Security', 'Security Headers'], description: 'A web page is served without X-Frame-Options (or a CSP frame-ancestors directive) or without X-Content-Type-Options.', remediations: ['Send X-Frame-Options (or Content-Security-Policy frame-ancestors) and X-Content-Type-Options: nosniff.'] }],
  ['service.http.directory_listing', { name: 'Directory listing enabled', severity: 'medium', categories: ['Exposure', 'Information Disclosure'], description: 'A web server lists the files of a directory, often revealing backups, dumps and configuration files.', remediations: ['Disable automatic directory indexes (autoindex off, Options -Indexes).'] }],
  ['service.http.admin_panel_exposed', { name: 'Exposed administration interface', severity: 'medium', categories: ['Exposure', 'Administration Interfaces'], description: 'The login page of an administration tool or device management interface is reachable from the internet.', remediations: [FIREWALL, 'Require multi-factor authentication on administration interfaces.'] }],
  ['service.http.default_page', { name: 'Default web server page', severity: 'low', categories: ['Exposure', 'Information Disclosure'], description: 'A web server shows its installation default page, a sign of an unmanaged or forgotten server.', remediations: ['Remove the server if it is not needed, or replace the default page.'] }],
  // Containers and orchestration.
  ['service.container.docker_api_exposed', exposed('Exposed Docker Engine API', 'critical', 'Containers', 'The Docker Engine API is reachable without TLS client authentication: anyone can start containers and take over the host.', ['Never expose the Docker socket on TCP without mutual TLS.'])],
  ['service.container.kubernetes_api_exposed', exposed('Exposed Kubernetes API', 'high', 'Containers', 'A Kubernetes API server or dashboard is reachable from the internet.', ['Restrict the API server to trusted networks and disable anonymous authentication.'])],
  // Network services.
  ['service.snmp.public_community', exposed('SNMP answers the public community', 'high', 'Network Services', 'An SNMP agent answers queries with a default community string, disclosing device details and sometimes allowing changes.', ['Disable SNMPv1/v2c or set non-default community strings; prefer SNMPv3.'])],
  ['service.ntp.amplification', exposed('NTP server usable for amplification', 'low', 'Network Services', 'An NTP server answers unauthenticated UDP requests from the internet and can be abused for reflection attacks (monlist, readvar).', ['Disable mode 6/7 queries (noquery) or restrict the server to its clients.'])],
  ['service.memcached.udp_amplification', exposed('Memcached over UDP', 'high', 'Network Services', 'A Memcached server answers over UDP, allowing reflection attacks with amplification factors above 10,000.', ['Disable UDP in Memcached (-U 0).'])],
  ['service.dns.open_resolver', exposed('Open DNS resolver', 'medium', 'Network Services', 'A DNS server resolves names for anyone on the internet and can be abused for amplification attacks.', ['Allow recursion only for your own clients.'])],
  ['service.mqtt.no_auth', exposed('MQTT broker without authentication', 'high', 'IoT', 'An MQTT broker accepts connections without credentials, so anyone can read and publish messages.', [AUTH])],
  ['service.ics.exposed', exposed('Exposed industrial control protocol', 'critical', 'ICS', 'An industrial control protocol (Modbus, S7, BACnet, DNP3, Fox, EtherNet/IP...) is reachable from the internet.', ['Isolate control networks from the internet.'])],
  // Software with known vulnerabilities (versions from vulnerable-software.ts).
  ['software.vulnerable.openssh_regresshion', vulnerable('OpenSSH regreSSHion (CVE-2024-6387)', 'critical', 'OpenSSH 8.5p1 up to 9.7p1 on glibc-based Linux has a signal-handler race allowing unauthenticated remote code execution as root.')],
  ['software.vulnerable.openssh_user_enumeration', vulnerable('OpenSSH user enumeration (CVE-2018-15473)', 'medium', 'OpenSSH up to 7.7 lets remote clients find out which user names exist.')],
  ['software.vulnerable.apache_path_traversal', vulnerable('Apache HTTP Server path traversal (CVE-2021-41773, CVE-2021-42013)', 'critical', 'Apache HTTP Server 2.4.49 and 2.4.50 allow path traversal and, with CGI enabled, remote code execution.')],
  ['software.vulnerable.nginx_resolver', vulnerable('nginx resolver off-by-one (CVE-2021-23017)', 'high', 'nginx 0.6.18 to 1.20.0 can be crashed, or possibly exploited, through crafted DNS responses when a resolver is configured.')],
  ['software.vulnerable.iis6_webdav', vulnerable('IIS 6.0 WebDAV buffer overflow (CVE-2017-7269)', 'critical', 'IIS 6.0 with WebDAV enabled allows unauthenticated remote code execution through a long If header in PROPFIND requests.')],
  ['software.vulnerable.openssl_heartbleed', vulnerable('OpenSSL Heartbleed (CVE-2014-0160)', 'high', 'OpenSSL 1.0.1 to 1.0.1f leaks process memory, including private keys, through TLS heartbeat requests.')],
  ['software.vulnerable.exim_remote_command', vulnerable('Exim remote command execution (CVE-2019-10149)', 'critical', 'Exim 4.87 to 4.91 allows remote command execution through crafted recipient addresses.')],
  ['software.vulnerable.exim_ntlm_auth', vulnerable('Exim SMTP AUTH out-of-bounds write (CVE-2023-42115)', 'critical', 'Exim before 4.96.1 has an out-of-bounds write in its external authenticator allowing unauthenticated remote code execution.')],
  ['software.vulnerable.vsftpd_backdoor', vulnerable('vsftpd 2.3.4 backdoor (CVE-2011-2523)', 'critical', 'The vsftpd 2.3.4 source archive distributed in 2011 contained a backdoor that opens a root shell on port 6200.')],
  ['software.vulnerable.proftpd_mod_copy', vulnerable('ProFTPD mod_copy file copy (CVE-2015-3306)', 'critical', 'ProFTPD 1.3.5 with mod_copy lets unauthenticated clients copy arbitrary files, leading to code execution.')],
  ['software.vulnerable.redis_lua_cjson', vulnerable('Redis Lua cjson heap overflow (CVE-2022-24834)', 'high', 'Redis before 6.0.20, 6.2.13 and 7.0.12 allows heap overflows through crafted Lua scripts, possibly leading to code execution.')],
  ['software.vulnerable.tomcat_ghostcat', vulnerable('Apache Tomcat Ghostcat (CVE-2020-1938)', 'high', 'Apache Tomcat before 7.0.100, 8.5.51 and 9.0.31 trusts AJP connections, allowing file reads and, with uploads, code execution.')],
  // End-of-life software (branches and dates in eol-software.ts).
  ['software.eol.php', eol('End-of-life PHP', 'medium', 'The PHP branch in use no longer receives security fixes.')],
  ['software.eol.apache_httpd', eol('End-of-life Apache HTTP Server', 'medium', 'The Apache HTTP Server branch in use (2.2 or older) no longer receives security fixes.')],
  ['software.eol.iis', eol('End-of-life IIS', 'medium', 'The IIS version in use shipped with a Windows release that no longer receives security updates.')],
  ['software.eol.nginx', eol('Outdated nginx branch', 'low', 'The nginx branch in use was superseded years ago and no longer receives fixes.')],
  ['software.eol.openssh', eol('Outdated OpenSSH', 'low', 'The OpenSSH release in use is older than 7.4 and lacks years of security fixes.')],
  ['software.eol.mysql', eol('End-of-life MySQL', 'medium', 'The MySQL release series in use has reached its end of life.')],
  ['software.eol.mariadb', eol('End-of-life MariaDB', 'medium', 'The MariaDB release series in use has reached its end of life.')],
  ['software.eol.mongodb', eol('End-of-life MongoDB', 'medium', 'The MongoDB release series in use has reached its end of life.')],
  ['software.eol.elasticsearch', eol('End-of-life Elasticsearch', 'medium', 'The Elasticsearch major version in use has reached its end of life.')],
  ['software.eol.tomcat', eol('End-of-life Apache Tomcat', 'medium', 'The Apache Tomcat branch in use no longer receives security fixes.')],
  ['software.eol.windows', eol('End-of-life Windows', 'high', 'The host runs a Windows release whose extended support has ended.', 'host')],
  ['software.eol.ubuntu', eol('End-of-standard-support Ubuntu', 'medium', 'The host runs an Ubuntu LTS release whose standard support has ended (only paid ESM updates remain).', 'host')],
  ['software.eol.debian', eol('End-of-life Debian', 'medium', 'The host runs a Debian release whose security and LTS support has ended.', 'host')],
  ['software.eol.centos', eol('End-of-life CentOS', 'medium', 'The host runs a CentOS release that no longer receives updates.', 'host')],
  // Object storage.
  ['storage.bucket.open', { name: 'Publicly listable storage bucket', severity: 'high', categories: ['Exposure', 'Cloud Storage'], contextType: 'storage', subjectType: 'STORAGE_BUCKET', description: 'Anyone can list the objects of a storage bucket.', remediations: ['Block public access on the bucket and grant access only to named identities.'] }],
  ['storage.bucket.public_read', { name: 'Publicly readable storage objects', severity: 'medium', categories: ['Exposure', 'Cloud Storage'], contextType: 'storage', subjectType: 'STORAGE_BUCKET', description: 'Objects of a storage bucket can be read anonymously, although the bucket cannot be listed.', remediations: ['Remove public read grants unless the bucket is meant to serve public content.'] }],
  ['storage.bucket.public_write', { name: 'Publicly writable storage bucket', severity: 'critical', categories: ['Exposure', 'Cloud Storage'], contextType: 'storage', subjectType: 'STORAGE_BUCKET', description: 'Anyone can upload or overwrite objects in a storage bucket.', remediations: ['Remove public write grants immediately and review the bucket for planted content.'] }],
];

export const RISK_TYPES: readonly RiskType[] = SPECS.map(([type, spec]) => make(type, spec));

const byId = new Map(RISK_TYPES.map((t) => [t.type, t]));

export function riskTypeById(type: string): RiskType | undefined {
  return byId.get(type);
}

/** Days before expiry at which `*.expiring_soon` fires, from the type's config (`days=N`). */
export function configNumber(config: string, key: string, fallback: number): number {
  const m = new RegExp(`(?:^|[;,\\s])${key}=(\\d+)`).exec(config);
  return m ? Number(m[1]) : fallback;
}
