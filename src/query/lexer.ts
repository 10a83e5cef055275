/**
 * The query lexer. What a character means depends on where the parser is, so the lexer is a pure
 * function of (text, position, mode) and the parser asks for the next token in the mode it needs:
 *
 * - term:  between conditions. Words stop at whitespace and `()[]{}"\`=<>`. A word holding a `:`
 *          is split before the first one when the part before it is a field name and the whole
 *          word is not an IP or CIDR (so bare `2001:db8::1` stays a term while `ip:1.2.3.4` is
 *          a field condition).
 * - value: after `field:` / `field =`. Words run until whitespace or a parenthesis, so `:`, `/`
 *          and `=` inside values (IPv6, CPEs, dates, `now/d`) need no escaping.
 * - list:  inside `{...}` and `[...]`: like value, and `,` `]` `}` also end a word.
 *
 * A backslash makes the next character literal in words (`\*` is a literal star, `\:` a literal
 * colon); quoted strings only know `\"` (or `\'`) and `\\`.
 */
import type { ValueNode } from './ast.ts';
import { cidrRange, parseIp } from '../lib/ip.ts';

export type LexMode = 'term' | 'value' | 'list';

export type PunctKind =
  | 'and'
  | 'or'
  | 'not'
  | 'minus'
  | 'lparen'
  | 'rparen'
  | 'lbracket'
  | 'rbracket'
  | 'lbrace'
  | 'rbrace'
  | 'comma'
  | 'colon'
  | 'eq'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'eof';

export type Token =
  | { readonly kind: PunctKind; readonly start: number; readonly end: number }
  | {
      readonly kind: 'value';
      readonly value: ValueNode;
      /** A word written without any backslash: only such words can be keywords or field names. */
      readonly plain: boolean;
      readonly boost?: number;
      readonly start: number;
      readonly end: number;
    }
  | { readonly kind: 'error'; readonly message: string; readonly start: number; readonly end: number };

/** Field paths: dotted segments of letters, digits, `_` and `-`. */
export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*$/;

const KEYWORDS: Record<string, PunctKind> = { and: 'and', or: 'or', not: 'not' };

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || /\s/.test(c);
}

const TERM_STOP = new Set(['(', ')', '[', ']', '{', '}', '"', '`', '=', '<', '>']);
const VALUE_STOP = new Set(['(', ')']);
const LIST_STOP = new Set(['(', ')', ',', ']', '}']);

function stops(mode: LexMode): Set<string> {
  return mode === 'term' ? TERM_STOP : mode === 'value' ? VALUE_STOP : LIST_STOP;
}

export function skipSpace(src: string, pos: number): number {
  while (pos < src.length && isSpace(src[pos])) pos++;
  return pos;
}

function isIpOrCidr(text: string): boolean {
  return parseIp(text) !== undefined || cidrRange(text) !== undefined;
}

function punct(kind: PunctKind, start: number, length: number): Token {
  return { kind, start, end: start + length };
}

function error(message: string, start: number, end: number): Token {
  return { kind: 'error', message, start, end };
}

/** `^2` or `^1.5` right after a term: a v1 boost, accepted and ignored. */
function boostAt(src: string, pos: number): { boost: number; end: number } | undefined {
  const m = /^\^(\d{1,6}(?:\.\d{1,6})?)/.exec(src.slice(pos, pos + 16));
  return m ? { boost: Number(m[1]), end: pos + m[0].length } : undefined;
}

function withBoost(token: Token & { kind: 'value' }, src: string, mode: LexMode): Token {
  if (mode !== 'term') return token;
  const b = boostAt(src, token.end);
  return b ? { ...token, boost: b.boost, end: b.end } : token;
}

function scanQuoted(src: string, start: number, mode: LexMode): Token {
  const q = src[start] as '"' | "'";
  let text = '';
  let i = start + 1;
  for (;;) {
    if (i >= src.length) return error('Unterminated quoted string', start, src.length);
    const c = src[i];
    if (c === '\\' && (src[i + 1] === q || src[i + 1] === '\\')) {
      text += src[i + 1];
      i += 2;
    } else if (c === q) {
      i++;
      break;
    } else {
      text += c;
      i++;
    }
  }
  const span = { start, end: i };
  return withBoost({ kind: 'value', value: { kind: 'quoted', text, quote: q, span }, plain: false, start, end: i }, src, mode);
}

function scanLiteral(src: string, start: number, mode: LexMode): Token {
  const close = src.indexOf('`', start + 1);
  if (close < 0) return error('Unterminated backtick literal', start, src.length);
  const span = { start, end: close + 1 };
  const value: ValueNode = { kind: 'literal', text: src.slice(start + 1, close), span };
  return withBoost({ kind: 'value', value, plain: false, start, end: close + 1 }, src, mode);
}

