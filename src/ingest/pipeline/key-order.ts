/**
 * Objects with their keys in canonical order (store/canonical-json.ts: sorted, index-like keys
 * first as JavaScript enumerates them anyway). The store writes documents as canonical JSON; an
 * object built in that order is written without sorting (canonicalJson only checks the order).
 * Merging uses these for parts made once and shared (a certificate's names, software documents);
 * sorting every merged service and host cost as much as it spared the writer (docs/BENCHMARK.md).
 * Parts made once per record are instead built in that order where their keys are known: a new
 * host's document (merge-host.ts), zgrab2's `http` and `ssh` objects; services are not (their
 * protocol keys interleave with the fixed ones), and canonicalJson sorts copies of them.
 * Nothing here changes what is stored: key order is all these functions change.
 */

import { sortStrings } from '../../lib/sort-small.ts';

type Json = Record<string, unknown>;

function isPlainObject(v: unknown): v is Json {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Whether the keys are strictly ascending and none starts with a digit (so none is index-like). */
function ascending(keys: readonly string[]): boolean {
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const c = k.charCodeAt(0);
    if (c >= 48 && c <= 57) return false;
    if (i > 0 && keys[i - 1]! >= k) return false;
  }
  return true;
}

/** `o` itself when its keys are in order, else a copy with the same properties in order. */
export function sortedShallow<T extends Json>(o: T): T {
  const keys = Object.keys(o);
  // An own `__proto__` key (JSON.parse makes one) would set the copy's prototype instead.
  if (ascending(keys) || keys.includes('__proto__')) return o;
  sortStrings(keys);
  const out: Json = {};
  for (const k of keys) out[k] = o[k];
  return out as T;
}

/**
 * `v` with every plain object's keys in order, copying only the objects (and the arrays holding
 * them) that were not; values that are not plain objects or arrays are kept as they are.
 */
export function sortedDeep<T>(v: T, depth = 0): T {
  if (depth > 64 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const y = sortedDeep(x, depth + 1);
      if (y !== x) (out ??= v.slice())[i] = y;
    }
    return (out ?? v) as T;
  }
  if (!isPlainObject(v)) return v;
  const keys = Object.keys(v);
  if (keys.includes('__proto__')) return v;
  if (ascending(keys)) {
    let out: Json | undefined;
    for (const k of keys) {
      const x = v[k];
      const y = sortedDeep(x, depth + 1);
      if (y !== x) (out ??= { ...v })[k] = y;
    }
    return (out ?? v) as T;
  }
  sortStrings(keys);
  const sorted: Json = {};
  for (const k of keys) sorted[k] = sortedDeep(v[k], depth + 1);
  return sorted as T;
}
