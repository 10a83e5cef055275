/**
 * Properties over generated input: the parser and resolver never throw and always place errors
 * inside the query; printed trees parse back to the same tree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileQuery } from './index.ts';
import { parseQuery } from './parser.ts';
import { printAst } from './print-ast.ts';
import type { FieldOp, Operand, QueryNode, ValueNode } from './ast.ts';
import { testCertificateCatalogue, testHostCatalogue } from './test-catalogue.ts';
import { catalogueFor } from '../model/field-catalogue.ts';

const now = new Date('2024-05-15T12:00:00Z');
const SPAN = { start: 0, end: 0 };

/** The tree without positions. */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'span' && k !== 'fieldSpan') out[k] = strip(v);
    return out;
  }
  return value;
}

const SYNTAX_PIECES = [
  '(', ')', '[', ']', '{', '}', '"', "'", '`', '/', '\\', ':', '=', '<', '>', '>=', '*', '?', '-', '!', '&&', '||', ',', '^2',
  ' ', ' ', ' ', '\t', '\n', 'and', 'OR', 'not', 'TO', 'to', 'services', 'port', 'services.port', 'services.tls', 'ip', 'labels',
  'location', 'last_updated_at', 'services.truncated', 'same_service', '22', '1.5', '1.2.3.4', '10.0.0.0/8', '::1', '2001:db8::',
  'now-1d', 'now/d', '2021-03-01', 'true', 'a', 'Dell', 'é', '😀', '.', '_', '\u0000',
];

const syntaxString = fc.string({ unit: fc.constantFrom(...SYNTAX_PIECES), maxLength: 30 });

function checkTotal(text: string): void {
  for (const cat of [testHostCatalogue, testCertificateCatalogue, catalogueFor('hosts')]) {
    const res = compileQuery(text, cat, { now });
    if (!res.ok) {
      const { position, length, message } = res.error;
      assert.ok(Number.isInteger(position) && position >= 0 && position <= text.length, `position ${position} in ${JSON.stringify(text)}`);
      assert.ok(Number.isInteger(length) && length >= 0 && position + length <= text.length, `length ${length} in ${JSON.stringify(text)}`);
      assert.ok(message.length > 0);
      assert.doesNotMatch(message, /could not be parsed/, `internal error for ${JSON.stringify(text)}`);
    }
  }
}

test('arbitrary syntax-heavy strings never throw, and errors point inside the query', () => {
  fc.assert(fc.property(syntaxString, (s) => checkTotal(s)), { numRuns: 1500 });
});

test('arbitrary unicode strings never throw, and errors point inside the query', () => {
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => checkTotal(s)), { numRuns: 500 });
});

test('whatever parses prints back to text that parses to the same tree', () => {
  fc.assert(
    fc.property(syntaxString, (s) => {
      const first = parseQuery(s);
      if (!first.ok) return;
      const printed = printAst(first.ast);
      const again = parseQuery(printed);
      if (!again.ok) assert.fail(`${JSON.stringify(s)} printed as ${JSON.stringify(printed)}: ${again.error.message}`);
      assert.deepEqual(strip(again.ast), strip(first.ast), `${JSON.stringify(s)} printed as ${JSON.stringify(printed)}`);
    }),
    { numRuns: 1500 },
  );
});

test('fields named like keywords print back as fields, whatever the operator', () => {
  // Found by the property above (seed -954157525): `not:>1.2.3.4` printed as `not > 1.2.3.4`.
  for (const q of ['not:>1.2.3.4', 'AND:>=3', 'or:<x', 'Not: 4', 'and: {a, b}']) {
    const first = parseQuery(q);
    assert.ok(first.ok, q);
    const again = parseQuery(printAst(first.ast));
    assert.ok(again.ok, `${q} printed as ${printAst(first.ast)}`);
    assert.deepEqual(strip(again.ast), strip(first.ast), q);
  }
});

// Generated trees.

const CHARS = [
  'a', 'b', 'Z', '1', '.', ':', '-', '*', '?', '\\', '"', "'", '`', '/', '(', ')', '[', ']', '{', '}', ',', '=', '<', '>',
  '^', '!', '&', '|', ' ', '\t', 'é', '_', '+', '~',
];

const text = (minLength: number, chars = CHARS) => fc.string({ unit: fc.constantFrom(...chars), minLength, maxLength: 8 });

