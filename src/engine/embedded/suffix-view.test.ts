import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { wildcardRegExp } from '../reference/matchers.ts';
import { Slot } from './slot.ts';
import { SuffixView } from './suffix-view.ts';

/** Ordinals of the slot's values matching `pattern`, through the view's candidates. */
function viaView(slot: Slot, pattern: string, caseSensitive: boolean): number[] {
  const re = wildcardRegExp(pattern, caseSensitive)!;
  const suffix = SuffixView.literalSuffix(pattern);
  assert.notEqual(suffix, '');
  return SuffixView.forSlot(slot)
    .candidates(suffix)
    .filter((v) => re.test(slot.values.at(v) as string))
    .sort((a, b) => a - b);
}

function viaScan(slot: Slot, pattern: string, caseSensitive: boolean): number[] {
  const re = wildcardRegExp(pattern, caseSensitive)!;
  return slot.values.slice(0).flatMap((v, i) => (typeof v === 'string' && re.test(v) ? [i] : []));
}

describe('SuffixView', () => {
  it('finds values by their literal ending in any case, and non-ASCII values that fold to it', () => {
    const slot = new Slot('dns.names');
    const names = ['www.Pixel-Academy.com', 'pixel-academy.com', 'a.pixel-academy.com.evil', 'x.om', 'cdn.pixel-academy.co\u212A', 42, 'm'];
    names.forEach((n, unit) => slot.addUnit(unit, [n]));
    assert.deepEqual(viaView(slot, '*.pixel-academy.com', false), [0]);
    assert.deepEqual(viaView(slot, '*pixel-academy.com', true), [1]);
    assert.deepEqual(viaView(slot, '*.pixel-academy.cok', false), [4]);
    assert.deepEqual(viaView(slot, '*m', false), [0, 1, 3, 6]);
  });

  it('agrees with testing every value as values are added between queries', () => {
    const ch = fc.constantFrom('a', 'B', 'b', '.', 'k', '\u212A', 'é');
    const text = fc.array(ch, { maxLength: 6 }).map((c) => c.join(''));
    const pattern = fc
      .tuple(fc.constantFrom('*', '?', 'a*', '*?'), fc.array(fc.constantFrom('a', 'B', '.', 'k'), { minLength: 1, maxLength: 3 }))
      .map(([head, tail]) => head + tail.join(''));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(text, { maxLength: 3 }), pattern, fc.boolean()), { minLength: 1, maxLength: 20 }), (steps) => {
        const slot = new Slot('p');
        steps.forEach(([leaves, pat, caseSensitive], unit) => {
          slot.addUnit(unit, leaves);
          assert.deepEqual(viaView(slot, pat, caseSensitive), viaScan(slot, pat, caseSensitive));
        });
      }),
    );
  });
});
