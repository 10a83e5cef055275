import { canonicalEqual } from '../../store/canonical-json.ts';

export interface ServiceChanges {
  added: number;
  changed: number;
  removed: number;
}

type Json = Record<string, unknown>;

function byKey(doc: Json | undefined): Map<string, Json> {
  const out = new Map<string, Json>();
  const services = Array.isArray(doc?.services) ? (doc.services as Json[]) : [];
  for (const s of services) out.set(`${String(s.port)}/${String(s.transport_protocol)}`, s);
  return out;
}

/** An object whose canonical text is its own enumerable keys' (no toJSON, a plain prototype). */
function plainObject(v: unknown): v is Json {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && (v as { toJSON?: unknown }).toJSON === undefined;
}

/** A value left out of an object's canonical text; undefined when that depends on more (a function with toJSON). */
function leftOut(v: unknown): boolean | undefined {
  if (typeof v === 'function') return (v as { toJSON?: unknown }).toJSON === undefined ? true : undefined;
  return v === undefined || typeof v === 'symbol';
}

const isEnumerable = Object.prototype.propertyIsEnumerable;

/**
 * A new observation time alone is not a change of the service: the canonical texts of both
 * without `observed_at` are the same. Compared key by key, without copying either service.
 */
function sameService(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (!plainObject(a) || !plainObject(b)) return sameServiceByCopy(a, b);
  let kept = 0;
  for (const k of Object.keys(a)) {
    if (k === 'observed_at') continue;
    const x = a[k];
    const skipX = leftOut(x);
    if (skipX === undefined) return sameServiceByCopy(a, b);
    if (skipX) continue;
    kept++;
    if (!isEnumerable.call(b, k)) return false;
    const y = b[k];
    const skipY = leftOut(y);
    if (skipY === undefined) return sameServiceByCopy(a, b);
    if (skipY || !canonicalEqual(x, y)) return false;
  }
  // Every kept key of `a` is a kept key of `b`: the key sets are equal when their sizes are.
  for (const k of Object.keys(b)) {
    if (k === 'observed_at') continue;
    const skipY = leftOut(b[k]);
    if (skipY === undefined) return sameServiceByCopy(a, b);
    if (!skipY) kept--;
  }
  return kept === 0;
}

function sameServiceByCopy(a: Json, b: Json): boolean {
  const { observed_at: _a, ...ra } = a;
  const { observed_at: _b, ...rb } = b;
  return canonicalEqual(ra, rb);
}

/** Services added, changed (other than their observation time) and removed between two versions of a host. */
export function compareServices(before: Json | undefined, after: Json | undefined): ServiceChanges {
  const out: ServiceChanges = { added: 0, changed: 0, removed: 0 };
  if (before === after) return out;
  const a = byKey(before);
  const b = byKey(after);
  for (const [k, s] of b) {
    const old = a.get(k);
    if (old === undefined) out.added++;
    else if (!sameService(old, s)) out.changed++;
  }
  for (const k of a.keys()) if (!b.has(k)) out.removed++;
  return out;
}
