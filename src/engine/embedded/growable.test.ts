import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GrowableU32 } from './growable.ts';

describe('GrowableU32', () => {
  it('keeps every pushed value and zero-fills what ensureLength adds, across many grow steps', () => {
    const g = new GrowableU32(0);
    for (let i = 0; i < 1000; i++) g.push(i * 3);
    g.ensureLength(1500);
    assert.equal(g.length, 1500);
    assert.ok(g.data.length >= 1500);
    for (let i = 0; i < 1000; i++) assert.equal(g.data[i], i * 3);
    for (let i = 1000; i < 1500; i++) assert.equal(g.data[i], 0);
    assert.equal(g.lowerBound(30), 10);
    assert.equal(g.lowerBound(31), 11);
  });

  it('grows by half its capacity, not by doubling', () => {
    const g = new GrowableU32(1024);
    for (let i = 0; i <= 1024; i++) g.push(i);
    assert.equal(g.data.length, 1536);
  });
});
