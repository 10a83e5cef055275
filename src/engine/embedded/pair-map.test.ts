import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PairMap } from './pair-map.ts';

describe('PairMap', () => {
  it('numbers pairs densely in first-seen order and finds them again after growing', () => {
    const map = new PairMap();
    const want = new Map<string, number>();
    // Large ordinals too: keys must be exact past 2^21 tokens.
    for (let i = 0; i < 5000; i++) {
      const a = (i * 7919) % 3001;
      const b = i % 2 === 0 ? 0xffffffff - (i % 97) : i % 13;
      const key = `${a},${b}`;
      const ord = map.intern(a, b);
      if (!want.has(key)) want.set(key, want.size);
      assert.equal(ord, want.get(key));
    }
    assert.equal(map.size, want.size);
    for (const [key, ord] of want) {
      const [a, b] = key.split(',').map(Number);
      assert.equal(map.get(a, b), ord);
    }
    assert.equal(map.get(3002, 1), -1);
  });
});
