import type { Transport } from '../observation.ts';

export interface ModuleInfo {
  /** Censys service name, when the protocol has one. */
  readonly serviceName?: string;
  readonly extendedServiceName?: string;
  readonly port?: number;
  readonly transport: Transport;
}

// zgrab2 protocol names (the `protocol` of each module result) with their usual ports and the
// Censys service names they correspond to.
const MODULES: ReadonlyMap<string, ModuleInfo> = new Map<string, ModuleInfo>([
  ['http', { serviceName: 'HTTP', port: 80, transport: 'TCP' }],
  ['tls', { port: 443, transport: 'TCP' }],
  ['ssh', { serviceName: 'SSH', port: 22, transport: 'TCP' }],
  ['banner', { transport: 'TCP' }],
  ['ftp', { serviceName: 'FTP', port: 21, transport: 'TCP' }],
  ['smtp', { serviceName: 'SMTP', port: 25, transport: 'TCP' }],
  ['smtps', { serviceName: 'SMTP', extendedServiceName: 'SMTPS', port: 465, transport: 'TCP' }],
  ['imap', { serviceName: 'IMAP', port: 143, transport: 'TCP' }],
  ['imaps', { serviceName: 'IMAP', extendedServiceName: 'IMAPS', port: 993, transport: 'TCP' }],
  ['pop3', { serviceName: 'POP3', port: 110, transport: 'TCP' }],
  ['pop3s', { serviceName: 'POP3', extendedServiceName: 'POP3S', port: 995, transport: 'TCP' }],
  ['telnet', { serviceName: 'TELNET', port: 23, transport: 'TCP' }],
  ['mysql', { serviceName: 'MYSQL', port: 3306, transport: 'TCP' }],
  ['postgres', { serviceName: 'POSTGRES', port: 5432, transport: 'TCP' }],
  ['mongodb', { serviceName: 'MONGODB', port: 27017, transport: 'TCP' }],
  ['redis', { serviceName: 'REDIS', port: 6379, transport: 'TCP' }],
  ['mssql', { serviceName: 'MSSQL', port: 1433, transport: 'TCP' }],
  ['oracle', { serviceName: 'ORACLE', port: 1521, transport: 'TCP' }],
  ['memcached', { serviceName: 'MEMCACHED', port: 11211, transport: 'TCP' }],
  ['smb', { serviceName: 'SMB', port: 445, transport: 'TCP' }],
  ['modbus', { serviceName: 'MODBUS', port: 502, transport: 'TCP' }],
  ['dnp3', { serviceName: 'DNP3', port: 20000, transport: 'TCP' }],
  ['fox', { serviceName: 'FOX', port: 1911, transport: 'TCP' }],
  ['siemens', { serviceName: 'S7', port: 102, transport: 'TCP' }],
  ['bacnet', { serviceName: 'BACNET', port: 47808, transport: 'UDP' }],
  ['ntp', { serviceName: 'NTP', port: 123, transport: 'UDP' }],
  ['ipp', { serviceName: 'IPP', port: 631, transport: 'TCP' }],
  ['amqp091', { serviceName: 'AMQP', port: 5672, transport: 'TCP' }],
  ['mqtt', { serviceName: 'MQTT', port: 1883, transport: 'TCP' }],
  ['pptp', { serviceName: 'PPTP', port: 1723, transport: 'TCP' }],
  ['rdp', { serviceName: 'RDP', port: 3389, transport: 'TCP' }],
  ['vnc', { serviceName: 'VNC', port: 5900, transport: 'TCP' }],
  ['ldap', { serviceName: 'LDAP', port: 389, transport: 'TCP' }],
  ['elasticsearch', { serviceName: 'ELASTICSEARCH', port: 9200, transport: 'TCP' }],
  ['cassandra', { serviceName: 'CASSANDRA', port: 9042, transport: 'TCP' }],
  ['smpp', { port: 2775, transport: 'TCP' }],
]);

export function moduleInfo(protocol: string): ModuleInfo {
  return MODULES.get(protocol.toLowerCase()) ?? { transport: 'TCP' };
}
