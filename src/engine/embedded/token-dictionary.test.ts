import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TokenDictionary } from './token-dictionary.ts';

/** Short strings over a small alphabet (so that pieces recur), with Latin-1, wide and NUL units among them. */
const unit = fc.constantFrom('a', 'b', 'c', '1', 'é', 'ſ', '日', '\0', '\ud800');
const token = fc.string({ unit, maxLength: 6 });

function dictionaryOf(tokens: readonly string[]): { dict: TokenDictionary; distinct: string[] } {
  const dict = new TokenDictionary();
  const distinct: string[] = [];
  for (const t of tokens) {
    const before = dict.length;
    const ord = dict.intern(t);
    if (ord === before) distinct.push(t);
    assert.equal(distinct[ord], t);
  }
  return { dict, distinct };
}

describe('TokenDictionary', () => {
  it('numbers tokens in first-seen order and finds each again, past many growths of its table', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 3000 }), fc.array(token, { maxLength: 20 }), (tokens, probes) => {
        const { dict, distinct } = dictionaryOf(tokens);
        assert.equal(dict.length, distinct.length);
        distinct.forEach((t, i) => {
          assert.equal(dict.get(t), i);
          assert.equal(dict.at(i), t);
        });
        for (const p of probes) assert.equal(dict.get(p), distinct.indexOf(p));
      }),
      { numRuns: 60 },
    );
  });

  it('finds the tokens holding or ending with a piece, as testing each would', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 200 }), token, fc.boolean(), (tokens, want, atEnd) => {
        const { dict, distinct } = dictionaryOf(tokens);
        const expected = distinct.flatMap((t, i) => ((atEnd ? t.endsWith(want) : t.includes(want)) ? [i] : []));
        assert.deepEqual(dict.containing(want, atEnd), expected);
      }),
      { numRuns: 500 },
    );
  });

  it('orders the tokens as JavaScript compares strings', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 200 }), (tokens) => {
        const { dict, distinct } = dictionaryOf(tokens);
        assert.deepEqual(dict.sorted().map((i) => distinct[i]), [...distinct].sort());
      }),
    );
  });
});
