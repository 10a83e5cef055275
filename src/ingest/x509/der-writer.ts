/**
 * Minimal DER encoders: enough to build certificates (the demo generator) and to re-encode a TBS
 * without its CT extensions. Plain functions over Buffers are much faster than a schema-driven
 * serializer, which matters when thousands of certificates are built at first start.
 */

function header(tagByte: number, length: number): Buffer {
  if (length < 0x80) return Buffer.from([tagByte, length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Buffer.from([tagByte, 0x80 | bytes.length, ...bytes]);
}

export function tlv(tagByte: number, body: Uint8Array): Buffer {
  return Buffer.concat([header(tagByte, body.length), body]);
}

function constructed(tagByte: number, parts: readonly Uint8Array[]): Buffer {
  const body = Buffer.concat(parts as Uint8Array[]);
  return Buffer.concat([header(tagByte, body.length), body]);
}

export const seq = (...parts: Uint8Array[]): Buffer => constructed(0x30, parts);
export const set = (...parts: Uint8Array[]): Buffer => constructed(0x31, parts);

/** [n] EXPLICIT: a constructed context tag around one encoded element. */
export const explicit = (n: number, ...parts: Uint8Array[]): Buffer => constructed(0xa0 | n, parts);

/** [n] IMPLICIT over a primitive value (e.g. dNSName, keyIdentifier). */
export const implicitPrimitive = (n: number, body: Uint8Array): Buffer => tlv(0x80 | n, body);

/** [n] IMPLICIT over a constructed value (e.g. fullName GeneralNames). */
export const implicitConstructed = (n: number, ...parts: Uint8Array[]): Buffer => constructed(0xa0 | n, parts);

export function bool(v: boolean): Buffer {
  return Buffer.from([0x01, 0x01, v ? 0xff : 0x00]);
}

export function nul(): Buffer {
  return Buffer.from([0x05, 0x00]);
}

/** INTEGER from a non-negative bigint or number. */
export function int(v: bigint | number): Buffer {
  let n = BigInt(v);
  if (n < 0n) throw new RangeError('negative INTEGER not supported');
  let hex = n.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  let bytes = Buffer.from(hex, 'hex');
  if (bytes[0] & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(0x02, bytes);
}

/** INTEGER from unsigned magnitude bytes (a sign byte is added when needed). */
export function intFromBytes(bytes: Uint8Array): Buffer {
  let s = 0;
  while (s < bytes.length - 1 && bytes[s] === 0 && !(bytes[s + 1] & 0x80)) s++;
  const body = bytes[s] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes.subarray(s)]) : Buffer.from(bytes.subarray(s));
  return tlv(0x02, body);
}

const oidCache = new Map<string, Buffer>();

export function oid(dotted: string): Buffer {
  const cached = oidCache.get(dotted);
  if (cached) return cached;
  const arcs = dotted.split('.').map(Number);
  const bytes: number[] = [];
  const push = (v: number): void => {
    const tmp = [v & 0x7f];
    for (v = Math.floor(v / 128); v > 0; v = Math.floor(v / 128)) tmp.unshift((v & 0x7f) | 0x80);
    bytes.push(...tmp);
  };
  push(arcs[0] * 40 + arcs[1]);
  for (let i = 2; i < arcs.length; i++) push(arcs[i]);
  const out = tlv(0x06, Buffer.from(bytes));
  oidCache.set(dotted, out);
  return out;
}

export const octets = (b: Uint8Array): Buffer => tlv(0x04, b);
export const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
export const printable = (s: string): Buffer => tlv(0x13, Buffer.from(s, 'latin1'));
export const ia5 = (s: string): Buffer => tlv(0x16, Buffer.from(s, 'latin1'));

export function bitString(bytes: Uint8Array, unusedBits = 0): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), bytes]));
}

/** Named-bit BIT STRING (key usage): bit 0 is the most significant bit of the first byte; trailing zero bits trimmed as DER requires. */
export function namedBits(bits: readonly number[]): Buffer {
  const max = Math.max(...bits);
  const nbytes = Math.floor(max / 8) + 1;
  const bytes = Buffer.alloc(nbytes);
  for (const b of bits) bytes[b >> 3] |= 0x80 >> (b & 7);
  let unused = 0;
  const last = bytes[nbytes - 1];
  while (unused < 7 && !(last & (1 << unused))) unused++;
  return bitString(bytes, unused);
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** UTCTime before 2050, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5). */
export function time(ms: number): Buffer {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const rest =
    pad2(d.getUTCMonth() + 1) + pad2(d.getUTCDate()) + pad2(d.getUTCHours()) + pad2(d.getUTCMinutes()) + pad2(d.getUTCSeconds()) + 'Z';
  if (y >= 1950 && y < 2050) return tlv(0x17, Buffer.from(pad2(y % 100) + rest, 'latin1'));
  return tlv(0x18, Buffer.from(String(y).padStart(4, '0') + rest, 'latin1'));
}
