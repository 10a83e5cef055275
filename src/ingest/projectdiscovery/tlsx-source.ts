/**
 * tlsx `-json` lines: the TLS handshake of `host`/`ip`:`port`. The service name is left to the
 * pipeline (TLS says nothing about the protocol inside it); certificates printed as PEM (`-cert`,
 * chain entries) become the service's chain and certificate observations of their own.
 */
import type { Readable } from 'node:stream';
import { jsonHead, mentionsKey, str, validPort } from '../zgrab2/read-lines.ts';
import type { HostObservation, IngestRecord, IngestSource } from '../observation.ts';
import { asHostName, asIp, observedAt, pdTls, pemDers, readJsonRecords } from './pd-common.ts';

const TLSX_KEYS = ['probe_status', 'tls_version', 'fingerprint_hash', 'tls_connection', 'subject_dn', 'jarm_hash'];

export function mapTlsxRecord(value: Record<string, unknown>, position: string, now: Date): IngestRecord[] {
  // A failed probe (no connection, no handshake) tells nothing about the host.
  if (value.probe_status === false) return [];
  const host = str(value.host);
  const ipText = str(value.ip) ?? (asIp(host) ? host : undefined);
  if (!ipText) return [{ kind: 'rejected', position, reason: 'no "ip"' }];
  const ip = asIp(ipText);
  if (!ip) return [{ kind: 'rejected', position, reason: `invalid ip "${ipText}"` }];
  const port = validPort(value.port);
  if (port === undefined) return [{ kind: 'rejected', position, reason: `invalid port ${JSON.stringify(value.port ?? null)}` }];

  const pem = pemDers(value.certificate, value.chain);
  const out: IngestRecord[] = [];
  const base: HostObservation = {
    ip,
    observedAt: observedAt(value.timestamp, now),
    source: 'tlsx',
    services: [{ port, transport: 'TCP', state: 'open', tls: pdTls(value, pem.ders) }],
  };
  const name = asHostName(str(value.sni)) ?? asHostName(host);
  out.push({ kind: 'host', position, host: name ? { ...base, names: [name] } : base });
  if (name) out.push({ kind: 'host', position, host: { ...base, name } });
  pem.ders.forEach((der, i) => {
    out.push({ kind: 'certificate', position, certificate: { der, ...(i === 0 && pem.ders.length > 1 ? { chain: pem.ders.slice(1) } : {}), source: 'tlsx' } });
  });
  for (const error of pem.errors) out.push({ kind: 'rejected', position, reason: `certificate: ${error}` });
  return out;
}

export const tlsxSource: IngestSource = {
  format: 'tlsx',
  sniff(head: Buffer): boolean {
    const first = jsonHead(head);
    if (!first) return false;
    if (!first.complete) {
      const p = first.prefix;
      return !mentionsKey(p, 'url') && !mentionsKey(p, 'data') && (mentionsKey(p, 'probe_status') || mentionsKey(p, 'tls_version') || mentionsKey(p, 'fingerprint_hash'));
    }
    const v = first.value;
    return !('url' in v) && !('data' in v) && (typeof v.host === 'string' || typeof v.ip === 'string') && TLSX_KEYS.some((k) => k in v);
  },
  read(input: Readable, { now }: { readonly now: Date }): AsyncIterable<IngestRecord> {
    return readJsonRecords(input, (v, position) => mapTlsxRecord(v, position, now));
  },
};
