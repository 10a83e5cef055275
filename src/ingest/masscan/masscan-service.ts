/**
 * masscan's records → service observations. A status record says whether a port is open; a
 * banner record adds what masscan's application parser saw on it, under the name masscan gives
 * that parser (`masscan_app_to_string`). Each becomes its own observation; the pipeline merges
 * observations of the same port.
 */
import type { ServiceObservation, Transport } from '../observation.ts';

const TRANSPORTS: Readonly<Record<string, Transport>> = { tcp: 'TCP', udp: 'UDP' };

export function masscanTransport(proto: string): Transport | undefined {
  return TRANSPORTS[proto.toLowerCase()];
}

/** masscan parser names → Censys service names. */
const SERVICE_NAMES: Readonly<Record<string, string>> = {
  http: 'HTTP',
  title: 'HTTP',
  html: 'HTTP',
  'http.server': 'HTTP',
  ssh: 'SSH',
  ftp: 'FTP',
  smtp: 'SMTP',
  pop: 'POP3',
  imap: 'IMAP',
  telnet: 'TELNET',
  rdp: 'RDP',
  vnc: 'VNC',
  'vnc-info': 'VNC',
  memcached: 'MEMCACHED',
  ntp: 'NTP',
  snmp: 'SNMP',
  smb: 'SMB',
  nbtstat: 'NETBIOS',
  'dns-ver': 'DNS',
  coap: 'COAP',
  isakmp: 'IKE',
  minecraft: 'MINECRAFT',
  unknown: 'UNKNOWN',
};

/** Parsers that report a finding about the port rather than its protocol. */
const FINDINGS = new Set(['vuln', 'heartbleed', 'ticketbleed']);

/** Undoes masscan's `normalize_string` escaping (`\xNN` for bytes outside printable ASCII and `<>&\"'`). */
export function unescapeMasscan(text: string): string {
  return text.replace(/\\x([0-9A-Fa-f]{2})/g, (_w, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function statusService(port: number, transport: Transport, status: string): ServiceObservation | { error: string } {
  if (status === 'open') return { port, transport, state: 'open' };
  if (status === 'closed') return { port, transport, state: 'closed' };
  return { error: `unknown port status "${status}"` };
}

/** A banner record; `text` is already unescaped. */
export function bannerService(port: number, transport: Transport, app: string, text: string): ServiceObservation {
  const base = { port, transport, state: 'open' as const };
  switch (app) {
    case 'title':
      return { ...base, serviceName: 'HTTP', protocols: { http: { response: { html_title: text } } } };
    case 'html':
      return { ...base, serviceName: 'HTTP', protocols: { http: { response: { body: text } } } };
    case 'http.server':
      return { ...base, serviceName: 'HTTP', protocols: { http: { response: { headers: { Server: [text] } } } } };
    // Kept as the text masscan printed, without a `tls` object: an observation's tls replaces the
    // known one in the pipeline, and an empty chain would drop a certificate a richer scan found.
    case 'X509':
    case 'X509CA':
      return { ...base, protocols: { x509: { [app === 'X509' ? 'certificate' : 'ca_certificate']: text } } };
    case 'ssl':
      return { ...base, protocols: { ssl: { summary: text } } };
  }
  if (FINDINGS.has(app)) return { ...base, labels: [app] };
  const serviceName = SERVICE_NAMES[app];
  return { ...base, ...(serviceName ? { serviceName } : {}), banner: text };
}

export function unixSecondsToIso(value: unknown, now: Date): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,12}$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000).toISOString() : now.toISOString();
}
