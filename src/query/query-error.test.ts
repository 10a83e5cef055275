import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatQueryError, formatQueryErrorWithCaret, queryError } from './query-error.ts';
import { compileQuery } from './index.ts';
import { testHostCatalogue } from './test-catalogue.ts';

test('one-line format names the position', () => {
  const q = 'services.port:';
  const res = compileQuery(q, testHostCatalogue);
  assert.equal(res.ok, false);
  if (res.ok) return;
  assert.equal(formatQueryError(q, res.error), "Invalid search at position 14: expected a value after ':'");
  assert.equal(formatQueryError('x', queryError('IP field broken', 0, 1)), 'Invalid search at position 0: IP field broken');
});

test('caret format underlines the offending characters', () => {
  const q = 'services.prot: 22';
  const res = compileQuery(q, testHostCatalogue);
  assert.equal(res.ok, false);
  if (res.ok) return;
  assert.equal(res.error.suggestion, 'services.port');
  assert.equal(
    formatQueryErrorWithCaret(q, res.error),
    [
      "Invalid search at position 0: unknown field 'services.prot'. Did you mean 'services.port'?",
      '  services.prot: 22',
      '  ^^^^^^^^^^^^^',
    ].join('\n'),
  );
  assert.equal(formatQueryErrorWithCaret('a and', queryError("Expected a term after 'and'", 5, 0)).split('\n')[2], '       ^');
});

test('caret format windows long queries and blanks control characters', () => {
  const q = 'a '.repeat(100) + 'b:\n' + ' c'.repeat(100);
  const lines = formatQueryErrorWithCaret(q, queryError('Problem', 200, 2)).split('\n');
  assert.equal(lines.length, 3);
  assert.ok(lines[1].startsWith('  …'));
  assert.ok(lines[1].endsWith('…'));
  assert.ok(!lines[1].includes('\n'));
  const caretAt = lines[2].indexOf('^');
  assert.equal(lines[1].slice(caretAt, caretAt + 3), 'b: ');
  assert.equal(lines[2].slice(caretAt), '^^');
});
