/** nmap `-oX` output as an ingest source. */
import type { Readable } from 'node:stream';
import type { IngestRecord, IngestSource } from '../observation.ts';
import { mapNmapHost, unixSecondsToIso } from './nmap-host.ts';
import { xmlRecords } from './xml-records.ts';

/** The `scanner` attribute of the first `<nmaprun>` in a head, if the head has one. */
export function nmaprunScanner(head: Buffer): string | undefined {
  const text = head.toString('latin1');
  const m = /<nmaprun\b[^>]*?\bscanner\s*=\s*["']([^"']*)["']/.exec(text);
  if (m) return m[1];
  return /<nmaprun\b/.test(text) ? '' : undefined;
}

const NON_NESTING = new Set(['host']);

export const nmapXmlSource: IngestSource = {
  format: 'nmap-xml',
  sniff(head: Buffer): boolean {
    const scanner = nmaprunScanner(head);
    return scanner !== undefined && scanner !== 'masscan';
  },
  async *read(input: Readable, options: { readonly now: Date }): AsyncIterable<IngestRecord> {
    let runStart: string | undefined;
    for await (const ev of xmlRecords(input, { nonNesting: NON_NESTING })) {
      if (ev.kind === 'root') {
        if (ev.element.name !== 'nmaprun') {
          yield { kind: 'rejected', position: `byte ${ev.element.offset}`, reason: `root element <${ev.element.name}> is not <nmaprun>` };
          return;
        }
        runStart = unixSecondsToIso(ev.element.attrs.start);
      } else if (ev.kind === 'error') {
        const what = ev.recordName ? `<${ev.recordName}> dropped: ` : '';
        yield { kind: 'rejected', position: `byte ${ev.offset}`, reason: `malformed XML: ${what}${ev.message}` };
      } else if (ev.element.name === 'host') {
        const mapped = mapNmapHost(ev.element, runStart, options.now);
        const position = `byte ${ev.element.offset}`;
        if (!mapped.ok) yield { kind: 'rejected', position, reason: mapped.reason };
        else if (mapped.host) yield { kind: 'host', position, host: mapped.host };
      }
    }
  },
};
