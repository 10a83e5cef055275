/**
 * Prints a syntax tree back to query text that parses to the same tree (spans aside). Used to
 * show a normalised query and to test the parser against generated trees; it escapes whatever
 * the lexer would otherwise read as syntax in each position.
 */
import type { Operand, QueryNode, ValueNode } from './ast.ts';
import type { LexMode } from './lexer.ts';
import { cidrRange, parseIp } from '../lib/ip.ts';

const ALWAYS: Record<LexMode, string> = {
  term: '()[]{}"`=<>:\\^',
  value: '()\\',
  list: '(),]}\\',
};

const AT_START: Record<LexMode, string> = {
  term: "'/-!&|",
  value: '"\'`/[{<>',
  list: '"\'`/[{',
};

const KEYWORDS = new Set(['and', 'or', 'not']);

function escapeWord(text: string, wildcards: readonly number[], mode: LexMode): string {
  const wild = new Set(wildcards);
  // The lexer keeps a bare IPv6 address or CIDR whole, so its colons need no escape.
  const ip = mode === 'term' && (parseIp(text) !== undefined || cidrRange(text) !== undefined);
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const special =
      /\s/.test(c) ||
      (ALWAYS[mode].includes(c) && !(ip && c === ':')) ||
      (i === 0 && AT_START[mode].includes(c)) ||
      ((c === '*' || c === '?') && !wild.has(i)) ||
      (i === 0 && mode === 'term' && KEYWORDS.has(text.toLowerCase()));
    out += special ? '\\' + c : c;
  }
  return out;
}

function printRegex(source: string): string {
  let out = '/';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\' && i + 1 < source.length) {
      out += c + source[i + 1];
      i++;
    } else {
      out += c === '/' ? '\\/' : c;
    }
  }
  return out + '/';
}

export function printValue(v: ValueNode, mode: LexMode): string {
  switch (v.kind) {
    case 'word':
      return escapeWord(v.text, v.wildcards, mode);
    case 'quoted':
      return v.quote + v.text.replace(v.quote === '"' ? /[\\"]/g : /[\\']/g, '\\$&') + v.quote;
    case 'literal':
      return '`' + v.text + '`';
    case 'regex':
      return printRegex(v.source);
  }
}

function printOperand(o: Operand): string {
  if (o.kind === 'set') return '{' + o.items.map((v) => printValue(v, 'list')).join(', ') + '}';
  if (o.kind === 'range') {
    const lo = o.lo ? printValue(o.lo, 'list') : '*';
    const hi = o.hi ? printValue(o.hi, 'list') : '*';
    return `${o.loInclusive ? '[' : '{'}${lo} TO ${hi}${o.hiInclusive ? ']' : '}'}`;
  }
  return printValue(o, 'value');
}

function wrapped(node: QueryNode, parens: boolean): string {
  const s = printAst(node);
  return parens ? `(${s})` : s;
}

export function printAst(node: QueryNode): string {
  switch (node.type) {
    case 'all':
      return '*';
    case 'and':
      return node.children.map((c) => wrapped(c, c.type === 'and' || c.type === 'or')).join(' and ');
    case 'or':
      return node.children.map((c) => wrapped(c, c.type === 'or')).join(' or ');
    case 'not':
      return 'not ' + wrapped(node.child, node.child.type === 'and' || node.child.type === 'or');
    case 'term':
      return printValue(node.value, 'term') + (node.boost === undefined ? '' : `^${node.boost}`);
    case 'field':
      if (node.op === ':') return `${node.field}: ${printOperand(node.operand)}`;
      // A field named like a keyword (`not:>1`) is a field only when a colon follows it.
      if (KEYWORDS.has(node.field.toLowerCase())) return `${node.field}: ${node.op} ${printOperand(node.operand)}`;
      return `${node.field} ${node.op} ${printOperand(node.operand)}`;
    case 'group':
      if (node.form === 'same_service') return `same_service(${printAst(node.child)})`;
      return `${node.field}: (${printAst(node.child)})`;
  }
}
