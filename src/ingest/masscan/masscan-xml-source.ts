/** masscan `-oX` output: nmap-like XML with one `<host>` per status or banner record. */
import type { Readable } from 'node:stream';
import type { IngestRecord, IngestSource, ServiceObservation } from '../observation.ts';
import { child, childrenNamed, xmlRecords, type XmlElement } from '../nmap/xml-records.ts';
import { nmaprunScanner } from '../nmap/nmap-xml-source.ts';
import { bannerService, masscanTransport, statusService, unescapeMasscan, unixSecondsToIso } from './masscan-service.ts';

type Mapped = { ok: true; ip: string; at: string; services: ServiceObservation[] } | { ok: false; reason: string };

function mapHost(host: XmlElement, now: Date): Mapped {
  const ip = child(host, 'address')?.attrs.addr;
  if (!ip) return { ok: false, reason: 'host without an address' };
  const services: ServiceObservation[] = [];
  const ports = child(host, 'ports');
  for (const port of ports ? childrenNamed(ports, 'port') : []) {
    const portId = Number(port.attrs.portid);
    if (!Number.isInteger(portId) || portId < 0 || portId > 65535) return { ok: false, reason: `bad portid "${port.attrs.portid ?? ''}"` };
    const transport = masscanTransport(port.attrs.protocol ?? '');
    if (!transport) continue;
    const service = child(port, 'service');
    if (service) {
      services.push(bannerService(portId, transport, service.attrs.name ?? 'unknown', unescapeMasscan(service.attrs.banner ?? '')));
      continue;
    }
    const s = statusService(portId, transport, child(port, 'state')?.attrs.state ?? '');
    if ('error' in s) return { ok: false, reason: s.error };
    services.push(s);
  }
  return { ok: true, ip, at: unixSecondsToIso(host.attrs.endtime, now), services };
}

const NON_NESTING = new Set(['host']);

export const masscanXmlSource: IngestSource = {
  format: 'masscan-xml',
  sniff(head: Buffer): boolean {
    return nmaprunScanner(head) === 'masscan';
  },
  async *read(input: Readable, options: { readonly now: Date }): AsyncIterable<IngestRecord> {
    for await (const ev of xmlRecords(input, { nonNesting: NON_NESTING })) {
      if (ev.kind === 'root') {
        if (ev.element.name !== 'nmaprun') {
          yield { kind: 'rejected', position: `byte ${ev.element.offset}`, reason: `root element <${ev.element.name}> is not <nmaprun>` };
          return;
        }
      } else if (ev.kind === 'error') {
        const what = ev.recordName ? `<${ev.recordName}> dropped: ` : '';
        yield { kind: 'rejected', position: `byte ${ev.offset}`, reason: `malformed XML: ${what}${ev.message}` };
      } else if (ev.element.name === 'host') {
        const position = `byte ${ev.element.offset}`;
        const m = mapHost(ev.element, options.now);
        if (!m.ok) yield { kind: 'rejected', position, reason: m.reason };
        else yield { kind: 'host', position, host: { ip: m.ip, observedAt: m.at, source: 'masscan', services: m.services } };
      }
    }
  },
};
