/**
 * PostgreSQL's jsonb cannot hold U+0000, which raw banners do contain. Documents bound for
 * PostgreSQL get a reversible encoding: U+E000 (a private-use character) becomes U+E000 U+E000
 * and U+0000 becomes U+E000 '0'. Reads decode it, so both dialects return identical documents.
 */
const MARK = '\uE000';

/** Applied to canonical JSON text, where U+0000 can only appear as the escape `\u0000`. */
export function encodeNulForPostgres(jsonText: string): string {
  if (!jsonText.includes('\\u0000') && !jsonText.includes(MARK)) return jsonText;
  return jsonText
    .replace(/\uE000/g, MARK + MARK)
    // `\u0000` is an escape only when the backslash before it is not itself escaped.
    .replace(/(\\+)u0000/g, (all: string, slashes: string) => (slashes.length % 2 === 1 ? slashes.slice(1) + MARK + '0' : all));
}

function decodeString(s: string): string {
  if (!s.includes(MARK)) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === MARK && i + 1 < s.length) {
      const next = s[++i];
      out += next === '0' ? '\u0000' : next;
    } else out += c;
  }
  return out;
}

/** Walks a document read back from PostgreSQL and undoes encodeNulForPostgres. */
export function decodeNulFromPostgres(value: unknown): unknown {
  if (typeof value === 'string') return decodeString(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = decodeNulFromPostgres(value[i]);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const decodedKey = decodeString(key);
      const v = decodeNulFromPostgres(obj[key]);
      if (decodedKey !== key) {
        delete obj[key];
        obj[decodedKey] = v;
      } else obj[key] = v;
    }
  }
  return value;
}
