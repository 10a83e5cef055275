import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanFieldOp, scanToken } from './lexer.ts';
import type { LexMode, Token } from './lexer.ts';

function tokens(src: string, mode: LexMode): string[] {
  const out: string[] = [];
  let pos = 0;
  for (let guard = 0; guard < 100; guard++) {
    const t: Token = scanToken(src, pos, mode);
    if (t.kind === 'eof') return out;
    if (t.kind === 'error') return [...out, `error:${t.message}`];
    out.push(t.kind === 'value' ? `${t.value.kind}:${t.value.kind === 'regex' ? t.value.source : t.value.text}` : t.kind);
    pos = t.end;
  }
  throw new Error('lexer did not advance');
}

test('term mode splits field names before a colon unless the word is an IP', () => {
  assert.deepEqual(tokens('services.port:22', 'term'), ['word:services.port', 'colon', 'word:22']);
  assert.deepEqual(tokens('2001:db8::1 ::1', 'term'), ['word:2001:db8::1', 'word:::1']);
  assert.deepEqual(tokens('10:30 a\\:b', 'term'), ['word:10:30', 'word:a:b']);
  assert.deepEqual(tokens('a=b c>=d', 'term'), ['word:a', 'eq', 'word:b', 'word:c', 'gte', 'word:d']);
  assert.deepEqual(tokens('NOT a AnD b or c && d || !e -f', 'term'), [
    'not', 'word:a', 'and', 'word:b', 'or', 'word:c', 'and', 'word:d', 'or', 'not', 'word:e', 'minus', 'word:f',
  ]);
  assert.deepEqual(tokens('(a)[b]{c}', 'term'), ['lparen', 'word:a', 'rparen', 'lbracket', 'word:b', 'rbracket', 'lbrace', 'word:c', 'rbrace']);
});

test('value and list modes keep punctuation inside values', () => {
  assert.deepEqual(tokens('cpe:2.3:a:*:iis now/d a=b -1 x]', 'value'), ['word:cpe:2.3:a:*:iis', 'word:now/d', 'word:a=b', 'word:-1', 'word:x]']);
  assert.deepEqual(tokens('>=5 <3', 'value'), ['gte', 'word:5', 'lt', 'word:3']);
  assert.deepEqual(tokens('a,b} c]', 'list'), ['word:a', 'comma', 'word:b', 'rbrace', 'word:c', 'rbracket']);
  assert.deepEqual(tokens('a>b', 'list'), ['word:a>b']);
});

test('quoted strings, literals and regexes', () => {
  assert.deepEqual(tokens('"a \\"b\\" \\\\ \\n" \'it\\\'s\'', 'term'), ['quoted:a "b" \\ \\n', "quoted:it's"]);
  assert.deepEqual(tokens('`a\\*"b`', 'value'), ['literal:a\\*"b']);
  assert.deepEqual(tokens('/a\\/b\\d/', 'value'), ['regex:a/b\\d']);
  assert.deepEqual(tokens('"abc', 'term'), ['error:Unterminated quoted string']);
});

test('wildcards are recorded only when unescaped; boosts only in term mode', () => {
  const t = scanToken('a\\*b?*', 0, 'term');
  assert.equal(t.kind, 'value');
  if (t.kind === 'value' && t.value.kind === 'word') {
    assert.equal(t.value.text, 'a*b?*');
    assert.deepEqual(t.value.wildcards, [3, 4]);
    assert.equal(t.plain, false);
  }
  const b = scanToken('Dell^2', 0, 'term');
  assert.ok(b.kind === 'value' && b.boost === 2 && b.value.kind === 'word' && b.value.text === 'Dell');
  const v = scanToken('Dell^2', 0, 'value');
  assert.ok(v.kind === 'value' && v.boost === undefined && v.value.kind === 'word' && v.value.text === 'Dell^2');
});

test('scanFieldOp', () => {
  assert.equal(scanFieldOp('a : b', 1)?.kind, 'colon');
  assert.equal(scanFieldOp('a<=b', 1)?.kind, 'lte');
  assert.equal(scanFieldOp('a b', 1), undefined);
});
