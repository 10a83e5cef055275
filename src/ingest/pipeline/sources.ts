/**
 * Every input format the pipeline reads, in sniffing order: the most specific signatures first
 * (XML documents, whole-JSON documents), then the JSON-lines tools, then line-oriented text, and
 * the certificate formats last (a PEM block inside a JSON line must not make the file "PEM").
 */
import type { IngestSource } from '../observation.ts';
import { zgrab2Source } from '../zgrab2/index.ts';
import { pemSource, derSource, pkcs7Source, ctEntriesSource } from '../certificates/index.ts';

export const SOURCES: readonly IngestSource[] = [
  ctEntriesSource,
  zgrab2Source,
  pemSource,
  pkcs7Source,
  derSource,
];

export function sourceByFormat(format: string): IngestSource | undefined {
  return SOURCES.find((s) => s.format === format);
}

export function formatNames(): string[] {
  return SOURCES.map((s) => s.format);
}
