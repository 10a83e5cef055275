/**
 * naabu `-json` lines: `{"host", "ip", "port", "protocol", "tls", "timestamp"}`. Older releases
 * print `port` as an object (`{"Port": 443, "Protocol": 0, "TLS": false}`) or a string; all are read.
 */
import type { Readable } from 'node:stream';
import type { HostObservation, IngestRecord, IngestSource, Transport } from '../observation.ts';
import { jsonHead, mentionsKey, obj, str, validPort } from '../zgrab2/read-lines.ts';
import { asHostName, asIp, observedAt, readJsonRecords } from './pd-common.ts';

const OTHER_TOOLS_KEYS = ['data', 'ports', 'url', 'probe_status', 'tls_version', 'status_code', 'fingerprint_hash', 'webserver'];

function transportOf(v: unknown): Transport {
  if (typeof v === 'string') return v.toLowerCase() === 'udp' ? 'UDP' : 'TCP';
  // naabu's numeric protocol enum: 0 TCP, 1 UDP.
  return v === 1 ? 'UDP' : 'TCP';
}

export function mapNaabuRecord(value: Record<string, unknown>, position: string, now: Date): IngestRecord[] {
  const host = str(value.host);
  const ipText = str(value.ip) ?? (asIp(host) ? host : undefined);
  if (!ipText) return [{ kind: 'rejected', position, reason: 'no "ip"' }];
  const ip = asIp(ipText);
  if (!ip) return [{ kind: 'rejected', position, reason: `invalid ip "${ipText}"` }];
  const portObj = obj(value.port);
  const port = validPort(portObj ? (portObj.Port ?? portObj.port) : value.port);
  if (port === undefined) return [{ kind: 'rejected', position, reason: `invalid port ${JSON.stringify(value.port ?? null)}` }];
  const transport = transportOf(portObj ? (portObj.Protocol ?? portObj.protocol) : value.protocol);
  const tlsFlag = portObj ? (portObj.TLS ?? portObj.tls) : value.tls;
  const name = asHostName(host);
  const h: HostObservation = {
    ip,
    observedAt: observedAt(value.timestamp, now),
    source: 'naabu',
    // naabu only knows the port is open; TLS true means a handshake succeeded, with nothing captured.
    services: [{ port, transport, state: 'open', ...(tlsFlag === true ? { tls: { chain: [] } } : {}) }],
    ...(name ? { names: [name] } : {}),
  };
  return [{ kind: 'host', position, host: h }];
}

export const naabuSource: IngestSource = {
  format: 'naabu',
  sniff(head: Buffer): boolean {
    const first = jsonHead(head);
    if (!first) return false;
    if (!first.complete) {
      return mentionsKey(first.prefix, 'port') && (mentionsKey(first.prefix, 'ip') || mentionsKey(first.prefix, 'host')) && !OTHER_TOOLS_KEYS.some((k) => mentionsKey(first.prefix, k));
    }
    const v = first.value;
    return 'port' in v && (typeof v.ip === 'string' || typeof v.host === 'string') && !OTHER_TOOLS_KEYS.some((k) => k in v);
  },
  read(input: Readable, { now }: { readonly now: Date }): AsyncIterable<IngestRecord> {
    return readJsonRecords(input, (v, position) => mapNaabuRecord(v, position, now));
  },
};
