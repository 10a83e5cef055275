/**
 * A small DER reader that works on offsets into the original bytes, so the exact encoded slices
 * (TBS, subject, SPKI) can be hashed without re-encoding. It throws DerError on malformed input;
 * parseCertificate turns that into an error value at its boundary.
 */

export class DerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DerError';
  }
}

export const CLASS_UNIVERSAL = 0;
export const CLASS_CONTEXT = 2;

export const TAG_BOOLEAN = 1;
export const TAG_INTEGER = 2;
export const TAG_BIT_STRING = 3;
export const TAG_OCTET_STRING = 4;
export const TAG_NULL = 5;
export const TAG_OID = 6;
export const TAG_UTF8 = 12;
export const TAG_SEQUENCE = 16;
export const TAG_SET = 17;
export const TAG_NUMERIC = 18;
export const TAG_PRINTABLE = 19;
export const TAG_T61 = 20;
export const TAG_IA5 = 22;
export const TAG_UTC_TIME = 23;
export const TAG_GENERALIZED_TIME = 24;
export const TAG_VISIBLE = 26;
export const TAG_UNIVERSAL_STRING = 28;
export const TAG_BMP = 30;

/** One element: where its header starts, where its content starts and ends. */
export interface Tlv {
  readonly cls: number;
  readonly constructed: boolean;
  readonly tag: number;
  readonly start: number;
  readonly contentStart: number;
  readonly end: number;
}

export function readTlv(buf: Uint8Array, pos: number, limit: number = buf.length): Tlv {
  if (pos >= limit) throw new DerError(`unexpected end of data at offset ${pos}`);
  const start = pos;
  const first = buf[pos++];
  const cls = first >> 6;
  const constructed = (first & 0x20) !== 0;
  let tag = first & 0x1f;
  if (tag === 0x1f) {
    tag = 0;
    for (let n = 0; ; n++) {
      if (pos >= limit || n > 4) throw new DerError(`bad tag at offset ${start}`);
      const b = buf[pos++];
      tag = tag * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
  }
  if (pos >= limit) throw new DerError(`missing length at offset ${start}`);
  let len = buf[pos++];
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0) throw new DerError(`indefinite length at offset ${start}`);
    if (n > 4) throw new DerError(`length too large at offset ${start}`);
    if (pos + n > limit) throw new DerError(`truncated length at offset ${start}`);
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[pos++];
  }
  const end = pos + len;
  if (end > limit) throw new DerError(`element at offset ${start} runs past its container (${end} > ${limit})`);
  return { cls, constructed, tag, start, contentStart: pos, end };
}

export function children(buf: Uint8Array, parent: Tlv): Tlv[] {
  if (!parent.constructed) throw new DerError(`expected a constructed element at offset ${parent.start}`);
  const out: Tlv[] = [];
  let pos = parent.contentStart;
  while (pos < parent.end) {
    const t = readTlv(buf, pos, parent.end);
    out.push(t);
    pos = t.end;
  }
  return out;
}

export function isUniversal(t: Tlv, tag: number): boolean {
  return t.cls === CLASS_UNIVERSAL && t.tag === tag;
}

export function isContext(t: Tlv, tag: number): boolean {
  return t.cls === CLASS_CONTEXT && t.tag === tag;
}

export function expect(t: Tlv | undefined, tag: number, what: string): Tlv {
  if (!t || !isUniversal(t, tag)) throw new DerError(`expected ${what}${t ? ` at offset ${t.start}` : ''}`);
  return t;
}

export function content(buf: Uint8Array, t: Tlv): Uint8Array {
  return buf.subarray(t.contentStart, t.end);
}

export function raw(buf: Uint8Array, t: Tlv): Uint8Array {
  return buf.subarray(t.start, t.end);
}

export function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function base64Of(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function readOid(buf: Uint8Array, t: Tlv): string {
  if (t.end === t.contentStart) throw new DerError(`empty OID at offset ${t.start}`);
  const parts: number[] = [];
  let value = 0;
  let first = true;
  for (let i = t.contentStart; i < t.end; i++) {
    const b = buf[i];
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      if (first) {
        const a = value < 40 ? 0 : value < 80 ? 1 : 2;
        parts.push(a, value - a * 40);
        first = false;
      } else {
        parts.push(value);
      }
      value = 0;
    } else if (value > 2 ** 45) {
      throw new DerError(`OID arc too large at offset ${t.start}`);
    }
  }
  if (buf[t.end - 1] & 0x80) throw new DerError(`truncated OID at offset ${t.start}`);
  return parts.join('.');
}

