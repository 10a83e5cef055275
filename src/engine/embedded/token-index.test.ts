import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { tokenize } from '../../model/tokenize.ts';
import type { Leaf } from '../../model/values-of.ts';
import { tokensMatch } from '../reference/matchers.ts';
import { TokenIndex } from './token-index.ts';

function phrase(ti: TokenIndex, values: Leaf[], text: string): number[] {
  ti.catchUp(values, true);
  return Array.from(ti.phraseValues(values, tokenize(text)).toUint32Array());
}

describe('TokenIndex phrases', () => {
  const values: Leaf[] = [
    'Server: nginx',
    'nginx server',
    'HTTP/1.1 200 OK\r\nServer: nginx/1.18\r\n',
    'a b x b c',
    'a b c',
    'a a a',
    'a a',
    'x a b a y',
    42,
    'server',
  ];

  it('answers one token, two tokens and longer phrases', () => {
    const ti = new TokenIndex();
    assert.deepEqual(phrase(ti, values, 'nginx'), [0, 1, 2]);
    assert.deepEqual(phrase(ti, values, 'Server: nginx'), [0, 2]);
    assert.deepEqual(phrase(ti, values, 'server nginx 1'), [2]);
    assert.deepEqual(phrase(ti, values, 'nginx 1 18'), [2]);
    assert.deepEqual(phrase(ti, values, 'nope nginx'), []);
  });

  it('does not chain pairs that sit at different positions', () => {
    const ti = new TokenIndex();
    assert.deepEqual(phrase(ti, values, 'a b c'), [4]);
    assert.deepEqual(phrase(ti, values, 'b x b'), [3]);
  });

  it('handles repeated tokens within the phrase', () => {
    const ti = new TokenIndex();
    assert.deepEqual(phrase(ti, values, 'a a'), [5, 6]);
    assert.deepEqual(phrase(ti, values, 'a a a'), [5]);
    assert.deepEqual(phrase(ti, values, 'a b a'), [7]);
    assert.deepEqual(phrase(ti, values, 'a a a a'), []);
  });

  it('never matches tokens across different values', () => {
    const ti = new TokenIndex();
    // `server` ends value 1 and starts value 9; `server server` is in neither.
    assert.deepEqual(phrase(ti, values, 'server server'), []);
    assert.deepEqual(phrase(ti, values, 'nginx server'), [1]);
  });

  it('agrees with a scan of every value as values are appended between queries', () => {
    const word = fc.constantFrom('a', 'b', 'c', 'D', 'é');
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { maxLength: 8 }).map((w) => w.join(' ')), { minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(fc.array(word, { minLength: 1, maxLength: 4 }), fc.nat(30)), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (all, queries, tokensFirst) => {
          const ti = new TokenIndex();
          const values: Leaf[] = [];
          // Plain token queries first leave the pairs to a later catch-up.
          if (tokensFirst) {
            values.push(...all.slice(0, 5));
            ti.catchUp(values);
          }
          for (const [words, upTo] of queries) {
            while (values.length < Math.min(all.length, upTo + 1)) values.push(all[values.length]);
            const wanted = tokenize(words.join(' '));
            const expect = values.flatMap((v, i) => (tokensMatch(tokenize(v as string), wanted, true) ? [i] : []));
            ti.catchUp(values, true);
            assert.deepEqual(Array.from(ti.phraseValues(values, wanted).toUint32Array()), expect);
          }
        },
      ),
    );
  });
  it('ends up the same when caught up in budgeted steps, with appends and plain token catch-ups in between', () => {
    const words = ['a', 'b', 'c', 'D'];
    const word = fc.constantFrom(...words);
    const text = fc.oneof(fc.array(word, { maxLength: 6 }).map((w) => w.join(' ')), fc.constant(7 as Leaf));
    // Per step: values to append, then a catch-up with or without pairs and a budget (0 = none left).
    const step = fc.tuple(fc.array(text, { maxLength: 4 }), fc.boolean(), fc.nat(4));
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 20 }), (steps) => {
        const stepped = new TokenIndex();
        const values: Leaf[] = [];
        for (const [added, pairs, budget] of steps) {
          values.push(...added);
          const done = stepped.catchUp(values, pairs, budget);
          if (done) assert.equal(stepped.catchUp(values, pairs, 0), true);
        }
        while (!stepped.catchUp(values, true, 1));
        const whole = new TokenIndex();
        whole.catchUp(values, true);
        const tokensOf = (ti: TokenIndex) => Array.from(ti.tokens.ordinals(), (t) => ti.tokens.at(t));
        assert.deepEqual(tokensOf(stepped), tokensOf(whole));
        for (let t = 0; t < whole.tokens.length; t++) {
          assert.deepEqual(Array.from(stepped.values.bitmap(t).toUint32Array()), Array.from(whole.values.bitmap(t).toUint32Array()));
        }
        // Pairs and repeats, through every phrase of two and three words.
        for (const a of words) {
          for (const b of words) {
            for (const c of ['', ...words]) {
              const wanted = tokenize(`${a} ${b} ${c}`);
              assert.deepEqual(
                Array.from(stepped.phraseValues(values, wanted).toUint32Array()),
                Array.from(whole.phraseValues(values, wanted).toUint32Array()),
                wanted.join(' '),
              );
            }
          }
        }
      }),
    );
  });
});
