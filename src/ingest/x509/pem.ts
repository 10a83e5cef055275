/** PEM bundles: every certificate block, text around and between blocks ignored. */

export type PemResult = { ok: true; ders: Uint8Array[] } | { ok: false; error: string };

const LABELS = new Set(['CERTIFICATE', 'X509 CERTIFICATE', 'TRUSTED CERTIFICATE']);

/**
 * Decodes every `-----BEGIN CERTIFICATE-----` block of `text` (also `X509 CERTIFICATE` and
 * `TRUSTED CERTIFICATE`); other block types (keys, CSRs) are skipped. A block without its END
 * line or with characters outside base64 is an error naming its line. No blocks → `ders: []`.
 */
export function pemToDer(text: string): PemResult {
  const lines = text.split(/\r?\n/);
  const ders: Uint8Array[] = [];
  for (let i = 0; i < lines.length; i++) {
    const begin = lines[i].trim().match(/^-----BEGIN ([A-Z0-9 ]+)-----$/);
    if (!begin) continue;
    const label = begin[1];
    const startLine = i + 1;
    let body = '';
    let closed = false;
    for (i++; i < lines.length; i++) {
      const line = lines[i].trim();
      if (line === `-----END ${label}-----`) {
        closed = true;
        break;
      }
      if (line.startsWith('-----')) break;
      // RFC 1421 headers (Proc-Type: ...) may precede the body of some legacy blocks.
      if (/^[A-Za-z-]+:/.test(line)) continue;
      body += line;
    }
    if (!closed) return { ok: false, error: `PEM block "${label}" starting at line ${startLine} has no END line` };
    if (!LABELS.has(label)) continue;
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 !== 0) {
      return { ok: false, error: `PEM block at line ${startLine} is not valid base64` };
    }
    if (body.length === 0) return { ok: false, error: `PEM block at line ${startLine} is empty` };
    ders.push(new Uint8Array(Buffer.from(body, 'base64')));
  }
  return { ok: true, ders };
}

/** One certificate as PEM (64-column base64). */
export function derToPem(der: Uint8Array): string {
  const b64 = Buffer.from(der.buffer, der.byteOffset, der.byteLength).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
