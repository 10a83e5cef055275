/**
 * Recursive-descent parser for the Censys query language:
 *
 *   query   := or?                       (empty or blank = match all)
 *   or      := and (('or' | '||') and)*
 *   and     := unary (('and' | '&&')? unary)*      (adjacent terms are AND-ed)
 *   unary   := ('not' | '!' | '-') unary | primary
 *   primary := '(' or ')' | 'same_service' '(' or ')' | field | term
 *   field   := NAME (':' | '=') (value | '(' or ')' | set | range | cmp value)
 *            | NAME cmp value
 *   set     := '{' value (',' value)* '}'
 *   range   := ('[' | '{') value 'TO' value (']' | '}')       (`*` = open end, `to` in any case)
 *
 * Failures are returned as values; internally they unwind the recursion as a private exception
 * that never leaves this module. Depth and length limits keep hostile input from exhausting
 * the stack.
 */
import type { FieldOp, Operand, QueryNode, Span, ValueNode } from './ast.ts';
import { FIELD_NAME, describeToken, scanFieldOp, scanToken } from './lexer.ts';
import type { LexMode, Token } from './lexer.ts';
import { queryError } from './query-error.ts';
import type { QueryError } from './query-error.ts';

export const MAX_QUERY_LENGTH = 10_000;
/** Parentheses, groups and negations together. */
export const MAX_DEPTH = 64;

export type ParseResult = { readonly ok: true; readonly ast: QueryNode } | { readonly ok: false; readonly error: QueryError };

class ParseFailure {
  constructor(readonly error: QueryError) {}
}

function fail(message: string, start: number, end: number): ParseFailure {
  return new ParseFailure(queryError(message, start, Math.max(0, end - start)));
}

type ValueToken = Token & { kind: 'value' };

const OPS: Partial<Record<Token['kind'], FieldOp>> = {
  colon: ':',
  eq: '=',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
};

function startsTerm(t: Token): boolean {
  return t.kind === 'value' || t.kind === 'lparen' || t.kind === 'not' || t.kind === 'minus';
}

