import { createHash } from 'node:crypto';
import { sortStrings } from '../lib/sort-small.ts';

/** Nesting beyond this hands the value to the reference implementation (which also reports cycles). */
const MAX_DEPTH = 256;

class TooDeep extends Error {}

/**
 * The specification of canonicalJson: JSON.stringify with a replacer that sorts keys. Kept as the
 * fallback for very deep (or cyclic) values, and as the reference the fast path is tested against.
 */
export function canonicalJsonReference(value: unknown): string {
  const out = JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    // No prototype: a `__proto__` key in the data must stay a key, not replace the prototype.
    const sorted: Record<string, unknown> = Object.create(null);
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
  return out ?? 'null';
}

/** Whether `k` is an array index, which JavaScript objects enumerate first, in numeric order. */
function isIndex(k: string): boolean {
  const c = k.charCodeAt(0);
  if (!(c >= 48 && c <= 57)) return false;
  const n = Number(k);
  return Number.isInteger(n) && n < 4294967295 && String(n) === k;
}

/**
 * Keys in the order the reference's sorted copy enumerates them: the copy is an ordinary object,
 * so index-like keys come first in numeric order, then the other keys in sorted order.
 */
function orderedKeys(keys: string[]): string[] {
  let indexes: string[] | undefined;
  let others: string[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    if (isIndex(keys[i]!)) {
      if (!indexes) {
        indexes = [];
        others = keys.slice(0, i);
      }
      indexes.push(keys[i]!);
    } else if (others) others.push(keys[i]!);
  }
  if (!indexes) return sortStrings(keys);
  indexes.sort((a, b) => Number(a) - Number(b));
  return indexes.concat(sortStrings(others!));
}

// Characters JSON.stringify escapes (quote, backslash, controls) or may escape (lone surrogates).
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON text: most strings need no escaping and skip JSON.stringify's call. */
function quote(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : '"' + s + '"';
}

/** `"key":` texts of the keys seen so far: documents repeat the same few hundred keys. */
const keyTexts = new Map<string, string>();
const KEY_TEXTS_MAX = 65_536;

function keyText(k: string): string {
  let t = keyTexts.get(k);
  if (t === undefined) {
    t = quote(k) + ':';
    if (keyTexts.size < KEY_TEXTS_MAX) keyTexts.set(k, t);
  }
  return t;
}

/** Keys sorted as orderedKeys sorts them, sparing the sort when they already are (as is common). */
function sortedKeys(keys: string[]): string[] {
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const c = k.charCodeAt(0);
    // An index-like key needs orderedKeys' numeric handling.
    if (c >= 48 && c <= 57) return orderedKeys(keys);
    if (i > 0 && keys[i - 1]! >= k) return orderedKeys(keys);
  }
  return keys;
}

/** One value as JSON.stringify with the sorting replacer would write it; undefined when it is skipped. */
function write(v: unknown, key: string, depth: number): string | undefined {
  if ((typeof v === 'object' && v !== null) || typeof v === 'bigint' || typeof v === 'function') {
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') v = (toJSON as (k: string) => unknown).call(v, key);
  }
  switch (typeof v) {
    case 'string':
      return quote(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      // JSON.stringify's own error for a BigInt without toJSON.
      return JSON.stringify(v);
    case 'object':
      break;
    default:
      return undefined;
  }
  if (v === null) return 'null';
  if (depth > MAX_DEPTH) throw new TooDeep();
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) {
      if (i > 0) s += ',';
      s += write(v[i], String(i), depth + 1) ?? 'null';
    }
    return s + ']';
  }
  // Any other object (boxed primitives, Maps ...) is written as its own enumerable keys, as the
  // replacer of the reference does.
  const keys = sortedKeys(Object.keys(v));
  let s = '{';
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const item = write((v as Record<string, unknown>)[k], k, depth + 1);
    if (item === undefined) continue;
    s += (first ? keyText(k) : ',' + keyText(k)) + item;
    first = false;
  }
  return s + '}';
}

