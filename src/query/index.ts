/**
 * The Censys query language: parse query text, resolve it against a field catalogue, and say
 * where and why a query is wrong.
 */
import type { FieldCatalogue } from '../model/field-def.ts';
import type { QueryNode } from './ast.ts';
import { parseQuery } from './parser.ts';
import type { QueryError } from './query-error.ts';
import type { ResolvedQuery } from './resolved.ts';
import { resolveQuery } from './resolve.ts';

export type { Span, ValueNode, RangeNode, SetNode, Operand, FieldOp, QueryNode } from './ast.ts';
export type { ResolvedQuery, Predicate } from './resolved.ts';
export type { QueryError } from './query-error.ts';
export { queryError, formatQueryError, formatQueryErrorWithCaret } from './query-error.ts';
export { scanToken, scanFieldOp, FIELD_NAME } from './lexer.ts';
export type { Token, LexMode, PunctKind } from './lexer.ts';
export { parseQuery, MAX_QUERY_LENGTH, MAX_DEPTH } from './parser.ts';
export type { ParseResult } from './parser.ts';
export { resolveQuery, MAX_REGEX_LENGTH, MAX_RESOLVED_NODES } from './resolve.ts';
export type { ResolveOptions, ResolveResult } from './resolve.ts';
export { parseDateValue } from './parse-date.ts';
export type { DateValue } from './parse-date.ts';
export { printAst, printValue } from './print-ast.ts';
export { andOf, orOf, notOf } from './simplify.ts';

export type CompileResult =
  | { readonly ok: true; readonly query: ResolvedQuery; readonly ast: QueryNode }
  | { readonly ok: false; readonly error: QueryError };

/** Parses and resolves `text` against `catalogue`; `now` (default: the current time) anchors `now` in dates. */
export function compileQuery(text: string, catalogue: FieldCatalogue, options: { readonly now?: Date } = {}): CompileResult {
  const parsed = parseQuery(text);
  if (!parsed.ok) return parsed;
  const resolved = resolveQuery(parsed.ast, catalogue, { now: options.now ?? new Date() });
  if (!resolved.ok) return resolved;
  return { ok: true, query: resolved.query, ast: parsed.ast };
}
