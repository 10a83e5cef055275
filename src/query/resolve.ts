/**
 * Turns a syntax tree into a ResolvedQuery: every field is looked up in the catalogue and every
 * value typed by the field's type (the rules are those of resolved.ts and field-def.ts).
 *
 * Decisions the sources leave open:
 * - A bare word whose text has no letters or digits (`-`, `"!!!"`) cannot be a token query, and a
 *   bare wildcard or regex (`Del*`, `/De[l]+/`) has no `fulltext` form; both become an OR over
 *   every full-text field of the equivalent field predicate.
 * - A word mixing wildcards and escaped `\*`/`\?` becomes a regex, since glob patterns have no
 *   escape.
 * - A date that names a period (`2021-03-01`, `now/d`) covers the whole period: `:` matches any
 *   time in it, and range/comparison bounds include or exclude the period as a whole.
 * - `1.2.3.*` on an ip field is the CIDR block `1.2.3.0/24`; other ip wildcards are rejected.
 * - `labels: (a or b)` applies the field to each bare term inside; only nested roots
 *   (`services: (...)`) take field conditions inside parentheses.
 */
import type { FieldCatalogue, FieldDef } from '../model/field-def.ts';
import { tokenize } from '../model/tokenize.ts';
import { cidrRange, ipKey, parseIp } from '../lib/ip.ts';
import type { FieldOp, Operand, QueryNode, RangeNode, Span, ValueNode } from './ast.ts';
import type { Predicate, ResolvedQuery } from './resolved.ts';
import { queryError } from './query-error.ts';
import type { QueryError } from './query-error.ts';
import { andOf, notOf, orOf } from './simplify.ts';
import { parseDateValue } from './parse-date.ts';
import type { DateValue } from './parse-date.ts';

export interface ResolveOptions {
  /** The instant `now` in date values stands for. */
  readonly now: Date;
}

export type ResolveResult =
  | { readonly ok: true; readonly query: ResolvedQuery }
  | { readonly ok: false; readonly error: QueryError };

export const MAX_REGEX_LENGTH = 1000;
/** Field and full-text nodes in one resolved query (bare wildcards expand to one per field). */
export const MAX_RESOLVED_NODES = 50_000;

class ResolveFailure {
  constructor(readonly error: QueryError) {}
}

function fail(message: string, span: Span, suggestion?: string): ResolveFailure {
  return new ResolveFailure(queryError(message, span.start, span.end - span.start, suggestion));
}

/** A field condition's target: a catalogue field, or an object prefix (existence only). */
interface Target {
  readonly def: FieldDef;
  readonly prefix: boolean;
  readonly span: Span;
}

interface Context {
  /** Inside `services: (...)`: the nested root, relative names allowed. */
  readonly nested?: string;
  /** Inside `field: (...)` for a non-nested field: bare terms are values of this field. */
  readonly defaultField?: Target;
}

const TYPE_NAMES: Record<FieldDef['type'], string> = {
  text: 'text',
  keyword: 'keyword',
  int: 'integer',
  float: 'number',
  ip: 'IP',
  date: 'date',
  bool: 'boolean',
};

const INT = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function withArticle(word: string): string {
  return (/^[aeiouAEIOU]/.test(word) ? 'an ' : 'a ') + word;
}

function shown(text: string): string {
  return text.length > 40 ? text.slice(0, 40) + '…' : text;
}

/** The text of a non-regex value. */
function textOf(v: ValueNode): string {
  return v.kind === 'regex' ? v.source : v.text;
}

function isExistence(v: ValueNode): boolean {
  return v.kind !== 'regex' && v.text === '*' && (v.kind !== 'word' || v.wildcards.length === 1);
}

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/g;

type Pattern = { readonly kind: 'glob'; readonly pattern: string } | { readonly kind: 'regex'; readonly source: string };

/** The wildcard pattern a value stands for, or undefined when it has no wildcard. */
function patternOf(v: ValueNode): Pattern | undefined {
  if (v.kind === 'literal') return /[*?]/.test(v.text) ? { kind: 'glob', pattern: v.text } : undefined;
  if (v.kind !== 'word' || v.wildcards.length === 0) return undefined;
  const starsAndMarks = (v.text.match(/[*?]/g) ?? []).length;
  if (starsAndMarks === v.wildcards.length) return { kind: 'glob', pattern: v.text };
  const wild = new Set(v.wildcards);
  let source = '';
  for (let i = 0; i < v.text.length; i++) {
    const c = v.text[i];
    if (wild.has(i)) source += c === '*' ? '[\\s\\S]*' : '[\\s\\S]';
    else source += c.replace(REGEX_SPECIAL, '\\$&');
  }
  return { kind: 'regex', source };
}

