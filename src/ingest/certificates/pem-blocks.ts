/**
 * PEM blocks from a stream of lines, one at a time, so a bundle of any size is read with flat
 * memory. Unlike x509/pemToDer (all-or-nothing), a damaged block is reported on its own and the
 * scan continues with the next BEGIN line.
 */
export type PemBlock =
  | { readonly ok: true; readonly label: string; readonly line: number; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly label: string; readonly line: number; readonly error: string };

const BEGIN = /^-----BEGIN ([A-Z0-9 ]+)-----$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export async function* pemBlocks(lines: AsyncIterable<string>): AsyncGenerator<PemBlock> {
  let lineNo = 0;
  let open: { label: string; line: number; body: string[] } | undefined;
  for await (const raw of lines) {
    lineNo++;
    const line = raw.trim();
    if (!open) {
      const m = BEGIN.exec(line);
      if (m) open = { label: m[1], line: lineNo, body: [] };
      continue;
    }
    if (line === `-----END ${open.label}-----`) {
      yield decode(open.label, open.line, open.body.join(''));
      open = undefined;
      continue;
    }
    const begin = BEGIN.exec(line);
    if (begin || line.startsWith('-----')) {
      yield { ok: false, label: open.label, line: open.line, error: `no END line before line ${lineNo}` };
      open = begin ? { label: begin[1], line: lineNo, body: [] } : undefined;
      continue;
    }
    // RFC 1421 headers (Proc-Type: ...) may precede the body of legacy blocks.
    if (/^[A-Za-z-]+:/.test(line)) continue;
    open.body.push(line);
  }
  if (open) yield { ok: false, label: open.label, line: open.line, error: 'no END line before the end of the input' };
}

function decode(label: string, line: number, body: string): PemBlock {
  if (body.length === 0) return { ok: false, label, line, error: 'empty block' };
  if (!BASE64.test(body) || body.length % 4 !== 0) return { ok: false, label, line, error: 'not valid base64' };
  return { ok: true, label, line, bytes: new Uint8Array(Buffer.from(body, 'base64')) };
}
