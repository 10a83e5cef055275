import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery, MAX_DEPTH, MAX_QUERY_LENGTH } from './parser.ts';
import type { Operand, QueryNode, ValueNode } from './ast.ts';
import type { QueryError } from './query-error.ts';

/** A compact S-expression of a tree, so expectations stay readable. */
function vx(v: ValueNode): string {
  switch (v.kind) {
    case 'word':
      return `w:${v.text}${v.wildcards.length ? '~' + v.wildcards.join(',') : ''}`;
    case 'quoted':
      return `q:${v.text}`;
    case 'literal':
      return `l:${v.text}`;
    case 'regex':
      return `r:${v.source}`;
  }
}

function ox(o: Operand): string {
  if (o.kind === 'set') return `{${o.items.map(vx).join(' ')}}`;
  if (o.kind === 'range') {
    return `${o.loInclusive ? '[' : '{'}${o.lo ? vx(o.lo) : '*'} ${o.hi ? vx(o.hi) : '*'}${o.hiInclusive ? ']' : '}'}`;
  }
  return vx(o);
}

function sx(n: QueryNode): string {
  switch (n.type) {
    case 'all':
      return 'ALL';
    case 'and':
    case 'or':
      return `(${n.type} ${n.children.map(sx).join(' ')})`;
    case 'not':
      return `(not ${sx(n.child)})`;
    case 'term':
      return vx(n.value) + (n.boost === undefined ? '' : `^${n.boost}`);
    case 'field':
      return `(${n.op} ${n.field} ${ox(n.operand)})`;
    case 'group':
      return `(${n.form === 'same_service' ? 'same_service' : 'group ' + n.field} ${sx(n.child)})`;
  }
}

function p(q: string): string {
  const r = parseQuery(q);
  if (!r.ok) assert.fail(`expected ${JSON.stringify(q)} to parse, got ${JSON.stringify(r.error)}`);
  return sx(r.ast);
}

function err(q: string): QueryError {
  const r = parseQuery(q);
  if (r.ok) assert.fail(`expected ${JSON.stringify(q)} to fail, got ${sx(r.ast)}`);
  return r.error;
}

function errAt(q: string, position: number, message: RegExp, length?: number): void {
  const e = err(q);
  assert.match(e.message, message, `message for ${JSON.stringify(q)}`);
  assert.equal(e.position, position, `position for ${JSON.stringify(q)}: ${e.message}`);
  if (length !== undefined) assert.equal(e.length, length, `length for ${JSON.stringify(q)}`);
}

test('empty and blank queries match everything, as does a bare *', () => {
  assert.equal(p(''), 'ALL');
  assert.equal(p('   \t\n'), 'ALL');
  assert.equal(p('*'), 'ALL');
  assert.equal(p('a and *'), '(and w:a ALL)');
});

test('bare terms, phrases and adjacency', () => {
  assert.equal(p('hello'), 'w:hello');
  assert.equal(p('"hello world"'), 'q:hello world');
  assert.equal(p("'US'"), 'q:US');
  assert.equal(p('foo bar'), '(and w:foo w:bar)');
  assert.equal(p('foo bar or baz'), '(or (and w:foo w:bar) w:baz)');
  assert.equal(p('Del*'), 'w:Del*~3');
  assert.equal(p('D?ll'), 'w:D?ll~1');
  assert.equal(p('23.20.0.0/14'), 'w:23.20.0.0/14');
  assert.equal(p('open-dir'), 'w:open-dir');
  assert.equal(p("O'Reilly"), "w:O'Reilly");
});

test('precedence: or < and < not', () => {
  assert.equal(p('a or b and not c'), '(or w:a (and w:b (not w:c)))');
  assert.equal(p('a and b or c and d'), '(or (and w:a w:b) (and w:c w:d))');
  assert.equal(p('not a and b'), '(and (not w:a) w:b)');
  assert.equal(p('not not a'), '(not (not w:a))');
  assert.equal(p('(a or b) and c'), '(and (or w:a w:b) c)'.replace(' c)', ' w:c)'));
  assert.equal(p('a or (b or c)'), '(or w:a (or w:b w:c))');
  assert.equal(p('a or b or c'), '(or w:a w:b w:c)');
});

