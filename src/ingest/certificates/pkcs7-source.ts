import type { Readable } from 'node:stream';
import type { IngestRecord, IngestSource } from '../observation.ts';
import { pemRecords, pkcs7Records } from './pem-source.ts';
import { looksLikePkcs7Der } from './pkcs7.ts';
import { readInput } from './read-input.ts';

const PEM_PKCS7 = /-----BEGIN (?:PKCS7|CMS)-----/;

async function* textLines(text: string): AsyncGenerator<string> {
  yield* text.split(/\r?\n/);
}

/** PKCS#7 certificate bundles (`.p7b`, `.p7c`) in DER or PEM: one record per certificate. */
export const pkcs7Source: IngestSource = {
  format: 'pkcs7',
  sniff(head: Buffer): boolean {
    return PEM_PKCS7.test(head.toString('latin1')) || looksLikePkcs7Der(new Uint8Array(head.buffer, head.byteOffset, head.byteLength));
  },
  async *read(input: Readable): AsyncGenerator<IngestRecord> {
    const all = await readInput(input);
    if (!all.ok) {
      yield { kind: 'rejected', position: 'byte 0', reason: all.error };
      return;
    }
    const bytes = all.bytes;
    if (bytes[0] === 0x30) {
      yield* pkcs7Records(bytes, 'pkcs7');
      return;
    }
    const text = Buffer.from(bytes).toString('latin1');
    if (!PEM_PKCS7.test(text)) {
      yield { kind: 'rejected', position: 'byte 0', reason: 'neither DER PKCS#7 nor a PEM PKCS7 block' };
      return;
    }
    yield* pemRecords(textLines(text), 'pkcs7');
  },
};
