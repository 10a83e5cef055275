/**
 * The syntax tree of a Censys query, as written: field names are not looked up and values are not
 * typed yet (resolve.ts does that against a catalogue). Every node keeps its span so errors found
 * later can still point into the query text.
 */

/** A half-open range [start, end) of UTF-16 code unit offsets into the query text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * One value as written.
 * - word:    bare text after unescaping; `wildcards` lists the offsets (into `text`) of the `*`
 *            and `?` characters that were written unescaped and so act as wildcards.
 * - quoted:  `"..."` or `'...'`; never a wildcard.
 * - literal: a backtick literal; reserved characters lose their meaning, but every `*` and `?`
 *            inside still acts as a wildcard (the contract's CPE example relies on it).
 * - regex:   `/.../`; `source` is the expression with `\/` turned into `/`.
 */
export type ValueNode =
  | { readonly kind: 'word'; readonly text: string; readonly wildcards: readonly number[]; readonly span: Span }
  | { readonly kind: 'quoted'; readonly text: string; readonly quote: '"' | "'"; readonly span: Span }
  | { readonly kind: 'literal'; readonly text: string; readonly span: Span }
  | { readonly kind: 'regex'; readonly source: string; readonly span: Span };

/** A range bound; absent (`undefined`) when written as `*` (open end). */
export interface RangeNode {
  readonly kind: 'range';
  readonly lo?: ValueNode;
  readonly hi?: ValueNode;
  readonly loInclusive: boolean;
  readonly hiInclusive: boolean;
  readonly span: Span;
}

export interface SetNode {
  readonly kind: 'set';
  readonly items: readonly ValueNode[];
  readonly span: Span;
}

export type Operand = ValueNode | RangeNode | SetNode;

/** `field: v` and `field = v`; comparisons (`field > v`, `field: >v`) carry their operator instead. */
export type FieldOp = ':' | '=' | '>' | '>=' | '<' | '<=';

export type QueryNode =
  /** Empty query or a bare `*`. */
  | { readonly type: 'all'; readonly span: Span }
  | { readonly type: 'and'; readonly children: readonly QueryNode[]; readonly span: Span }
  | { readonly type: 'or'; readonly children: readonly QueryNode[]; readonly span: Span }
  | { readonly type: 'not'; readonly child: QueryNode; readonly span: Span }
  /** A bare full-text term or phrase; `boost` (`Dell^2`, a v1 form) is kept but has no effect. */
  | { readonly type: 'term'; readonly value: ValueNode; readonly boost?: number; readonly span: Span }
  | {
      readonly type: 'field';
      readonly field: string;
      readonly fieldSpan: Span;
      readonly op: FieldOp;
      readonly operand: Operand;
      readonly span: Span;
    }
  /**
   * `field: (...)`. For a nested root (`services: (...)`, or `same_service(...)` whose field is
   * `services`) the inner conditions hold on one element; for another field the inner bare terms
   * are values of that field (`labels: (a or b)`).
   */
  | {
      readonly type: 'group';
      readonly field: string;
      readonly fieldSpan: Span;
      readonly form: 'field' | 'same_service';
      readonly child: QueryNode;
      readonly span: Span;
    };
