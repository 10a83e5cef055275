/**
 * Services that should not face the internet (databases, caches, remote access, device
 * management, industrial protocols), and the weaker settings some of them show.
 */
import type { Finding, ServiceDoc } from '../risk-model.ts';
import { at, boolAt, headerValues, httpBody, numAt, protocol, serviceName, strAt } from '../service-view.ts';
import { finding, type ServiceDetector } from './detector.ts';

interface Exposure {
  readonly type: string;
  /** Censys service names (upper case) that identify the service. */
  readonly names: readonly string[];
  /** When false for a service, the server refused the scanner before any login was offered. */
  readonly reachable?: (s: ServiceDoc) => boolean;
  readonly evidence?: (s: ServiceDoc) => Record<string, unknown>;
}

const pick = (s: ServiceDoc, paths: readonly string[]): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const p of paths) {
    const v = at(s, p);
    if (v !== undefined) out[p] = v;
  }
  return out;
};

export const EXPOSURES: readonly Exposure[] = [
  {
    type: 'service.database.mysql_exposed',
    names: ['MYSQL'],
    // Error 1130 ("Host ... is not allowed to connect") means the server rejects unknown clients outright.
    reachable: (s) => numAt(s, 'mysql.error_code') !== 1130,
    evidence: (s) => pick(s, ['mysql.server_version', 'mysql.error_code']),
  },
  {
    type: 'service.database.postgres_exposed',
    names: ['POSTGRES', 'POSTGRESQL'],
    // SQLSTATE 28000 from pg_hba.conf: no rule lets the scanner's address in.
    reachable: (s) => strAt(s, 'postgres.startup_error.code') !== '28000',
    evidence: (s) => pick(s, ['postgres.authentication_mode.mode', 'postgres.supported_versions']),
  },
  { type: 'service.database.mongodb_exposed', names: ['MONGODB'], evidence: (s) => pick(s, ['mongodb.build_info.version']) },
  { type: 'service.database.redis_exposed', names: ['REDIS'], evidence: (s) => pick(s, ['redis.ping_response']) },
  { type: 'service.database.elasticsearch_exposed', names: ['ELASTICSEARCH'], evidence: (s) => pick(s, ['elasticsearch.node_info.cluster_combined_info.name']) },
  { type: 'service.database.memcached_exposed', names: ['MEMCACHED'], evidence: (s) => pick(s, ['memcached.version']) },
  { type: 'service.database.mssql_exposed', names: ['MSSQL'], evidence: (s) => pick(s, ['mssql.version', 'mssql.instance_name']) },
  { type: 'service.database.couchdb_exposed', names: ['COUCHDB'] },
  { type: 'service.database.cassandra_exposed', names: ['CASSANDRA'] },
  { type: 'service.database.oracle_exposed', names: ['ORACLE'] },
  { type: 'service.remote_access.rdp_exposed', names: ['RDP'] },
  { type: 'service.remote_access.vnc_exposed', names: ['VNC'], evidence: (s) => pick(s, ['vnc.version']) },
  { type: 'service.remote_access.telnet_exposed', names: ['TELNET'] },
  { type: 'service.remote_access.smb_exposed', names: ['SMB'], evidence: (s) => pick(s, ['smb.smb_version.version_string']) },
  { type: 'service.remote_access.x11_exposed', names: ['X11'] },
  { type: 'service.remote_access.ipmi_exposed', names: ['IPMI'] },
  { type: 'service.container.kubernetes_api_exposed', names: ['KUBERNETES'], evidence: (s) => pick(s, ['kubernetes.kubernetes_dashboard_found']) },
  { type: 'service.ics.exposed', names: ['MODBUS', 'S7', 'BACNET', 'DNP3', 'FOX', 'ETHERNETIP', 'IEC60870_5_104', 'CODESYS', 'OPC_UA', 'MMS', 'PCWORX', 'GE_SRTP', 'HART', 'FINS'] },
];

const BY_NAME = new Map<string, Exposure[]>();
for (const e of EXPOSURES) for (const n of e.names) BY_NAME.set(n, [...(BY_NAME.get(n) ?? []), e]);

export const exposedService: ServiceDetector = {
  id: 'exposed-service',
  family: 'exposure',
  on: 'service',
  types: EXPOSURES.map((e) => e.type),
  detect(s) {
    const name = serviceName(s);
    const list = BY_NAME.get(name) ?? [];
    const out: Finding[] = [];
    for (const e of list) if (!e.reachable || e.reachable(s)) out.push(finding(e.type, { serviceName: name, ...(e.evidence ? e.evidence(s) : {}) }));
    return out;
  },
};

export const redisWithoutAuth: ServiceDetector = {
  id: 'redis-no-auth',
  family: 'exposure',
  on: 'service',
  types: ['service.database.redis_no_auth'],
  detect(s) {
    if (serviceName(s) !== 'REDIS') return [];
    const ping = strAt(s, 'redis.ping_response') ?? '';
    return /^\+?PONG$/i.test(ping.trim()) ? [finding('service.database.redis_no_auth', { pingResponse: ping })] : [];
  },
};