test('keywords in any case, symbolic operators and -negation', () => {
  assert.equal(p('a AND b Or NOT c'), '(or (and w:a w:b) (not w:c))');
  assert.equal(p('a && b || !c'), '(or (and w:a w:b) (not w:c))');
  assert.equal(p('-a b'), '(and (not w:a) w:b)');
  assert.equal(p('-labels: c2'), '(not (: labels w:c2))');
  assert.equal(p('not(a)'), '(not w:a)');
  assert.equal(p('\\and'), 'w:and');
  assert.equal(p('"or"'), 'q:or');
  assert.equal(p('android'), 'w:android');
});

test('field conditions with every separator form', () => {
  assert.equal(p('services.service_name: HTTP'), '(: services.service_name w:HTTP)');
  assert.equal(p('services.service_name:HTTP'), '(: services.service_name w:HTTP)');
  assert.equal(p('services.service_name : HTTP'), '(: services.service_name w:HTTP)');
  assert.equal(p('services.software.product=Windows'), '(= services.software.product w:Windows)');
  assert.equal(p('services.software.product = Windows'), '(= services.software.product w:Windows)');
  assert.equal(p('names="censys.io"'), '(= names q:censys.io)');
  assert.equal(p("location.country_code: 'US'"), '(: location.country_code q:US)');
});

test('comparison forms', () => {
  assert.equal(p('services.port > 1024'), '(> services.port w:1024)');
  assert.equal(p('services.port>1024'), '(> services.port w:1024)');
  assert.equal(p('services.port >= 1024'), '(>= services.port w:1024)');
  assert.equal(p('services.port < 1024'), '(< services.port w:1024)');
  assert.equal(p('services.port <= 1024'), '(<= services.port w:1024)');
  assert.equal(p('services.port: >1024'), '(> services.port w:1024)');
  assert.equal(p('services.port: >=1024'), '(>= services.port w:1024)');
  assert.equal(p('services.port: < 10'), '(< services.port w:10)');
  assert.equal(p('services.port=<=5'), '(<= services.port w:5)');
});

test('values keep :, / and = after a field; IPv6 stays whole as a bare term', () => {
  assert.equal(p('ip: 2001:db8::1'), '(: ip w:2001:db8::1)');
  assert.equal(p('ip:2001:db8::/32'), '(: ip w:2001:db8::/32)');
  assert.equal(p('2001:db8::1'), 'w:2001:db8::1');
  assert.equal(p('::1'), 'w:::1');
  assert.equal(p('fe80::1/64 and x'), '(and w:fe80::1/64 w:x)');
  assert.equal(p('last_updated_at: 2021-03-01T10:00:00Z'), '(: last_updated_at w:2021-03-01T10:00:00Z)');
  assert.equal(p('last_updated_at: now/d'), '(: last_updated_at w:now/d)');
  assert.equal(p('a: b=c'), '(: a w:b=c)');
  assert.equal(p('a:b:c'), '(: a w:b:c)');
  assert.equal(p('10:30'), 'w:10:30');
  assert.equal(p('https://example.com/a'), 'w:https://example.com/a');
  assert.equal(p('location: https://x'), '(: location w:https://x)');
  assert.equal(p('services.port:22)'.slice(0, -1)), '(: services.port w:22)');
  assert.equal(p('(services.port:22)'), '(: services.port w:22)');
  assert.equal(p('(ip: ::1)'), '(: ip w:::1)');
});

test('backticks, escapes, regex and wildcards', () => {
  assert.equal(
    p('services.software.uniform_resource_identifier: `cpe:2.3:a:microsoft:iis:?.*`'),
    '(: services.software.uniform_resource_identifier l:cpe:2.3:a:microsoft:iis:?.*)',
  );
  assert.equal(p('autonomous_system.name=`ELOGIC-AS Elogic Srl - Cloud Services`'), '(= autonomous_system.name l:ELOGIC-AS Elogic Srl - Cloud Services)');
  assert.equal(p('a: foo\\*bar*'), '(: a w:foo*bar*~7)');
  assert.equal(p('a: hello\\ world'), '(: a w:hello world)');
  assert.equal(p('hello\\:world'), 'w:hello:world');
  assert.equal(p('a: "say \\"hi\\" \\\\ C:\\dir"'), '(: a q:say "hi" \\ C:\\dir)');
  assert.equal(p('services.software.vendor: /De[l]+/'), '(: services.software.vendor r:De[l]+)');
  assert.equal(p('h=/.*(\\.\\.\\/)+.*/'), '(= h r:.*(\\.\\./)+.*)');
  assert.equal(p('/a b/'), 'r:a b');
  assert.equal(p('services.tls: *'), '(: services.tls w:*~0)');
  assert.equal(p('k="*"'), '(= k q:*)');
});