/**
 * JSON text with object keys sorted recursively, so two documents that differ only in key order
 * produce the same text (and the same content hash). Values follow JSON.stringify: undefined and
 * functions in objects are dropped, in arrays they become null, toJSON is honoured.
 *
 * Written by hand rather than through JSON.stringify's replacer: the replacer made a sorted copy of
 * every object, and ingest serialises each document several times (merge comparison, hash, storage).
 */
export function canonicalJson(value: unknown): string {
  return dataText(value) ?? otherText(value);
}

/**
 * canonicalJson(value), and whether the walk that wrote it found `value` to be JSON data exactly
 * as search/is-json-data.ts means it (what reading the text back returns). `data: false` may also
 * mean only that the fast walk declined the value (a key starting with a digit, `__proto__`,
 * `toJSON`, deep nesting). The store's writer thread learns this of a document handed to it as
 * text at no extra cost, instead of the indexing thread walking the document again.
 */
export function canonicalJsonOfData(value: unknown): { text: string; data: boolean } {
  const text = dataText(value);
  return text !== undefined ? { text, data: true } : { text: otherText(value), data: false };
}

/**
 * JSON data (what JSON.parse returns, nearly every document) with its keys sorted, written by
 * JSON.stringify: a third of write()'s time, since only out-of-order objects are copied. Undefined
 * for anything else.
 */
function dataText(value: unknown): string | undefined {
  const sorted = sortedData(value, 0);
  return sorted === NOT_DATA ? undefined : JSON.stringify(sorted);
}

function otherText(value: unknown): string {
  try {
    return write(value, '', 0) ?? 'null';
  } catch (e) {
    if (e instanceof TooDeep) return canonicalJsonReference(value);
    throw e;
  }
}

const NOT_DATA = Symbol('not JSON data');

/**
 * `v` with every object's keys in sorted order (copies of the objects that were not; the rest
 * shared), for JSON.stringify to write the canonical text; NOT_DATA for anything JSON.stringify
 * would write otherwise than write() does, or whose copy would differ, and for -0 (which both
 * write as 0, but which is not what reading the text back returns: canonicalJsonOfData's `data`):
 * values other than strings, finite numbers, booleans and null; objects other than plain objects and arrays; holes; a
 * `toJSON` or `__proto__` key; keys starting with a digit (index-like keys enumerate first in
 * numeric order, which write() follows and a sorted copy would not); deep nesting. An object
 * already in order is shared, so JSON.stringify reads its accessors again (as the same values).
 */
function sortedData(v: unknown, depth: number): unknown {
  if (typeof v !== 'object') {
    if (typeof v === 'string' || typeof v === 'boolean') return v;
    return typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0) ? v : NOT_DATA;
  }
  if (v === null) return v;
  if (depth > MAX_DEPTH) return NOT_DATA;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return NOT_DATA;
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      // A hole reads as undefined, which is not data either (no `in` test per element).
      const x: unknown = v[i];
      const y = sortedData(x, depth + 1);
      if (y === NOT_DATA) return NOT_DATA;
      if (out) out.push(y);
      else if (y !== x) {
        out = v.slice(0, i);
        out.push(y);
      }
    }
    return out ?? v;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return NOT_DATA;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  let inOrder = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const c = k.charCodeAt(0);
    if ((c >= 48 && c <= 57) || k === '__proto__' || k === 'toJSON') return NOT_DATA;
    if (i > 0 && keys[i - 1]! >= k) inOrder = false;
  }
  if (!inOrder) sortStrings(keys);
  let out: Record<string, unknown> | undefined = inOrder ? undefined : {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = o[k];
    const y = sortedData(x, depth + 1);
    if (y === NOT_DATA) return NOT_DATA;
    if (!out && y !== x) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]!] = o[keys[j]!];
    }
    if (out) out[k] = y;
  }
  return out ?? v;
}

/** A value canonicalEqual leaves to a comparison of texts. */
class NotPlain extends Error {}
const NOT_PLAIN = new NotPlain();
const isEnumerable = Object.prototype.propertyIsEnumerable;

