/**
 * The service a port usually carries, for observations whose tool did not identify the protocol
 * (masscan, naabu, a bare nmap port). A guess, so an identified name always wins over it.
 */
export interface PortService {
  readonly serviceName: string;
  readonly extendedServiceName: string;
}

const TABLE: Readonly<Record<number, readonly [string, string?]>> = {
  21: ['FTP'],
  22: ['SSH'],
  23: ['TELNET'],
  25: ['SMTP'],
  53: ['DNS'],
  80: ['HTTP'],
  110: ['POP3'],
  111: ['UNKNOWN'],
  123: ['NTP'],
  143: ['IMAP'],
  161: ['SNMP'],
  389: ['LDAP'],
  443: ['HTTP', 'HTTPS'],
  445: ['SMB'],
  465: ['SMTP'],
  502: ['MODBUS'],
  587: ['SMTP'],
  623: ['IPMI'],
  631: ['IPP'],
  636: ['LDAP'],
  873: ['RSYNC'],
  993: ['IMAP'],
  995: ['POP3'],
  1433: ['MSSQL'],
  1521: ['ORACLE'],
  1723: ['PPTP'],
  1883: ['MQTT'],
  1900: ['UPNP'],
  2375: ['HTTP'],
  3306: ['MYSQL'],
  3389: ['RDP'],
  5060: ['SIP'],
  5432: ['POSTGRES'],
  5672: ['AMQP'],
  5683: ['COAP'],
  5900: ['VNC'],
  6000: ['X11'],
  6379: ['REDIS'],
  6443: ['KUBERNETES'],
  7547: ['CWMP'],
  8000: ['HTTP'],
  8080: ['HTTP'],
  8443: ['HTTP', 'HTTPS'],
  8883: ['MQTT'],
  9090: ['HTTP'],
  9100: ['PROMETHEUS'],
  9200: ['ELASTICSEARCH'],
  11211: ['MEMCACHED'],
  20000: ['DNP3'],
  27017: ['MONGODB'],
  47808: ['BACNET'],
};

export function serviceByPort(port: number): PortService {
  const entry = TABLE[port];
  if (!entry) return { serviceName: 'UNKNOWN', extendedServiceName: 'UNKNOWN' };
  return { serviceName: entry[0], extendedServiceName: entry[1] ?? entry[0] };
}