test('value sets and ranges', () => {
  assert.equal(p('services.port: {21, 22, 23, 24, 25}'), '(: services.port {w:21 w:22 w:23 w:24 w:25})');
  assert.equal(p('labels: {tarpits,truncated}'), '(: labels {w:tarpits w:truncated})');
  assert.equal(p('labels: {"a b", `c`, /d/}'), '(: labels {q:a b l:c r:d})');
  assert.equal(p('services.port: [1 TO 1024]'), '(: services.port [w:1 w:1024])');
  assert.equal(p('services.port: {1 TO 1024}'), '(: services.port {w:1 w:1024})');
  assert.equal(p('services.port: [1 to 1024}'), '(: services.port [w:1 w:1024})');
  assert.equal(p('services.port:{1 To 1024]'), '(: services.port {w:1 w:1024])');
  assert.equal(p('last_updated_at: [2021-03-01 TO *]'), '(: last_updated_at [w:2021-03-01 *])');
  assert.equal(p('x: [* TO now-24h]'), '(: x [* w:now-24h])');
  assert.equal(p('ip: [1.1.1.0 TO 1.1.1.255]'), '(: ip [w:1.1.1.0 w:1.1.1.255])');
  assert.equal(p('ip: [::1 TO ::ff]'), '(: ip [w:::1 w:::ff])');
  assert.equal(p('x: ["a" TO "b c"]'), '(: x [q:a q:b c])');
});

test('nested groups and field groups', () => {
  assert.equal(
    p('services: (service_name: SSH and not port: {22, 2222})'),
    '(group services (and (: service_name w:SSH) (not (: port {w:22 w:2222}))))',
  );
  assert.equal(p('same_service(service_name: SSH and not port: 22)'), '(same_service (and (: service_name w:SSH) (not (: port w:22))))');
  assert.equal(p('SAME_SERVICE (port: 22)'), '(same_service (: port w:22))');
  assert.equal(p('labels: (a or b)'), '(group labels (or w:a w:b))');
  assert.equal(p('same_service and x'), '(and w:same_service w:x)');
});

test('boosts are accepted on bare terms and ignored', () => {
  assert.equal(p('Dell^2'), 'w:Dell^2');
  assert.equal(p('"a b"^1.5 c'), '(and q:a b^1.5 c)'.replace(' c)', ' w:c)'));
  assert.equal(p('a\\^2'), 'w:a^2');
  assert.equal(p('x: a^2'), '(: x w:a^2)');
});

test('spans point into the query', () => {
  const r = parseQuery('foo and services.port: [1 TO 2]');
  assert.ok(r.ok);
  const and = r.ast;
  assert.equal(and.type, 'and');
  if (and.type !== 'and') return;
  assert.deepEqual(and.span, { start: 0, end: 31 });
  assert.deepEqual(and.children[0].span, { start: 0, end: 3 });
  const f = and.children[1];
  assert.equal(f.type, 'field');
  if (f.type !== 'field') return;
  assert.deepEqual(f.fieldSpan, { start: 8, end: 21 });
  assert.deepEqual(f.operand.span, { start: 23, end: 31 });
  assert.equal(f.operand.kind, 'range');
  if (f.operand.kind === 'range') assert.deepEqual(f.operand.hi?.span, { start: 29, end: 30 });
});