function scanRegex(src: string, start: number, mode: LexMode): Token {
  let source = '';
  let i = start + 1;
  for (;;) {
    if (i >= src.length) return error('Unterminated regular expression', start, src.length);
    const c = src[i];
    if (c === '\\') {
      if (i + 1 >= src.length) return error('Unterminated regular expression', start, src.length);
      source += src[i + 1] === '/' ? '/' : c + src[i + 1];
      i += 2;
    } else if (c === '/') {
      i++;
      break;
    } else {
      source += c;
      i++;
    }
  }
  if (source === '') return error('Empty regular expression', start, i);
  const span = { start, end: i };
  return withBoost({ kind: 'value', value: { kind: 'regex', source, span }, plain: false, start, end: i }, src, mode);
}

function scanWord(src: string, start: number, mode: LexMode): Token {
  const stop = stops(mode);
  let text = '';
  const wildcards: number[] = [];
  let plain = true;
  let firstColon = -1;
  let lastCaret = -1;
  let lastCaretText = -1;
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') {
      if (i + 1 >= src.length) return error("Escape character '\\' at the end of the query", i, i + 1);
      text += src[i + 1];
      plain = false;
      i += 2;
      continue;
    }
    if (isSpace(c) || stop.has(c)) break;
    if (c === '*' || c === '?') wildcards.push(text.length);
    if (c === ':' && firstColon < 0) firstColon = i;
    if (c === '^') {
      lastCaret = i;
      lastCaretText = text.length;
    }
    text += c;
    i++;
  }
  if (mode === 'term') {
    // `http://host` reads as a URL, not as field `http`.
    if (firstColon > start && src.slice(firstColon + 1, firstColon + 3) !== '//') {
      const prefix = src.slice(start, firstColon);
      if (FIELD_NAME.test(prefix) && !isIpOrCidr(text)) {
        const span = { start, end: firstColon };
        return { kind: 'value', value: { kind: 'word', text: prefix, wildcards: [], span }, plain: true, start, end: firstColon };
      }
    }
    if (lastCaret > start && /^\d{1,6}(?:\.\d{1,6})?$/.test(src.slice(lastCaret + 1, i))) {
      const boost = Number(src.slice(lastCaret + 1, i));
      const kept = text.slice(0, lastCaretText);
      const span = { start, end: lastCaret };
      const value: ValueNode = { kind: 'word', text: kept, wildcards: wildcards.filter((w) => w < lastCaretText), span };
      return { kind: 'value', value, plain, boost, start, end: i };
    }
    if (plain) {
      const kw = KEYWORDS[text.toLowerCase()];
      if (kw) return punct(kw, start, i - start);
    }
  }
  const span = { start, end: i };
  return { kind: 'value', value: { kind: 'word', text, wildcards, span }, plain, start, end: i };
}

/** The token starting at or after `pos` (leading whitespace skipped) in the given mode. */
export function scanToken(src: string, pos: number, mode: LexMode): Token {
  const start = skipSpace(src, pos);
  if (start >= src.length) return punct('eof', src.length, 0);
  const c = src[start];
  const next = src[start + 1];
  switch (c) {
    case '(':
      return punct('lparen', start, 1);
    case ')':
      return punct('rparen', start, 1);
    case '"':
    case "'":
      return scanQuoted(src, start, mode);
    case '`':
      return scanLiteral(src, start, mode);
    case '/':
      return scanRegex(src, start, mode);
  }
  if (c === '[') return punct('lbracket', start, 1);
  if (c === '{') return punct('lbrace', start, 1);
  if (mode !== 'value' && c === ']') return punct('rbracket', start, 1);
  if (mode !== 'value' && c === '}') return punct('rbrace', start, 1);
  if (mode === 'list' && c === ',') return punct('comma', start, 1);
  if (mode !== 'list') {
    if (c === '>') return next === '=' ? punct('gte', start, 2) : punct('gt', start, 1);
    if (c === '<') return next === '=' ? punct('lte', start, 2) : punct('lt', start, 1);
  }
  if (mode === 'term') {
    if (c === '=') return punct('eq', start, 1);
    if (c === '&' && next === '&') return punct('and', start, 2);
    if (c === '|' && next === '|') return punct('or', start, 2);
    if (c === '!') return punct('not', start, 1);
    if (c === '-') return punct('minus', start, 1);
    if (c === ':') {
      const word = scanWord(src, start, 'term');
      if (word.kind === 'value' && word.value.kind === 'word' && isIpOrCidr(word.value.text)) return word;
      return punct('colon', start, 1);
    }
  }
  return scanWord(src, start, mode);
}

/** The operator after a field name (`:`, `=`, `>`, `>=`, `<`, `<=`), if one follows. */
export function scanFieldOp(src: string, pos: number): Token | undefined {
  const start = skipSpace(src, pos);
  const c = src[start];
  if (c === ':') return punct('colon', start, 1);
  if (c === '=') return punct('eq', start, 1);
  if (c === '>') return src[start + 1] === '=' ? punct('gte', start, 2) : punct('gt', start, 1);
  if (c === '<') return src[start + 1] === '=' ? punct('lte', start, 2) : punct('lt', start, 1);
  return undefined;
}

/** How a token reads in a message: `'and'`, `')'`, `end of query`. */
export function describeToken(src: string, token: Token): string {
  if (token.kind === 'eof') return 'end of query';
  const text = src.slice(token.start, token.end);
  return `'${text.length > 30 ? text.slice(0, 30) + '…' : text}'`;
}