function isBareStar(v: ValueNode): boolean {
  return v.kind === 'word' && v.text === '*' && v.wildcards.length === 1;
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  private peek(mode: LexMode = 'term'): Token {
    const t = scanToken(this.src, this.pos, mode);
    if (t.kind === 'error') throw fail(t.message, t.start, t.end);
    return t;
  }

  private take(t: Token): void {
    this.pos = t.end;
  }

  private text(t: Token): string {
    return this.src.slice(t.start, t.end);
  }

  private enter(t: Token): void {
    this.depth++;
    if (this.depth > MAX_DEPTH) throw fail(`Query is nested too deeply (at most ${MAX_DEPTH} levels)`, t.start, t.end);
  }

  private leave(): void {
    this.depth--;
  }

  private unexpected(t: Token): ParseFailure {
    switch (t.kind) {
      case 'eof':
        return fail('Unexpected end of query', t.start, t.end);
      case 'rparen':
        return fail("Unexpected ')' without a matching '('", t.start, t.end);
      case 'and':
      case 'or':
        return fail(`Expected a term before ${describeToken(this.src, t)}`, t.start, t.end);
      case 'colon':
      case 'eq':
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        return fail(`Unexpected ${describeToken(this.src, t)}: a field name must come right before it`, t.start, t.end);
      default:
        return fail(`Unexpected ${describeToken(this.src, t)}`, t.start, t.end);
    }
  }

  /** After an operator (`and`, `or`, `not`, `-`), a term must follow. */
  private expectTermAfter(op: Token): void {
    const next = this.peek();
    if (!startsTerm(next)) throw fail(`Expected a term after ${describeToken(this.src, op)}`, next.start, next.end);
  }

  parseAll(): QueryNode {
    const first = this.peek();
    if (first.kind === 'eof') return { type: 'all', span: { start: 0, end: this.src.length } };
    const node = this.parseOr();
    const rest = this.peek();
    if (rest.kind !== 'eof') throw this.unexpected(rest);
    return node;
  }

  private parseOr(): QueryNode {
    const children = [this.parseAnd()];
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'or') break;
      this.take(t);
      this.expectTermAfter(t);
      children.push(this.parseAnd());
    }
    if (children.length === 1) return children[0];
    return { type: 'or', children, span: spanOf(children) };
  }

  private parseAnd(): QueryNode {
    const children = [this.parseUnary()];
    for (;;) {
      const t = this.peek();
      if (t.kind === 'and') {
        this.take(t);
        this.expectTermAfter(t);
      } else if (!startsTerm(t)) {
        break;
      }
      children.push(this.parseUnary());
    }
    if (children.length === 1) return children[0];
    return { type: 'and', children, span: spanOf(children) };
  }

  private parseUnary(): QueryNode {
    const t = this.peek();
    if (t.kind !== 'not' && t.kind !== 'minus') return this.parsePrimary();
    this.take(t);
    this.expectTermAfter(t);
    if (t.kind === 'minus' && this.peek().start !== t.end) {
      throw fail("Expected a term right after '-' (write 'not' to negate with a space)", t.start, t.end);
    }
    this.enter(t);
    const child = this.parseUnary();
    this.leave();
    return { type: 'not', child, span: { start: t.start, end: child.span.end } };
  }

  private parsePrimary(): QueryNode {
    const t = this.peek();
    if (t.kind === 'lparen') return this.parseParens(t, (child) => child);
    if (t.kind !== 'value') throw this.unexpected(t);
    const v = t.value;
    if (v.kind === 'word' && t.plain && t.boost === undefined) {
      if (v.text.toLowerCase() === 'same_service') {
        const open = scanToken(this.src, t.end, 'term');
        if (open.kind === 'lparen') return this.parseGroup(t, 'same_service', open);
      }
    }
    if (v.kind === 'word' && t.boost === undefined) {
      const op = scanFieldOp(this.src, t.end);
      if (op) return this.parseField(t, op);
    }
    this.take(t);
    if (isBareStar(v) && t.boost === undefined) return { type: 'all', span: v.span };
    const span = { start: t.start, end: t.end };
    return t.boost === undefined ? { type: 'term', value: v, span } : { type: 'term', value: v, boost: t.boost, span };
  }

  /** `( or )`, with `wrap` building the node from the inner query and the closing span. */
  private parseParens(open: Token, wrap: (child: QueryNode, end: number) => QueryNode): QueryNode {
    this.enter(open);
    this.take(open);
    const first = this.peek();
    if (first.kind === 'rparen') throw fail('Empty parentheses', open.start, first.end);
    if (first.kind === 'eof') throw fail("Unclosed '(' (missing ')')", open.start, open.end);
    const child = this.parseOr();
    const close = this.peek();
    if (close.kind === 'eof') throw fail("Unclosed '(' (missing ')')", open.start, open.end);
    if (close.kind !== 'rparen') {
      throw fail(`Expected ')' to close the '(' at position ${open.start}, found ${describeToken(this.src, close)}`, close.start, close.end);
    }
    this.take(close);
    this.leave();
    return wrap(child, close.end);
  }

  private fieldName(t: ValueToken): string {
    const v = t.value;
    if (v.kind !== 'word' || !t.plain || !FIELD_NAME.test(v.text)) {
      throw fail(`Invalid field name ${describeToken(this.src, t)}`, t.start, t.end);
    }
    return v.text;
  }

  private parseGroup(name: ValueToken, form: 'field' | 'same_service', open: Token): QueryNode {
    const field = form === 'same_service' ? 'services' : this.fieldName(name);
    const fieldSpan = { start: name.start, end: name.end };
    return this.parseParens(open, (child, end) => ({
      type: 'group',
      field,
      fieldSpan,
      form,
      child,
      span: { start: name.start, end },
    }));
  }

  private parseField(name: ValueToken, opTok: Token): QueryNode {
    const field = this.fieldName(name);
    const fieldSpan = { start: name.start, end: name.end };
    this.take(opTok);
    let op = OPS[opTok.kind] as FieldOp;
    let operand: Operand;
    if (op === ':' || op === '=') {
      const v = this.peek('value');
      const cmp = OPS[v.kind];
      if (v.kind === 'lparen' && op === ':') {
        return this.parseGroup(name, 'field', v);
      } else if (cmp !== undefined && cmp !== ':' && cmp !== '=') {
        this.take(v);
        op = cmp;
        operand = this.parseSingleValue(v);
      } else if (v.kind === 'lbracket' || v.kind === 'lbrace') {
        operand = this.parseRangeOrSet(v);
      } else if (v.kind === 'value') {
        this.take(v);
        operand = v.value;
      } else {
        throw fail(`Expected a value after ${describeToken(this.src, opTok)}`, v.start, v.end);
      }
    } else {
      operand = this.parseSingleValue(opTok);
    }
    return { type: 'field', field, fieldSpan, op, operand, span: { start: name.start, end: operand.span.end } };
  }

  private parseSingleValue(after: Token): ValueNode {
    const v = this.peek('value');
    if (v.kind !== 'value') throw fail(`Expected a value after ${describeToken(this.src, after)}`, v.start, v.end);
    this.take(v);
    return v.value;
  }

  private unclosed(open: Token): ParseFailure {
    const c = this.text(open);
    return fail(`Unclosed '${c}' (missing '${c === '[' ? ']' : '}'}')`, open.start, open.end);
  }

  private parseRangeOrSet(open: Token): Operand {
    this.take(open);
    const first = this.peek('list');
    if (first.kind === 'rbrace' && open.kind === 'lbrace') throw fail('Empty value set', open.start, first.end);
    if (first.kind === 'eof') throw this.unclosed(open);
    if (first.kind !== 'value') throw fail(`Expected a value after ${describeToken(this.src, open)}`, first.start, first.end);
    this.take(first);
    const sep = this.peek('list');
    if (sep.kind === 'value' && sep.value.kind === 'word' && sep.plain && sep.value.text.toLowerCase() === 'to') {
      this.take(sep);
      return this.finishRange(open, first);
    }
    if (open.kind === 'lbracket') {
      if (sep.kind === 'eof') throw this.unclosed(open);
      throw fail(`Expected 'TO' in the range, found ${describeToken(this.src, sep)}`, sep.start, sep.end);
    }
    const items: ValueNode[] = [first.value];
    let cur = sep;
    for (;;) {
      if (cur.kind === 'rbrace') {
        this.take(cur);
        return { kind: 'set', items, span: { start: open.start, end: cur.end } };
      }
      if (cur.kind === 'eof') throw this.unclosed(open);
      if (cur.kind !== 'comma') {
        throw fail(`Expected ',' or '}' in the value set, found ${describeToken(this.src, cur)}`, cur.start, cur.end);
      }
      this.take(cur);
      const item = this.peek('list');
      if (item.kind !== 'value') throw fail("Expected a value after ','", item.start, item.end);
      this.take(item);
      items.push(item.value);
      cur = this.peek('list');
    }
  }

  private bound(t: ValueToken): ValueNode | undefined {
    if (isBareStar(t.value)) return undefined;
    if (t.value.kind === 'regex') throw fail('A range bound cannot be a regular expression', t.start, t.end);
    return t.value;
  }

  private finishRange(open: Token, loTok: ValueToken): Operand {
    const hiTok = this.peek('list');
    if (hiTok.kind !== 'value') throw fail("Expected a value after 'TO'", hiTok.start, hiTok.end);
    this.take(hiTok);
    const close = this.peek('list');
    if (close.kind === 'eof') throw this.unclosed(open);
    if (close.kind !== 'rbracket' && close.kind !== 'rbrace') {
      throw fail(`Expected ']' or '}' to close the range, found ${describeToken(this.src, close)}`, close.start, close.end);
    }
    this.take(close);
    const lo = this.bound(loTok);
    const hi = this.bound(hiTok);
    return {
      kind: 'range',
      ...(lo ? { lo } : {}),
      ...(hi ? { hi } : {}),
      loInclusive: open.kind === 'lbracket',
      hiInclusive: close.kind === 'rbracket',
      span: { start: open.start, end: close.end },
    };
  }
}

function spanOf(children: readonly QueryNode[]): Span {
  return { start: children[0].span.start, end: children[children.length - 1].span.end };
}

/** Parses a query into its syntax tree, or says where and why it cannot. Never throws. */
export function parseQuery(text: string): ParseResult {
  if (text.length > MAX_QUERY_LENGTH) {
    return {
      ok: false,
      error: queryError(`Query is too long (${text.length} characters, at most ${MAX_QUERY_LENGTH})`, MAX_QUERY_LENGTH, text.length - MAX_QUERY_LENGTH),
    };
  }
  try {
    return { ok: true, ast: new Parser(text).parseAll() };
  } catch (e) {
    if (e instanceof ParseFailure) return { ok: false, error: e.error };
    // A bug in this module; callers still get a well-formed 400 rather than a crash.
    return { ok: false, error: queryError('Invalid search. Your query could not be parsed', 0, 0) };
  }
}
