/**
 * How a raw document leaf becomes a typed value of a field, and how typed values are compared,
 * printed as aggregation keys and carried in sort positions. Both engines use these functions,
 * so "the values of a field" mean the same thing everywhere: a leaf of the wrong type (a string
 * in an int field, a malformed IP) is simply not a value of that field.
 */
import type { FieldType } from '../../model/field-def.ts';
import type { Leaf } from '../../model/values-of.ts';
import { ipFromKey, ipKey } from '../../lib/ip.ts';

/** Typed value: strings for text/keyword, ipKey strings for ip, numbers for int/float, epoch ms for dates, booleans. */
export type Typed = string | number | boolean;

const IP_KEY = /^[0-9a-f]{32}$/;
const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const PLAIN_V4 = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);

/**
 * lib/ip.ts `ipKey`, with a fast path for plain dotted quads (no leading zeros, no spaces),
 * which are most stored addresses: parsing them through ipaddr.js dominates building an
 * index's address view otherwise.
 */
export function fastIpKey(text: string): string | undefined {
  const m = PLAIN_V4.exec(text);
  if (!m) return ipKey(text);
  let key = '00000000000000000000ffff';
  for (let i = 1; i <= 4; i++) key += Number(m[i]).toString(16).padStart(2, '0');
  return key;
}

export function typedValue(type: FieldType, leaf: Leaf): Typed | undefined {
  switch (type) {
    case 'text':
    case 'keyword':
      return typeof leaf === 'string' ? leaf : undefined;
    case 'int':
    case 'float':
      return typeof leaf === 'number' && Number.isFinite(leaf) ? leaf : undefined;
    case 'bool':
      return typeof leaf === 'boolean' ? leaf : undefined;
    case 'ip':
      return typeof leaf === 'string' ? fastIpKey(leaf) : undefined;
    case 'date': {
      if (typeof leaf !== 'string') return undefined;
      const ms = Date.parse(leaf);
      return Number.isFinite(ms) ? ms : undefined;
    }
  }
}

function toNumber(v: string | number | boolean): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** The typed form of a query value (eq), or undefined when it cannot be a value of the field. */
export function queryValue(type: FieldType, v: string | number | boolean): Typed | undefined {
  switch (type) {
    case 'text':
    case 'keyword':
      return String(v);
    case 'int':
    case 'float':
      return toNumber(v);
    case 'bool':
      if (typeof v === 'boolean') return v;
      if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
      return undefined;
    case 'ip':
      if (typeof v === 'string' && IP_KEY.test(v)) return v;
      return ipKey(String(v));
    case 'date':
      if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
      if (typeof v === 'string') {
        const ms = Date.parse(v);
        return Number.isFinite(ms) ? ms : undefined;
      }
      return undefined;
  }
}

/**
 * A range bound in the field's typed space. Ranges on bool fields are not defined (never match),
 * signalled by null; an unusable bound is undefined.
 */
export function rangeBound(type: FieldType, b: string | number): number | string | null | undefined {
  if (type === 'bool') return null;
  if (type === 'text' || type === 'keyword') return String(b);
  const t = queryValue(type, b);
  return typeof t === 'boolean' ? undefined : t;
}

const V4_MAPPED = '00000000000000000000ffff';

/** lib/ip.ts `ipFromKey`, with a fast path for IPv4 (mapped) keys. */
export function fastIpText(key: string): string {
  if (key.length !== 32 || !key.startsWith(V4_MAPPED)) return ipFromKey(key);
  const n = parseInt(key.slice(24), 16);
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** The aggregation key: ints/floats in JS decimal form, dates RFC 3339 (UTC, ms), ips in text form. */
export function keyString(type: FieldType, t: Typed): string {
  if (type === 'date') return new Date(t as number).toISOString();
  if (type === 'ip') return fastIpText(t as string);
  return String(t);
}

/** The text a wildcard or regex is tested against for a non-textual field: its key string. */
export const matchForm = keyString;

/**
 * A sort position value: numbers for int/float, epoch ms for dates, 0/1 for bools, ipKey for
 * ips, the string itself for text/keyword.
 */
export function positionValue(t: Typed): string | number {
  return typeof t === 'boolean' ? (t ? 1 : 0) : t;
}

/** Orders two typed values of one field (numbers numerically, strings by code unit). */
export function compareTyped(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
