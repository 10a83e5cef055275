import type { Readable } from 'node:stream';

/**
 * Collects a binary input (a DER certificate or a PKCS#7 bundle) into one buffer. These formats
 * are one ASN.1 structure, so they cannot be parsed in pieces; the cap keeps a wrong `--format`
 * on a huge file from exhausting memory.
 */
export async function readInput(input: Readable, maxBytes = 64 * 1024 * 1024): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; error: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > maxBytes) {
      input.destroy();
      return { ok: false, error: `input larger than ${maxBytes} bytes` };
    }
    chunks.push(b);
  }
  return { ok: true, bytes: new Uint8Array(Buffer.concat(chunks)) };
}

/** Splits a stream into lines (LF or CRLF) without holding more than one line. */
export async function* lines(input: Readable): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of input) {
    const text = rest + (typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('latin1'));
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      yield text.slice(start, nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
      start = nl + 1;
    }
    rest = text.slice(start);
  }
  if (rest.length) yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
}
