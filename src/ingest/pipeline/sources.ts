/**
 * Every input format the pipeline reads, in sniffing order: the most specific signatures first
 * (XML documents by their scanner attribute, whole-JSON documents), then the JSON-lines tools,
 * then line-oriented text, and the certificate formats last (a PEM block inside a JSON line must
 * not make the file "PEM"; a PKCS#7 PEM block must not be read as a plain PEM bundle).
 */
import type { IngestSource } from '../observation.ts';
import { nmapXmlSource } from '../nmap/index.ts';
import { masscanJsonSource, masscanNdjsonSource, masscanListSource, masscanXmlSource } from '../masscan/index.ts';
import { zgrab2Source } from '../zgrab2/index.ts';
import { httpxSource, naabuSource, tlsxSource } from '../projectdiscovery/index.ts';
import { pemSource, derSource, pkcs7Source, ctEntriesSource } from '../certificates/index.ts';

export const SOURCES: readonly IngestSource[] = [
  nmapXmlSource,
  masscanXmlSource,
  ctEntriesSource,
  masscanJsonSource,
  zgrab2Source,
  httpxSource,
  tlsxSource,
  masscanNdjsonSource,
  naabuSource,
  masscanListSource,
  pkcs7Source,
  pemSource,
  derSource,
];

export function sourceByFormat(format: string): IngestSource | undefined {
  return SOURCES.find((s) => s.format === format);
}

export function formatNames(): string[] {
  return SOURCES.map((s) => s.format);
}
