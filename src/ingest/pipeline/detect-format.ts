import type { IngestSource } from '../observation.ts';
import { SOURCES } from './sources.ts';

/** Bytes of the input's start shown to the sources' sniffers. */
export const SNIFF_BYTES = 64 * 1024;

/** The first source (in sniffing order) that claims `head`, or undefined. */
export function detectFormat(head: Buffer, sources: readonly IngestSource[] = SOURCES): IngestSource | undefined {
  const view = head.length > SNIFF_BYTES ? head.subarray(0, SNIFF_BYTES) : head;
  // A UTF-8 byte order mark says nothing about the format.
  const body = view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf ? view.subarray(3) : view;
  return sources.find((s) => s.sniff(body));
}
