/**
 * Whether a document handed to the store is exactly what reading it back would return, so the
 * indexer may index it without that read. The SQLite store keeps canonical JSON text and reads it
 * back with JSON.parse (PostgreSQL's jsonb returns the same values, NULs included: store/pg-nul.ts),
 * so what comes back is `JSON.parse(canonicalJson(doc))`. That equals `doc` (key order aside:
 * jsonb reorders keys too, and the engine indexes by key, not by position) exactly when `doc` is
 * something JSON.parse could have returned, -0 aside. Whatever canonicalJson would change is
 * refused: undefined, functions (a toJSON method among them), symbols and BigInts; NaN,
 * infinities and -0 (written as null and 0); objects other than plain objects and arrays (Dates,
 * class instances, boxed primitives, objects without a prototype); holes and extra keys in arrays.
 *
 * Accessor properties and proxies are read as the values they return, as canonicalJson reads
 * them: telling them apart costs more than the read this check saves (a property descriptor per
 * key), and a document that changes between two reads already breaks the store, which serialises
 * it at a moment of its own choosing (the writer thread's turn).
 */

/** Deeper documents are read back instead (canonicalJson itself switches to its reference implementation there). */
const MAX_DEPTH = 256;

export function isJsonData(value: unknown): boolean {
  return isData(value, 0);
}

function isData(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object':
      break;
    default:
      return false;
  }
  if (v === null) return true;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return false;
    // A hole reads as undefined and is refused; other keys are dropped by JSON.
    if (Object.keys(v).length !== v.length) return false;
    for (let i = 0; i < v.length; i++) if (!isData(v[i], depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return false;
  const obj = v as Record<string, unknown>;
  for (const k of Object.keys(obj)) if (!isData(obj[k], depth + 1)) return false;
  return true;
}