test('errors: unbalanced parentheses, brackets and quotes', () => {
  errAt('(a or b', 0, /Unclosed '\('/, 1);
  errAt('a and (b or (c)', 6, /Unclosed '\('/);
  errAt('a)', 1, /Unexpected '\)'/, 1);
  errAt(')', 0, /Unexpected '\)'/);
  errAt('()', 0, /Empty parentheses/, 2);
  errAt('services.port: [1 TO 2', 15, /Unclosed '\['/);
  errAt('labels: {a, b', 8, /Unclosed '\{'/);
  errAt('(a ]', 3, /Expected '\)'/);
  errAt('"hello', 0, /Unterminated quoted string/);
  errAt("x: 'US", 3, /Unterminated quoted string/);
  errAt('x: `abc', 3, /Unterminated backtick/);
  errAt('x: /abc', 3, /Unterminated regular expression/);
  errAt('x: /abc\\/', 3, /Unterminated regular expression/);
  errAt('x: //', 3, /Empty regular expression/);
  errAt('abc\\', 3, /Escape character/);
});

test('errors: missing values and operands', () => {
  errAt("services.port:", 14, /Expected a value after ':'/, 0);
  errAt('services.port: ', 15, /Expected a value after ':'/, 0);
  errAt('services.port: )', 15, /Expected a value after ':'/, 1);
  errAt('(services.port:)', 15, /Expected a value after ':'/);
  errAt('services.port =', 15, /Expected a value after '='/);
  errAt('services.port >', 15, /Expected a value after '>'/);
  errAt('services.port: >=', 17, /Expected a value after '>='/);
  errAt('a and', 5, /Expected a term after 'and'/, 0);
  errAt('a or or b', 5, /Expected a term after 'or'/, 2);
  errAt('not', 3, /Expected a term after 'not'/);
  errAt('and a', 0, /Expected a term before 'and'/);
  errAt('a - b', 2, /right after '-'/);
  errAt('-', 1, /Expected a term after '-'/);
  errAt(': a', 0, /Unexpected ':'/);
  errAt('"a": b', 3, /Unexpected ':'/);
});

test('errors: malformed ranges and sets', () => {
  errAt('services.port: [1 1024]', 18, /Expected 'TO'/);
  errAt('services.port: [1 TO]', 20, /Expected a value after 'TO'/);
  errAt('services.port: [TO 5]', 19, /Expected 'TO'/);
  errAt('services.port: [1 TO 2 3]', 23, /Expected '\]' or '\}'/);
  errAt('services.port: [1 TO 2)', 22, /Expected '\]' or '\}'/);
  errAt('services.port: [/a/ TO 2]', 16, /cannot be a regular expression/);
  errAt('labels: {}', 8, /Empty value set/, 2);
  errAt('labels: {a b}', 11, /Expected ',' or '\}'/);
  errAt('labels: {a,}', 11, /Expected a value after ','/);
  errAt('labels: {a,,b}', 11, /Expected a value after ','/);
  errAt('labels: [a, b]', 10, /Expected 'TO'/);
  errAt('x = (a)', 4, /Expected a value after '='/);
});

test('errors: invalid field names', () => {
  errAt('foo* = x', 0, /Invalid field name 'foo\*'/, 4);
  errAt('a\\ b: x'.replace(':', ' ='), 0, /Invalid field name/);
  errAt('.a = x', 0, /Invalid field name/);
});

test('limits: depth and length give clean errors', () => {
  const deep = '('.repeat(MAX_DEPTH + 1) + 'a' + ')'.repeat(MAX_DEPTH + 1);
  errAt(deep, MAX_DEPTH, /nested too deeply/);
  assert.equal(p('('.repeat(MAX_DEPTH) + 'a' + ')'.repeat(MAX_DEPTH)), 'w:a');
  errAt('not '.repeat(MAX_DEPTH + 1) + 'a', MAX_DEPTH * 4, /nested too deeply/);
  errAt('-'.repeat(5000) + 'a', MAX_DEPTH, /nested too deeply/);
  errAt('services: ('.repeat(100) + 'a', 11 * MAX_DEPTH + 10, /nested too deeply/);
  errAt('a '.repeat(MAX_QUERY_LENGTH), MAX_QUERY_LENGTH, /too long/);
  // Long but flat queries are fine.
  assert.match(p('a or '.repeat(1900) + 'a'), /^\(or /);
});