const word: fc.Arbitrary<ValueNode> = text(1)
  .chain((t) => {
    const positions = [...t].flatMap((c, i) => (c === '*' || c === '?' ? [i] : []));
    return fc.subarray(positions).map((wildcards): ValueNode => ({ kind: 'word', text: t, wildcards, span: SPAN }));
  })
  .filter((v) => !(v.kind === 'word' && v.text === '*' && v.wildcards.length === 1));

const plainWord: fc.Arbitrary<ValueNode> = text(1).map((t) => ({ kind: 'word', text: t, wildcards: [], span: SPAN }));

const quoted: fc.Arbitrary<ValueNode> = fc
  .record({ t: text(0), quote: fc.constantFrom('"' as const, "'" as const) })
  .map(({ t, quote }) => ({ kind: 'quoted', text: t, quote, span: SPAN }));

const literal: fc.Arbitrary<ValueNode> = text(0, CHARS.filter((c) => c !== '`')).map((t) => ({ kind: 'literal', text: t, span: SPAN }));

const regex: fc.Arbitrary<ValueNode> = fc
  .array(fc.constantFrom('a', '.', '*', '+', '/', '\\d', '\\\\', '[x]', '(y)', ' ', '"', '|', '{2}'), { minLength: 1, maxLength: 6 })
  .map((parts) => ({ kind: 'regex', source: parts.join(''), span: SPAN }));

const value = fc.oneof(word, quoted, literal, regex);
const bound = fc.option(fc.oneof(plainWord, quoted, literal), { nil: undefined });

const set: fc.Arbitrary<Operand> = fc.array(value, { minLength: 1, maxLength: 4 }).map((items) => ({ kind: 'set', items, span: SPAN }));

const range: fc.Arbitrary<Operand> = fc
  .record({ lo: bound, hi: bound, loInclusive: fc.boolean(), hiInclusive: fc.boolean() })
  .map(({ lo, hi, loInclusive, hiInclusive }) => ({
    kind: 'range',
    ...(lo ? { lo } : {}),
    ...(hi ? { hi } : {}),
    loInclusive,
    hiInclusive,
    span: SPAN,
  }));

const fieldName = fc.constantFrom('a', 'services.port', 'x_y', 'ab-c', 'labels', 'A.b9', '_', 'services');

const fieldNode: fc.Arbitrary<QueryNode> = fc.oneof(
  fc.record({ field: fieldName, op: fc.constantFrom<FieldOp>(':', '='), operand: fc.oneof(value, set, range) }),
  fc.record({ field: fieldName, op: fc.constantFrom<FieldOp>('>', '>=', '<', '<='), operand: value }),
).map(({ field, op, operand }) => ({ type: 'field', field, fieldSpan: SPAN, op, operand, span: SPAN }));

const termNode: fc.Arbitrary<QueryNode> = fc
  .record({ value, boost: fc.option(fc.integer({ min: 0, max: 99 }), { nil: undefined }) })
  .map(({ value, boost }) => (boost === undefined ? { type: 'term', value, span: SPAN } : { type: 'term', value, boost, span: SPAN }));

const { node } = fc.letrec<{ node: QueryNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    termNode,
    fieldNode,
    fc.constant<QueryNode>({ type: 'all', span: SPAN }),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((children): QueryNode => ({ type: 'and', children, span: SPAN })),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((children): QueryNode => ({ type: 'or', children, span: SPAN })),
    tie('node').map((child): QueryNode => ({ type: 'not', child, span: SPAN })),
    fc
      .record({ field: fieldName, sameService: fc.boolean(), child: tie('node') })
      .map(({ field, sameService, child }): QueryNode =>
        sameService
          ? { type: 'group', field: 'services', fieldSpan: SPAN, form: 'same_service', child, span: SPAN }
          : { type: 'group', field, fieldSpan: SPAN, form: 'field', child, span: SPAN },
      ),
  ),
}));

test('generated trees print to text that parses back to the same tree', () => {
  fc.assert(
    fc.property(node, (ast) => {
      const printed = printAst(ast);
      const parsed = parseQuery(printed);
      if (!parsed.ok) assert.fail(`printed as ${JSON.stringify(printed)}: ${JSON.stringify(parsed.error)}`);
      assert.deepEqual(strip(parsed.ast), strip(ast), `printed as ${JSON.stringify(printed)}`);
    }),
    { numRuns: 1500 },
  );
});

test('generated trees resolve or fail cleanly against the catalogues', () => {
  fc.assert(
    fc.property(node, (ast) => checkTotal(printAst(ast))),
    { numRuns: 300 },
  );
});
