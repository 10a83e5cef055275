/**
 * Compiled forms of the string-matching predicates (wildcard, regex, phrase). Shared by both
 * engines: the embedded engine tests dictionary terms with them, the reference tests values.
 */

function compile(source: string, caseSensitive: boolean): RegExp | undefined {
  const flags = caseSensitive ? 's' : 'is';
  // Unicode mode first so `?` and `.` mean one character; sources that are only valid in
  // legacy mode (e.g. `\-` or `{` as a literal) still work without it.
  for (const f of [flags + 'u', flags]) {
    try {
      return new RegExp(`^(?:${source})$`, f);
    } catch {
      // try the next flag set
    }
  }
  return undefined;
}

/** `*` = any run, `?` = one character, everything else literal; anchored to the whole string. */
export function wildcardRegExp(pattern: string, caseSensitive: boolean): RegExp | undefined {
  let source = '';
  for (const ch of pattern) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  }
  return compile(source, caseSensitive);
}

/** A user regular expression anchored to the whole string; undefined when it does not compile (matches nothing). */
export function userRegExp(source: string, caseSensitive: boolean): RegExp | undefined {
  return compile(source, caseSensitive);
}

/** The literal text before the first wildcard character (usable to range-scan a sorted dictionary). */
export function wildcardPrefix(pattern: string): string {
  const i = pattern.search(/[*?]/);
  return i < 0 ? pattern : pattern.slice(0, i);
}

/** True when every token of `wanted` occurs among `tokens`, consecutively and in order when `phrase`. */
export function tokensMatch(tokens: readonly string[], wanted: readonly string[], phrase: boolean): boolean {
  if (wanted.length === 0) return false;
  if (!phrase || wanted.length === 1) return wanted.every((w) => tokens.includes(w));
  outer: for (let i = 0; i + wanted.length <= tokens.length; i++) {
    for (let j = 0; j < wanted.length; j++) if (tokens[i + j] !== wanted[j]) continue outer;
    return true;
  }
  return false;
}