export function readBoolean(buf: Uint8Array, t: Tlv): boolean {
  if (t.end - t.contentStart !== 1) throw new DerError(`bad BOOLEAN at offset ${t.start}`);
  return buf[t.contentStart] !== 0;
}

/** Two's-complement INTEGER as a bigint. */
export function readBigInt(buf: Uint8Array, t: Tlv): bigint {
  const bytes = content(buf, t);
  if (bytes.length === 0) throw new DerError(`empty INTEGER at offset ${t.start}`);
  let v = BigInt('0x' + hexOf(bytes));
  if (bytes[0] & 0x80) v -= 1n << BigInt(bytes.length * 8);
  return v;
}

export function readSmallInt(buf: Uint8Array, t: Tlv): number {
  const v = readBigInt(buf, t);
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new DerError(`INTEGER too large at offset ${t.start}`);
  }
  return Number(v);
}

/** Unsigned magnitude bytes of a positive INTEGER (leading sign byte dropped). */
export function unsignedBytes(buf: Uint8Array, t: Tlv): Uint8Array {
  let s = t.contentStart;
  while (s < t.end - 1 && buf[s] === 0) s++;
  return buf.subarray(s, t.end);
}

export function readBitString(buf: Uint8Array, t: Tlv): { unused: number; bytes: Uint8Array } {
  if (t.end === t.contentStart) throw new DerError(`empty BIT STRING at offset ${t.start}`);
  const unused = buf[t.contentStart];
  if (unused > 7) throw new DerError(`bad BIT STRING at offset ${t.start}`);
  return { unused, bytes: buf.subarray(t.contentStart + 1, t.end) };
}

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');

/** Any of the X.509 string types as a JS string; undefined when `t` is not a string type. */
export function readString(buf: Uint8Array, t: Tlv): string | undefined {
  if (t.cls !== CLASS_UNIVERSAL) return undefined;
  const bytes = content(buf, t);
  switch (t.tag) {
    case TAG_UTF8:
      return utf8.decode(bytes);
    case TAG_PRINTABLE:
    case TAG_IA5:
    case TAG_NUMERIC:
    case TAG_VISIBLE:
    case TAG_T61:
      return latin1.decode(bytes);
    case TAG_BMP: {
      let s = '';
      for (let i = 0; i + 1 < bytes.length; i += 2) s += String.fromCharCode((bytes[i] << 8) | bytes[i + 1]);
      return s;
    }
    case TAG_UNIVERSAL_STRING: {
      let s = '';
      for (let i = 0; i + 3 < bytes.length; i += 4) {
        const cp = ((bytes[i] << 24) | (bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3]) >>> 0;
        s += cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
      }
      return s;
    }
    default:
      return undefined;
  }
}

/** UTCTime or GeneralizedTime as epoch milliseconds. */
export function readTime(buf: Uint8Array, t: Tlv): number {
  const s = latin1.decode(content(buf, t));
  let m: RegExpMatchArray | null;
  let year: number;
  if (isUniversal(t, TAG_UTC_TIME)) {
    m = s.match(/^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?(Z|[+-]\d{4})$/);
    if (!m) throw new DerError(`bad UTCTime "${s}"`);
    const yy = Number(m[1]);
    year = yy >= 50 ? 1900 + yy : 2000 + yy;
  } else if (isUniversal(t, TAG_GENERALIZED_TIME)) {
    m = s.match(/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?(?:\.\d+)?(Z|[+-]\d{4})$/);
    if (!m) throw new DerError(`bad GeneralizedTime "${s}"`);
    year = Number(m[1]);
  } else {
    throw new DerError(`expected a time at offset ${t.start}`);
  }
  const [, , mo, d, h, mi, sec, zone] = m;
  let ms = Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), sec ? Number(sec) : 0);
  if (Number.isNaN(ms)) throw new DerError(`bad time "${s}"`);
  if (zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    ms -= sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5))) * 60_000;
  }
  return ms;
}