export const rdpWithoutNla: ServiceDetector = {
  id: 'rdp-without-nla',
  family: 'exposure',
  on: 'service',
  types: ['service.remote_access.rdp_without_nla'],
  detect(s) {
    if (serviceName(s) !== 'RDP') return [];
    const credssp = boolAt(s, 'rdp.selected_security_protocol.credssp');
    const early = boolAt(s, 'rdp.selected_security_protocol.credssp_early_auth');
    if (credssp === false && early !== true) return [finding('service.remote_access.rdp_without_nla', { selectedSecurityProtocol: at(s, 'rdp.selected_security_protocol') })];
    return [];
  },
};

export const vncWithoutAuth: ServiceDetector = {
  id: 'vnc-no-auth',
  family: 'exposure',
  on: 'service',
  types: ['service.remote_access.vnc_no_auth'],
  detect(s) {
    if (serviceName(s) !== 'VNC') return [];
    const types = at(s, 'vnc.security_types');
    const list = Array.isArray(types) ? types : [];
    // RFB security type 1 is "None".
    const none = list.some((t) => (t && typeof t === 'object' && ((t as Record<string, unknown>).value === 1 || String((t as Record<string, unknown>).name).toLowerCase() === 'none')));
    return none ? [finding('service.remote_access.vnc_no_auth', { securityTypes: list, ...(strAt(s, 'vnc.desktop_name') ? { desktopName: strAt(s, 'vnc.desktop_name') } : {}) })] : [];
  },
};

export const smbV1: ServiceDetector = {
  id: 'smbv1-enabled',
  family: 'exposure',
  on: 'service',
  types: ['service.remote_access.smbv1_enabled'],
  detect(s) {
    return serviceName(s) === 'SMB' && boolAt(s, 'smb.smbv1_support') === true ? [finding('service.remote_access.smbv1_enabled', { smbv1Support: true })] : [];
  },
};

export const snmpPublic: ServiceDetector = {
  id: 'snmp-public',
  family: 'exposure',
  on: 'service',
  types: ['service.snmp.public_community'],
  detect(s) {
    // The scanner asks with the default community; any system data in the answer means it was accepted.
    const system = protocol(s, 'snmp')?.oid_system;
    if (serviceName(s) !== 'SNMP' || !system || typeof system !== 'object') return [];
    return [finding('service.snmp.public_community', pick(s, ['snmp.oid_system.desc', 'snmp.oid_system.name']))];
  },
};

export const ntpAmplification: ServiceDetector = {
  id: 'ntp-amplification',
  family: 'exposure',
  on: 'service',
  types: ['service.ntp.amplification'],
  detect(s) {
    if (serviceName(s) !== 'NTP' || (s.transport_protocol ?? 'UDP').toUpperCase() !== 'UDP') return [];
    return [finding('service.ntp.amplification', pick(s, ['ntp.get_time_header.stratum', 'ntp.get_time_header.version']))];
  },
};

export const memcachedUdp: ServiceDetector = {
  id: 'memcached-udp',
  family: 'exposure',
  on: 'service',
  types: ['service.memcached.udp_amplification'],
  detect(s) {
    const udp = (s.transport_protocol ?? '').toUpperCase() === 'UDP';
    if (serviceName(s) !== 'MEMCACHED' || !(boolAt(s, 'memcached.responds_to_udp') === true || udp)) return [];
    return [finding('service.memcached.udp_amplification', { respondsToUdp: true })];
  },
};

export const openResolver: ServiceDetector = {
  id: 'dns-open-resolver',
  family: 'exposure',
  on: 'service',
  types: ['service.dns.open_resolver'],
  detect(s) {
    if (serviceName(s) !== 'DNS') return [];
    const type = strAt(s, 'dns.server_type') ?? '';
    const resolves = boolAt(s, 'dns.resolves_correctly');
    if ((type === 'RECURSIVE_RESOLVER' || type === 'FORWARDING') && resolves === true) return [finding('service.dns.open_resolver', { serverType: type })];
    return [];
  },
};

export const mqttWithoutAuth: ServiceDetector = {
  id: 'mqtt-no-auth',
  family: 'exposure',
  on: 'service',
  types: ['service.mqtt.no_auth'],
  detect(s) {
    if (serviceName(s) !== 'MQTT') return [];
    // CONNACK return code 0 = connection accepted without credentials.
    const code = numAt(s, 'mqtt.connection_ack_return.return_value') ?? numAt(s, 'mqtt.connection_ack_return.raw');
    return code === 0 ? [finding('service.mqtt.no_auth', { connackReturnCode: 0 })] : [];
  },
};

export const dockerApi: ServiceDetector = {
  id: 'docker-api',
  family: 'exposure',
  on: 'service',
  types: ['service.container.docker_api_exposed'],
  detect(s) {
    const server = headerValues(s, 'server').find((v) => /^Docker\//i.test(v));
    const apiVersion = headerValues(s, 'api-version')[0];
    const body = httpBody(s) ?? '';
    const versionDoc = /"ApiVersion"\s*:/.test(body) && /"(MinAPIVersion|GoVersion|KernelVersion)"\s*:/.test(body);
    if (!server && !(apiVersion && (headerValues(s, 'ostype').length || headerValues(s, 'docker-experimental').length)) && !versionDoc) return [];
    return [finding('service.container.docker_api_exposed', { ...(server ? { server } : {}), ...(apiVersion ? { apiVersion } : {}), versionDocument: versionDoc })];
  },
};