/** `1.2.3.*`, `10.*`, `10.1.*.*` → the CIDR block they cover. */
function ipv4WildcardRange(v: ValueNode): { lo: string; hi: string } | undefined {
  if (v.kind !== 'word' || v.text.includes('?')) return undefined;
  const parts = v.text.split('.');
  if (parts.length > 4) return undefined;
  const fixed: number[] = [];
  let i = 0;
  for (; i < parts.length && /^\d{1,3}$/.test(parts[i]); i++) {
    const n = Number(parts[i]);
    if (n > 255) return undefined;
    fixed.push(n);
  }
  if (fixed.length === 0 || i === parts.length || !parts.slice(i).every((p) => p === '*')) return undefined;
  const octets = [...fixed, 0, 0, 0, 0].slice(0, 4);
  return cidrRange(`${octets.join('.')}/${fixed.length * 8}`);
}

function compareBounds(a: number | string, b: number | string): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

class Resolver {
  private budget = MAX_RESOLVED_NODES;
  private readonly fullTextFields: readonly FieldDef[];
  private readonly hasIpField: boolean;

  constructor(
    private readonly catalogue: FieldCatalogue,
    private readonly now: Date,
  ) {
    this.fullTextFields = catalogue.all().filter((f) => f.fullText && (f.type === 'text' || f.type === 'keyword'));
    this.hasIpField = catalogue.get('ip')?.type === 'ip';
  }

  private spend(n: number, span: Span): void {
    this.budget -= n;
    if (this.budget < 0) throw fail('Query is too large once expanded (too many wildcard or regex terms)', span);
  }

  private field(def: FieldDef, predicate: Predicate, span: Span): ResolvedQuery {
    this.spend(1, span);
    return { kind: 'field', field: def, predicate };
  }

  resolve(node: QueryNode, ctx: Context): ResolvedQuery {
    switch (node.type) {
      case 'all':
        if (ctx.defaultField) return this.field(ctx.defaultField.def, { op: 'exists' }, node.span);
        return { kind: 'all' };
      case 'and':
        return andOf(node.children.map((c) => this.resolve(c, ctx)));
      case 'or':
        return orOf(node.children.map((c) => this.resolve(c, ctx)));
      case 'not':
        return notOf(this.resolve(node.child, ctx));
      case 'term':
        if (ctx.defaultField) return this.value(ctx.defaultField, ':', node.value);
        if (ctx.nested) {
          throw fail(`A bare term cannot be used inside ${ctx.nested}: (...); name a field, as in service_name: ${shown(textOf(node.value))}`, node.span);
        }
        return this.fullText(node.value, node.span);
      case 'field': {
        if (ctx.defaultField) {
          throw fail(`Field '${node.field}' cannot be used inside '${ctx.defaultField.def.path}: (...)', which only takes values`, node.fieldSpan);
        }
        const target = this.lookup(node.field, node.fieldSpan, ctx);
        return this.operand(target, node.op, node.operand);
      }
      case 'group':
        return this.group(node, ctx);
    }
  }

  private group(node: QueryNode & { type: 'group' }, ctx: Context): ResolvedQuery {
    if (ctx.defaultField) {
      throw fail(`Parentheses cannot be nested inside '${ctx.defaultField.def.path}: (...)'`, node.fieldSpan);
    }
    const lower = node.field.toLowerCase();
    const root = this.catalogue.nestedRoots.find((r) => r.toLowerCase() === lower);
    if (node.form === 'same_service' && !root) {
      throw fail(`same_service(...) is not available on the ${this.catalogue.index} index`, node.fieldSpan);
    }
    if (root) {
      if (ctx.nested) throw fail(`${root}: (...) cannot be used inside another ${ctx.nested}: (...)`, node.fieldSpan);
      const child = this.resolve(node.child, { nested: root });
      if (child.kind === 'none') return child;
      if (child.kind === 'all') return this.field(this.prefixDef(root), { op: 'exists' }, node.span);
      return { kind: 'nested', root: root as 'services', child };
    }
    const target = this.lookup(node.field, node.fieldSpan, ctx);
    if (target.prefix) {
      throw fail(`'${target.def.path}' is not a single field; parentheses after a field only work for ${this.rootsText()}`, node.fieldSpan);
    }
    return this.resolve(node.child, { ...ctx, defaultField: target });
  }

