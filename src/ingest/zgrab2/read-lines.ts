export type JsonHead =
  | { readonly complete: true; readonly value: Record<string, unknown> }
  /** The first line did not end inside the head (a long record): only its text prefix is known. */
  | { readonly complete: false; readonly prefix: string };

/**
 * The first JSON object of a JSON-lines head (which may be cut mid-record), or undefined when the
 * head does not start with one.
 */
export function jsonHead(head: Buffer): JsonHead | undefined {
  const text = head.toString('utf8');
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const line = (nl < 0 ? text.slice(start) : text.slice(start, nl)).trim();
    if (line === '') {
      if (nl < 0) return undefined;
      start = nl + 1;
      continue;
    }
    if (!line.startsWith('{')) return undefined;
    try {
      const v: unknown = JSON.parse(line);
      return isObject(v) ? { complete: true, value: v } : undefined;
    } catch {
      return nl < 0 ? { complete: false, prefix: line } : undefined;
    }
  }
  return undefined;
}

/** Whether a cut-off JSON text mentions `"key":` (a weak test, for heads whose first record is long). */
export function mentionsKey(prefix: string, key: string): boolean {
  return new RegExp(`"${key}"\\s*:`).test(prefix);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

export function obj(v: unknown): Record<string, unknown> | undefined {
  return isObject(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function validPort(v: unknown): number | undefined {
  const n = num(v);
  return n !== undefined && Number.isInteger(n) && n >= 1 && n <= 65535 ? n : undefined;
}
