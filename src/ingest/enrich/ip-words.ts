/**
 * Fast IP text parsing into unsigned 32-bit words, for table lookups where ipaddr.js objects
 * would cost too much (the ASN tables hold half a million rows).
 */

/** Dotted quad → unsigned 32-bit number, or -1. */
export function parseIpv4(text: string): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return -1;
    } else if (c === 46) {
      if (digits === 0 || ++dots > 3) return -1;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else {
      return -1;
    }
  }
  if (dots !== 3 || digits === 0) return -1;
  return value * 256 + part;
}

export function formatIpv4(n: number): string {
  return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** IPv6 text (with optional embedded IPv4 tail) → 4 words, or undefined. Writes into `out` when given. */
export function parseIpv6(text: string, out: Uint32Array = new Uint32Array(4), at = 0): Uint32Array | undefined {
  const groups = [0, 0, 0, 0, 0, 0, 0, 0];
  let n = 0;
  let gap = -1;
  let i = 0;
  const len = text.length;
  if (len < 2) return undefined;
  if (text.charCodeAt(0) === 58) {
    if (text.charCodeAt(1) !== 58) return undefined;
    gap = 0;
    i = 2;
  }
  while (i < len) {
    if (n === 8) return undefined;
    let v = 0;
    let digits = 0;
    const groupStart = i;
    for (; i < len; i++) {
      const c = text.charCodeAt(i);
      let d: number;
      if (c >= 48 && c <= 57) d = c - 48;
      else if (c >= 97 && c <= 102) d = c - 87;
      else if (c >= 65 && c <= 70) d = c - 55;
      else break;
      v = v * 16 + d;
      digits++;
    }
    if (i < len && text.charCodeAt(i) === 46) {
      // Embedded IPv4 tail (::ffff:1.2.3.4).
      if (n > 6) return undefined;
      const v4 = parseIpv4(text.slice(groupStart));
      if (v4 < 0) return undefined;
      groups[n++] = v4 >>> 16;
      groups[n++] = v4 & 0xffff;
      i = len;
      break;
    }
    if (digits === 0 || digits > 4) return undefined;
    groups[n++] = v;
    if (i === len) break;
    if (text.charCodeAt(i) !== 58) return undefined;
    i++;
    if (i < len && text.charCodeAt(i) === 58) {
      if (gap >= 0) return undefined;
      gap = n;
      i++;
    } else if (i === len) {
      return undefined;
    }
  }
  if (gap >= 0) {
    if (n > 7) return undefined;
    const tail = n - gap;
    for (let k = 0; k < tail; k++) groups[7 - k] = groups[n - 1 - k];
    for (let k = gap; k < 8 - tail; k++) groups[k] = 0;
  } else if (n !== 8) {
    return undefined;
  }
  for (let w = 0; w < 4; w++) out[at + w] = ((groups[2 * w] << 16) | groups[2 * w + 1]) >>> 0;
  return out;
}

export function wordsToBigInt(w: ArrayLike<number>, at = 0): bigint {
  return (BigInt(w[at]) << 96n) | (BigInt(w[at + 1]) << 64n) | (BigInt(w[at + 2]) << 32n) | BigInt(w[at + 3]);
}

export function bigIntToIpv6(v: bigint): string {
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((v >> BigInt(i * 16)) & 0xffffn).toString(16));
  // Compress the longest run of zero groups (RFC 5952).
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (bestStart < 0) return groups.join(':');
  return `${groups.slice(0, bestStart).join(':')}::${groups.slice(bestStart + bestLen).join(':')}`;
}

/** Lexicographic compare of 4-word addresses. */
export function compareWords(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): number {
  for (let k = 0; k < 4; k++) {
    const x = a[ai + k];
    const y = b[bi + k];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