  private rootsText(): string {
    return this.catalogue.nestedRoots.length ? this.catalogue.nestedRoots.map((r) => `'${r}'`).join(', ') + ' or a field with values' : 'a field with values';
  }

  /** A FieldDef for an object prefix, spelled as the catalogue spells the fields under it. */
  private prefixDef(path: string): FieldDef {
    const lower = path.toLowerCase();
    const sample = this.catalogue.all().find((f) => f.path.toLowerCase().startsWith(lower + '.'));
    const real = sample ? sample.path.slice(0, lower.length) : lower;
    const docPath =
      sample && sample.docPath.toLowerCase().startsWith(lower + '.') ? sample.docPath.slice(0, lower.length) : real;
    const root = this.catalogue.nestedRoots.find((r) => real.startsWith(r + '.'));
    return {
      path: real,
      type: 'keyword',
      docPath,
      ...(root ? { nested: root as 'services' } : {}),
      fullText: false,
      aggregatable: false,
    };
  }

  private lookup(name: string, span: Span, ctx: Context): Target {
    let path = name;
    if (ctx.nested) {
      const lower = name.toLowerCase();
      const root = ctx.nested.toLowerCase();
      path = lower === root || lower.startsWith(root + '.') ? name : `${ctx.nested}.${name}`;
    }
    const def = this.catalogue.get(path);
    if (def) return { def, prefix: false, span };
    if (this.catalogue.isPrefix(path)) return { def: this.prefixDef(path), prefix: true, span };
    if (ctx.nested && (this.catalogue.get(name) || this.catalogue.isPrefix(name))) {
      throw fail(`Field '${name}' is not part of ${ctx.nested}; write it outside ${ctx.nested}: (...)`, span);
    }
    let suggestion = this.catalogue.suggest(path);
    if (suggestion && ctx.nested && suggestion.toLowerCase().startsWith(ctx.nested.toLowerCase() + '.')) {
      suggestion = suggestion.slice(ctx.nested.length + 1);
    }
    const hint = suggestion ? ` Did you mean '${suggestion}'?` : '';
    throw fail(`Unknown field '${shown(name)}'.${hint}`, span, suggestion);
  }

  private operand(target: Target, op: FieldOp, operand: Operand): ResolvedQuery {
    if (target.prefix) {
      if (operand.kind !== 'set' && operand.kind !== 'range' && (op === ':' || op === '=') && isExistence(operand)) {
        return this.field(target.def, { op: 'exists' }, operand.span);
      }
      throw fail(
        `'${target.def.path}' is an object, not a field: test its presence with '${target.def.path}: *' or name one of its fields`,
        target.span,
      );
    }
    if (operand.kind === 'set') return orOf(operand.items.map((item) => this.value(target, op, item)));
    if (operand.kind === 'range') return this.range(target.def, operand);
    if (op === ':' || op === '=') return this.value(target, op, operand);
    return this.comparison(target.def, op, operand);
  }

  private regex(source: string, caseSensitive: boolean, span: Span): Predicate {
    if (source.length > MAX_REGEX_LENGTH) {
      throw fail(`Regular expression is too long (at most ${MAX_REGEX_LENGTH} characters)`, span);
    }
    try {
      new RegExp(source);
      new RegExp(`^(?:${source})$`, caseSensitive ? '' : 'i');
    } catch (e) {
      const reason = e instanceof Error ? e.message.replace(/^.*: /, '') : 'cannot be compiled';
      throw fail(`Invalid regular expression /${shown(source)}/: ${reason}`, span);
    }
    return { op: 'regex', source, caseSensitive };
  }

