/** masscan `-oL` output: `open tcp 80 1.2.3.4 1689000000`, `banner tcp 80 1.2.3.4 1689000000 http <text>`, `#` comments. */
import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import type { IngestRecord, IngestSource, ServiceObservation } from '../observation.ts';
import { bannerService, masscanTransport, statusService, unescapeMasscan, unixSecondsToIso } from './masscan-service.ts';

const STATUS_LINE = /^(open|closed)\s+(\S+)\s+(\d+)\s+(\S+)\s+(\d+)\s*$/;
const BANNER_LINE = /^banner\s+(\S+)\s+(\d+)\s+(\S+)\s+(\d+)\s+(\S+)(?: (.*))?$/;

type LineResult = { kind: 'skip' } | { kind: 'rejected'; reason: string } | { kind: 'host'; ip: string; at: string; service: ServiceObservation };

export function parseMasscanListLine(line: string, now: Date): LineResult {
  const trimmed = line.replace(/\r$/, '');
  if (trimmed.trim() === '' || trimmed.startsWith('#')) return { kind: 'skip' };
  let m = STATUS_LINE.exec(trimmed);
  if (m) {
    const [, status, proto, portText, ip, ts] = m;
    const port = Number(portText);
    if (port > 65535) return { kind: 'rejected', reason: `port ${portText} out of range` };
    const transport = masscanTransport(proto);
    if (!transport) return { kind: 'skip' };
    const s = statusService(port, transport, status);
    if ('error' in s) return { kind: 'rejected', reason: s.error };
    return { kind: 'host', ip, at: unixSecondsToIso(ts, now), service: s };
  }
  m = BANNER_LINE.exec(trimmed);
  if (m) {
    const [, proto, portText, ip, ts, app, text = ''] = m;
    const port = Number(portText);
    if (port > 65535) return { kind: 'rejected', reason: `port ${portText} out of range` };
    const transport = masscanTransport(proto);
    if (!transport) return { kind: 'skip' };
    return { kind: 'host', ip, at: unixSecondsToIso(ts, now), service: bannerService(port, transport, app, unescapeMasscan(text)) };
  }
  return { kind: 'rejected', reason: `not a masscan list line: ${JSON.stringify(trimmed.slice(0, 60))}` };
}

export const masscanListSource: IngestSource = {
  format: 'masscan-list',
  sniff(head: Buffer): boolean {
    const lines = head.toString('utf8').replace(/^\uFEFF/, '').split('\n');
    if (lines.length > 1) lines.pop(); // possibly cut mid-line
    const content = lines.map((l) => l.replace(/\r$/, '')).filter((l) => l.trim() !== '');
    if (content[0] === '#masscan') return true;
    const data = content.filter((l) => !l.startsWith('#')).slice(0, 20);
    return data.length > 0 && data.every((l) => STATUS_LINE.test(l) || BANNER_LINE.test(l));
  },
  async *read(input: Readable, options: { readonly now: Date }): AsyncIterable<IngestRecord> {
    const lines = createInterface({ input, crlfDelay: Infinity });
    let n = 0;
    for await (const line of lines) {
      n++;
      const r = parseMasscanListLine(line, options.now);
      if (r.kind === 'skip') continue;
      const position = `line ${n}`;
      if (r.kind === 'rejected') yield { kind: 'rejected', position, reason: r.reason };
      else yield { kind: 'host', position, host: { ip: r.ip, observedAt: r.at, source: 'masscan', services: [r.service] } };
    }
  },
};
