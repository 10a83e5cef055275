/**
 * Values of a text slot that can match a wildcard with literal text inside it
 * (`services.banner: *nginx/1.1*`), found through the slot's token index instead of testing
 * every value: the candidates are then tested with the pattern's regular expression.
 *
 * A value matching the pattern holds each literal piece (the text between wildcard characters)
 * somewhere, in any letter case. Its tokens are the lower-cased runs of letters and digits
 * (`tokenize`), so each run of letters and digits in a piece is part of one of the value's
 * tokens: the token is the run itself where the piece has other characters on both sides of
 * it, ends with it where only after it, starts with it where only before it, and contains it
 * otherwise. Intersecting the values of those tokens keeps every value that can match.
 *
 * Only ASCII pieces are used. The case-insensitive regular expressions match `ſ` (U+017F) for
 * `s` and `K` (U+212A) for `k`; `K` lower-cases to `k`, but `ſ` stays as it is, so the values of
 * tokens holding it are always candidates (the token index lists them).
 */
import type { Bitmap } from './bitmap.ts';
import type { TokenIndex } from './token-index.ts';

/** Runs this short are too common to narrow anything unless they are whole tokens. */
const MIN_PARTIAL = 3;
/** A prefix shared by more tokens than this is not worth a union of all their values. */
const MAX_PREFIX_TOKENS = 4096;

interface Run {
  readonly text: string;
  /** Another character of the piece before / after the run: the token starts / ends there. */
  readonly startsToken: boolean;
  readonly endsToken: boolean;
}

/** The runs of letters and digits of each literal piece of `pattern`, or undefined when a piece is not ASCII. */
export function literalRuns(pattern: string): Run[] | undefined {
  const runs: Run[] = [];
  for (const piece of pattern.split(/[*?]/)) {
    if (!/^[\x00-\x7f]*$/.test(piece)) return undefined;
    const lower = piece.toLowerCase();
    for (const m of lower.matchAll(/[a-z0-9]+/g)) {
      const start = m.index;
      const end = start + m[0].length;
      runs.push({ text: m[0], startsToken: start > 0, endsToken: end < lower.length });
    }
  }
  return runs;
}

/**
 * Value ordinals that can match the wildcard `pattern` (a superset of the matches), or undefined
 * when its literal text leaves more than seven eighths of the slot's `valueCount` values:
 * testing every value in the dictionary's order is then cheaper than reading that many one by
 * one. (Below that, testing the candidates wins: the pattern's test costs more than reading a
 * value out of order — at 100,000 hosts `*wp-content*` kept more than half of the HTTP bodies
 * and took 17.0 ms testing them against 21.6 ms testing every body.)
 */
export function substringCandidates(ti: TokenIndex, pattern: string, valueCount: number): Uint32Array | undefined {
  const runs = literalRuns(pattern);
  if (runs === undefined) return undefined;
  let acc: Bitmap | undefined;
  const narrow = (b: Bitmap): void => {
    if (acc === undefined) acc = b;
    else acc.andInPlace(b);
  };
  // Whole tokens first (one posting list each), then prefixes (a range of the sorted tokens).
  for (const r of runs) {
    if (!r.startsToken || !r.endsToken) continue;
    const t = ti.tokens.get(r.text);
    narrow(t < 0 ? ti.values.union([]) : ti.values.bitmap(t));
  }
  for (const r of runs) {
    if (!r.startsToken || r.endsToken || r.text.length < MIN_PARTIAL) continue;
    const ords = tokensWithPrefix(ti, r.text, MAX_PREFIX_TOKENS);
    if (ords !== undefined) narrow(ti.values.union(ords));
  }
  // Common tokens ("1" of HTTP/1.1) narrow little: then the longest other run's tokens are
  // found by testing every token (far fewer than the values, and short).
  if (acc === undefined || acc.size * 8 > valueCount) {
    let best: Run | undefined;
    for (const r of runs) {
      if (r.startsToken && (r.endsToken || r.text.length >= MIN_PARTIAL)) continue; // used above
      if (r.text.length >= MIN_PARTIAL && (best === undefined || r.text.length > best.text.length)) best = r;
    }
    if (best !== undefined) {
      narrow(ti.values.union(ti.tokens.containing(best.text, best.endsToken)));
    }
  }
  if (acc === undefined) return undefined;
  const out: Bitmap = acc;
  if (ti.longS.length > 0) out.orInPlace(ti.values.union(ti.longS));
  return out.size * 8 > valueCount * 7 ? undefined : out.toUint32Array();
}

/**
 * Token ordinals that can match the whole of the wildcard `pattern` (a superset), or undefined
 * for all of them. Tokens are letters and digits only, so an ASCII pattern with any other
 * literal character matches none; otherwise a matching token holds the pattern's longest piece.
 */
export function tokenCandidates(ti: TokenIndex, pattern: string): number[] | undefined {
  // Case-insensitive matching folds some non-ASCII characters that are neither letters nor
  // digits into letters (U+0345 into ι): only ASCII patterns are narrowed. No other character
  // folds into ASCII punctuation, so an ASCII one in the pattern rules every token out.
  if (!/^[\x00-\x7f]*$/.test(pattern)) return undefined;
  if (!/^[a-z0-9*?]*$/i.test(pattern)) return [];
  const runs = literalRuns(pattern);
  if (runs === undefined || runs.length === 0) return undefined;
  let want = '';
  for (const r of runs) if (r.text.length > want.length) want = r.text;
  const toks = ti.tokens;
  const out = toks.containing(want, false);
  for (const t of ti.longS) if (!toks.at(t).includes(want)) out.push(t);
  return out;
}

/** Ordinals of the tokens starting with `prefix`; undefined when there are more than `limit`. */
export function tokensWithPrefix(ti: TokenIndex, prefix: string, limit = Infinity): number[] | undefined {
  const sorted = ti.sortedTokens();
  const toks = ti.tokens;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (toks.at(sorted[mid]) < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let p = lo; p < sorted.length && toks.at(sorted[p]).startsWith(prefix); p++) {
    if (out.length === limit) return undefined;
    out.push(sorted[p]);
  }
  return out;
}
