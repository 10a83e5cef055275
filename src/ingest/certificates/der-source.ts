import type { Readable } from 'node:stream';
import type { IngestRecord, IngestSource } from '../observation.ts';
import { isContext, isUniversal, readTlv, TAG_INTEGER, TAG_SEQUENCE } from '../x509/der-reader.ts';
import { checkCertificate } from './certificate-check.ts';
import { readInput } from './read-input.ts';

/**
 * True when `head` starts with SEQUENCE { SEQUENCE { [0] version | INTEGER serial ... } ... }:
 * a Certificate's shape. When the whole certificate is in `head` it must also parse; a head cut
 * inside the certificate is judged on its opening bytes.
 */
function looksLikeCertificate(head: Uint8Array): boolean {
  try {
    if (head[0] !== 0x30) return false;
    const outer = readTlv(head, 0, Number.MAX_SAFE_INTEGER);
    if (outer.end <= head.length) return checkCertificate(head).ok;
    const tbs = readTlv(head, outer.contentStart, Number.MAX_SAFE_INTEGER);
    if (!isUniversal(tbs, TAG_SEQUENCE)) return false;
    const first = readTlv(head, tbs.contentStart, Number.MAX_SAFE_INTEGER);
    return (isContext(first, 0) && first.constructed) || isUniversal(first, TAG_INTEGER);
  } catch {
    return false;
  }
}

/**
 * Binary DER certificates (`.der`, `.cer`): usually one, but certificates simply concatenated
 * are read one after the other, each at `byte OFFSET`.
 */
export const derSource: IngestSource = {
  format: 'der',
  sniff(head: Buffer): boolean {
    return looksLikeCertificate(new Uint8Array(head.buffer, head.byteOffset, head.byteLength));
  },
  async *read(input: Readable): AsyncGenerator<IngestRecord> {
    const all = await readInput(input);
    if (!all.ok) {
      yield { kind: 'rejected', position: 'byte 0', reason: all.error };
      return;
    }
    const bytes = all.bytes;
    if (bytes.length === 0) {
      yield { kind: 'rejected', position: 'byte 0', reason: 'empty input' };
      return;
    }
    let offset = 0;
    while (offset < bytes.length) {
      const rest = bytes.subarray(offset);
      const checked = checkCertificate(rest);
      if (!checked.ok) {
        // Without a sound length we cannot find the next certificate, so the rest is one rejection.
        yield { kind: 'rejected', position: `byte ${offset}`, reason: checked.error };
        return;
      }
      yield { kind: 'certificate', position: `byte ${offset}`, certificate: { der: checked.der, source: 'der' } };
      offset += checked.der.length;
    }
  },
};

