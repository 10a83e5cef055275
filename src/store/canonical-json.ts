import { createHash } from 'node:crypto';

/**
 * JSON text with object keys sorted recursively, so two documents that differ only in key order
 * produce the same text (and the same content hash). Values follow JSON.stringify: undefined and
 * functions in objects are dropped, in arrays they become null, toJSON is honoured.
 */
export function canonicalJson(value: unknown): string {
  const out = JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    // No prototype: a `__proto__` key in the data must stay a key, not replace the prototype.
    const sorted: Record<string, unknown> = Object.create(null);
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
  return out ?? 'null';
}

/** SHA-256 (hex) of the canonical JSON of `value`. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