/** Whether a value is left out of an object's text (and written as null in an array). */
function skipped(v: unknown): boolean {
  if (typeof v === 'function' && (v as { toJSON?: unknown }).toJSON !== undefined) throw NOT_PLAIN;
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** Identical strings, booleans and numbers write the same text (NaN is not identical to itself, but is null). */
function sameScalar(x: unknown, y: unknown): boolean {
  return x === y && (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean');
}

/**
 * Whether `a` and `b` have the same canonical JSON text, for plain data (see below): objects
 * have the same text exactly when the keys whose values are not skipped are the same set and
 * their values have the same text; arrays when they have the same length and elements (a skipped
 * element is null); strings, booleans and null when they are identical, finite numbers when they
 * are equal (String(-0) is "0"), and NaN and infinities are null. Text of different kinds never
 * matches ('"', '{', '[', digits, literals). Anything whose text depends on more than its data
 * (toJSON, boxed primitives, Maps, BigInts) or that is very deep throws NOT_PLAIN.
 */
function sameText(a: unknown, b: unknown, depth: number): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    const pa = plainScalar(a);
    const pb = plainScalar(b);
    // A plain object or array never writes what a scalar writes.
    if (pa === NOT_SCALAR) plainContainer(a as object);
    if (pb === NOT_SCALAR) plainContainer(b as object);
    return pa !== NOT_SCALAR && pb !== NOT_SCALAR && pa === pb;
  }
  if (depth > MAX_DEPTH) throw NOT_PLAIN;
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) {
    plainContainer(a);
    plainContainer(b);
    return false;
  }
  plainContainer(a);
  plainContainer(b);
  if (arrayA) {
    const xs = a as unknown[];
    const ys = b as unknown[];
    if (xs.length !== ys.length) return false;
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i];
      const y = ys[i];
      if (sameScalar(x, y)) continue;
      if (!sameText(skipped(x) ? null : x, skipped(y) ? null : y, depth + 1)) return false;
    }
    return true;
  }
  const oa = a as Record<string, unknown>;
  const ob = b as Record<string, unknown>;
  let kept = 0;
  for (const k of Object.keys(oa)) {
    const x = oa[k];
    if (skipped(x)) continue;
    kept++;
    if (!isEnumerable.call(ob, k)) return false;
    const y = ob[k];
    if (skipped(y)) return false;
    if (sameScalar(x, y)) continue;
    if (!sameText(x, y, depth + 1)) return false;
  }
  // Every kept key of `a` is a kept key of `b`: the sets are equal when their sizes are.
  for (const k of Object.keys(ob)) if (!skipped(ob[k])) kept--;
  return kept === 0;
}

const NOT_SCALAR = Symbol('not a scalar');

/** A scalar as the value its text stands for (NaN and infinities are null); throws NOT_PLAIN for text beyond its data. */
function plainScalar(v: unknown): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? v : null;
    case 'object':
      return v === null ? null : NOT_SCALAR;
    default:
      // BigInt: its text is JSON.stringify's (an error, or a toJSON someone defined). Skipped
      // values (undefined, functions, symbols) never get here: the callers drop them first.
      throw NOT_PLAIN;
  }
}

/** Throws NOT_PLAIN unless `v` is an array or an object written as its own keys alone. */
function plainContainer(v: object): void {
  const proto: unknown = Object.getPrototypeOf(v);
  if (Array.isArray(v) ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  if ((v as { toJSON?: unknown }).toJSON !== undefined) throw NOT_PLAIN;
}

/**
 * canonicalJson(a) === canonicalJson(b), for values canonicalJson can write (it throws for BigInts
 * and cycles; here a difference found first answers false), without writing either text for plain
 * data: merging compares whole documents and services, which serialising twice made costly.
 */
export function canonicalEqual(a: unknown, b: unknown): boolean {
  try {
    return sameText(skipped(a) ? null : a, skipped(b) ? null : b, 0);
  } catch (e) {
    if (!(e instanceof NotPlain)) throw e;
    return canonicalJson(a) === canonicalJson(b);
  }
}

/** SHA-256 (hex) of the canonical JSON of `value`. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
