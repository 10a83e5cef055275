/** Service names Periscope recognises (`/v2/metadata/hosts`), in the Censys spelling. */
export const SERVICE_NAMES: readonly string[] = [
  'AMQP', 'BACNET', 'BANNER_GRAB', 'COAP', 'CWMP', 'DNP3', 'DNS', 'ELASTICSEARCH', 'FOX', 'FTP', 'HTTP', 'IKE', 'IMAP',
  'IPMI', 'IPP', 'KUBERNETES', 'LDAP', 'MEMCACHED', 'MODBUS', 'MONGODB', 'MQTT', 'MSSQL', 'MYSQL', 'NTP', 'OPENVPN',
  'ORACLE', 'POP3', 'POSTGRES', 'PPTP', 'PROMETHEUS', 'RDP', 'REDIS', 'RSYNC', 'S7', 'SIP', 'SMB', 'SMTP', 'SNMP', 'SSH',
  'TELNET', 'UNKNOWN', 'UPNP', 'VNC', 'X11',
];