  private value(target: Target, op: FieldOp, v: ValueNode): ResolvedQuery {
    const def = target.def;
    if (isExistence(v)) return this.field(def, { op: 'exists' }, v.span);
    const caseSensitive = op === '=';
    if (v.kind === 'regex') {
      if (def.type !== 'text' && def.type !== 'keyword') {
        throw fail(`Regular expressions only work on text and keyword fields; '${def.path}' is ${withArticle(TYPE_NAMES[def.type])} field`, v.span);
      }
      return this.field(def, this.regex(v.source, caseSensitive, v.span), v.span);
    }
    const pattern = patternOf(v);
    const text = v.text;
    switch (def.type) {
      case 'text':
      case 'keyword': {
        if (pattern?.kind === 'glob') return this.field(def, { op: 'wildcard', pattern: pattern.pattern, caseSensitive }, v.span);
        if (pattern?.kind === 'regex') return this.field(def, this.regex(pattern.source, caseSensitive, v.span), v.span);
        if (def.type === 'keyword' || caseSensitive) return this.field(def, { op: 'eq', value: text, caseSensitive }, v.span);
        const tokens = tokenize(text);
        if (tokens.length === 0) return this.field(def, { op: 'eq', value: text, caseSensitive: false }, v.span);
        return this.field(def, { op: 'tokens', tokens, phrase: v.kind === 'quoted' || tokens.length > 1 }, v.span);
      }
      case 'ip': {
        if (pattern) {
          const r = ipv4WildcardRange(v);
          if (!r) throw fail(`Wildcards on IP field '${def.path}' only work as whole trailing octets (1.2.3.*); use CIDR notation such as 1.2.3.0/24`, v.span);
          return this.field(def, { op: 'range', lo: r.lo, hi: r.hi, loInclusive: true, hiInclusive: true }, v.span);
        }
        const cidr = cidrRange(text);
        if (cidr) return this.field(def, { op: 'range', lo: cidr.lo, hi: cidr.hi, loInclusive: true, hiInclusive: true }, v.span);
        return this.field(def, { op: 'eq', value: this.ipBound(def, v), caseSensitive: false }, v.span);
      }
      case 'date': {
        this.noPattern(def, pattern, v);
        const d = this.dateOf(def, v);
        if (d.end === undefined) return this.field(def, { op: 'eq', value: d.start, caseSensitive: false }, v.span);
        return this.field(def, { op: 'range', lo: d.start, hi: d.end, loInclusive: true, hiInclusive: false }, v.span);
      }
      case 'int':
      case 'float':
        this.noPattern(def, pattern, v);
        return this.field(def, { op: 'eq', value: this.numberOf(def, v), caseSensitive: false }, v.span);
      case 'bool': {
        this.noPattern(def, pattern, v);
        const lower = text.toLowerCase();
        if (lower !== 'true' && lower !== 'false') {
          throw fail(`Invalid value '${shown(text)}' for boolean field '${def.path}' (expected true or false)`, v.span);
        }
        return this.field(def, { op: 'eq', value: lower === 'true', caseSensitive: false }, v.span);
      }
    }
  }

  private noPattern(def: FieldDef, pattern: Pattern | undefined, v: ValueNode): void {
    if (pattern) throw fail(`Wildcards cannot be used on ${TYPE_NAMES[def.type]} field '${def.path}'`, v.span);
  }

  private numberOf(def: FieldDef, v: ValueNode): number {
    const text = textOf(v).trim();
    const ok = def.type === 'int' ? INT.test(text) && Number.isSafeInteger(Number(text)) : FLOAT.test(text) && Number.isFinite(Number(text));
    if (!ok) throw fail(`Invalid value '${shown(textOf(v))}' for ${TYPE_NAMES[def.type]} field '${def.path}'`, v.span);
    return Number(text);
  }

  private ipBound(def: FieldDef, v: ValueNode): string {
    const key = parseIp(textOf(v)) ? ipKey(textOf(v)) : undefined;
    if (!key) throw fail(`Invalid value '${shown(textOf(v))}' for IP field '${def.path}'`, v.span);
    return key;
  }

  private dateOf(def: FieldDef, v: ValueNode): DateValue {
    const d = parseDateValue(textOf(v).trim(), this.now);
    if (!d) {
      throw fail(
        `Invalid value '${shown(textOf(v))}' for date field '${def.path}' (expected YYYY-MM-DD, an RFC 3339 time or now-relative such as now-24h)`,
        v.span,
      );
    }
    return d;
  }

  /** A comparison or range bound typed for the field; dates may name a period. */
  private bound(def: FieldDef, v: ValueNode): { value: number | string; end?: number } {
    if (v.kind === 'regex') throw fail('A regular expression cannot be compared', v.span);
    if (isExistence(v) || patternOf(v)) throw fail(`Wildcards cannot be used in comparisons or range bounds`, v.span);
    switch (def.type) {
      case 'int':
      case 'float':
        return { value: this.numberOf(def, v) };
      case 'date': {
        const d = this.dateOf(def, v);
        return d.end === undefined ? { value: d.start } : { value: d.start, end: d.end };
      }
      case 'ip':
        return { value: this.ipBound(def, v) };
      case 'text':
      case 'keyword':
        return { value: v.text };
      case 'bool':
        throw fail(`Ranges and comparisons do not apply to boolean field '${def.path}'`, v.span);
    }
  }

