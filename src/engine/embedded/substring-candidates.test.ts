import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { wildcardRegExp } from '../reference/matchers.ts';
import { literalRuns, substringCandidates, tokenCandidates } from './substring-candidates.ts';
import { TokenIndex } from './token-index.ts';

// Words with the letters whose case folding is not their lower case (ſ, K, ß, İ), digits and
// punctuation, joined by the separators tokenisation splits on.
const WORDS = ['nginx', 'NGINX', 'Apache', 'apache2', 'httpd', 'HTTP', '1', '1.1', '200', 'OK', 'ſsh', 'SSH', 'ssh', 'K', 'ßig', 'İs', 'foo-bar', 'a.b', 'x', 'Ι', 'ι'];
const SEPARATORS = [' ', '/', '-', ': ', '', '\n'];
const value = fc.tuple(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }), fc.constantFrom(...SEPARATORS)).map(([ws, sep]) => ws.join(sep));
const PIECES = ['ngin', 'nginx/1', 'ache', 'ache ', 'he/ng', 'ssh', 'SSH', 'sh-', '1.1', ': ok', 'p/1', 'oo-ba', 'x', 'ig', 'K', 'k', 's', 'tp', '-', 'TTPD', '\u0345', 'ſ', 'K'];
const pattern = fc.tuple(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 3 }), fc.constantFrom('*', '?', '*?'), fc.boolean(), fc.boolean()).map(
  ([pieces, joint, open, close]) => `${open ? '*' : ''}${pieces.join(joint)}${close ? '*' : ''}`,
);

function indexOf(values: string[]): TokenIndex {
  const ti = new TokenIndex();
  ti.catchUp(values);
  return ti;
}

describe('substring candidates', () => {
  it('keep every value and every token that matches the wildcard, in either case mode', () => {
    fc.assert(
      fc.property(fc.uniqueArray(value, { minLength: 1, maxLength: 40 }), pattern, fc.boolean(), (values, p, caseSensitive) => {
        const re = wildcardRegExp(p, caseSensitive)!;
        const ti = indexOf(values);
        const candidates = substringCandidates(ti, p, Infinity);
        if (candidates !== undefined) {
          const kept = new Set(candidates);
          values.forEach((v, i) => {
            if (re.test(v)) assert.ok(kept.has(i), `value ${JSON.stringify(v)} matches ${p} but is not a candidate`);
          });
        }
        const tokens = tokenCandidates(ti, p);
        if (tokens !== undefined) {
          const kept = new Set(tokens);
          for (const i of ti.tokens.ordinals()) {
            const t = ti.tokens.at(i);
            if (re.test(t)) assert.ok(kept.has(i), `token ${JSON.stringify(t)} matches ${p} but is not a candidate`);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('narrow through whole tokens, prefixes and pieces', () => {
    const values = ['nginx/1.1 ok', 'Server: nginx/1.18', 'apache/2.4', 'xnginx/1.1', 'ſsh-2.0', 'nothing here'];
    const ti = indexOf(values);
    // "1" is a whole token, "nginx" ends one, "1" starts one (too short to use); values with a
    // token holding ſ are always kept.
    assert.deepEqual([...substringCandidates(ti, '*nginx/1.1*', Infinity)!], [0, 1, 3, 4]);
    assert.deepEqual([...substringCandidates(ti, '*ache/2*', Infinity)!], [2, 4]);
    assert.equal(substringCandidates(ti, '*n*', Infinity), undefined); // nothing long enough
    assert.equal(substringCandidates(ti, '*nginx*', 2), undefined); // more than seven eighths of the values
    assert.deepEqual(tokenCandidates(ti, '*ngin*')!.map((t) => ti.tokens.at(t)), ['nginx', 'xnginx', 'ſsh']);
    assert.deepEqual(tokenCandidates(ti, '*nginx/1*'), []); // no token holds a slash
    assert.equal(literalRuns('*é*'), undefined);
    // U+0345 is neither a letter nor a digit but folds into ι: non-ASCII patterns test every token.
    assert.equal(tokenCandidates(indexOf(['x Ι']), '\u0345'), undefined);
    assert.deepEqual(literalRuns('*a-b?cd*'), [
      { text: 'a', startsToken: false, endsToken: true },
      { text: 'b', startsToken: true, endsToken: false },
      { text: 'cd', startsToken: false, endsToken: false },
    ]);
  });
});