  private comparison(def: FieldDef, op: '>' | '>=' | '<' | '<=', v: ValueNode): ResolvedQuery {
    const b = this.bound(def, v);
    const end = b.end ?? b.value;
    const period = b.end !== undefined;
    let p: Predicate;
    switch (op) {
      case '>':
        p = period ? { op: 'range', lo: end, loInclusive: true, hiInclusive: false } : { op: 'range', lo: b.value, loInclusive: false, hiInclusive: false };
        break;
      case '>=':
        p = { op: 'range', lo: b.value, loInclusive: true, hiInclusive: false };
        break;
      case '<':
        p = { op: 'range', hi: b.value, loInclusive: false, hiInclusive: false };
        break;
      case '<=':
        p = period ? { op: 'range', hi: end, loInclusive: false, hiInclusive: false } : { op: 'range', hi: b.value, loInclusive: false, hiInclusive: true };
        break;
    }
    return this.field(def, p, v.span);
  }

  private range(def: FieldDef, r: RangeNode): ResolvedQuery {
    if (!r.lo && !r.hi) return this.field(def, { op: 'exists' }, r.span);
    let lo: number | string | undefined;
    let hi: number | string | undefined;
    let loInclusive = false;
    let hiInclusive = false;
    if (r.lo) {
      const b = this.bound(def, r.lo);
      if (b.end !== undefined && !r.loInclusive) {
        lo = b.end;
        loInclusive = true;
      } else {
        lo = b.value;
        loInclusive = r.loInclusive;
      }
    }
    if (r.hi) {
      const b = this.bound(def, r.hi);
      if (b.end !== undefined && r.hiInclusive) {
        hi = b.end;
        hiInclusive = false;
      } else {
        hi = b.value;
        hiInclusive = r.hiInclusive;
      }
    }
    if (lo !== undefined && hi !== undefined && def.type !== 'text' && def.type !== 'keyword' && compareBounds(lo, hi) > 0) {
      throw fail('The lower bound of the range is greater than its upper bound', r.span);
    }
    return this.field(
      def,
      {
        op: 'range',
        ...(lo !== undefined ? { lo } : {}),
        ...(hi !== undefined ? { hi } : {}),
        loInclusive: lo !== undefined && loInclusive,
        hiInclusive: hi !== undefined && hiInclusive,
      },
      r.span,
    );
  }

  /** The same predicate on every full-text field, OR-ed. */
  private everyField(predicate: Predicate, span: Span): ResolvedQuery {
    this.spend(this.fullTextFields.length, span);
    return orOf(this.fullTextFields.map((f): ResolvedQuery => ({ kind: 'field', field: f, predicate })));
  }

  private fullText(v: ValueNode, span: Span): ResolvedQuery {
    if (v.kind === 'regex') return this.everyField(this.regex(v.source, false, v.span), span);
    const pattern = patternOf(v);
    if (pattern?.kind === 'glob') return this.everyField({ op: 'wildcard', pattern: pattern.pattern, caseSensitive: false }, span);
    if (pattern?.kind === 'regex') return this.everyField(this.regex(pattern.source, false, v.span), span);
    const text = v.text;
    const tokens = tokenize(text);
    let ipRange: { lo: string; hi: string } | undefined;
    if (this.hasIpField) {
      const trimmed = text.trim();
      const key = parseIp(trimmed) ? ipKey(trimmed) : undefined;
      ipRange = key ? { lo: key, hi: key } : cidrRange(trimmed);
    }
    if (tokens.length === 0 && !ipRange) return this.everyField({ op: 'eq', value: text, caseSensitive: false }, span);
    this.spend(1, span);
    const phrase = v.kind === 'quoted' || tokens.length > 1;
    return ipRange ? { kind: 'fulltext', text, tokens, phrase, ipRange } : { kind: 'fulltext', text, tokens, phrase };
  }
}

/** Resolves a parsed query against a field catalogue. Never throws. */
export function resolveQuery(ast: QueryNode, catalogue: FieldCatalogue, options: ResolveOptions): ResolveResult {
  try {
    return { ok: true, query: new Resolver(catalogue, options.now).resolve(ast, {}) };
  } catch (e) {
    if (e instanceof ResolveFailure) return { ok: false, error: e.error };
    // A bug in this module; callers still get a well-formed 400 rather than a crash.
    return { ok: false, error: queryError('Invalid search. Your query could not be parsed', 0, 0) };
  }
}
