/**
 * Saved hits held in memory (store/hit-cache.ts): bounded by their size, least recently used
 * dropped first, trusted for a limited time, forgotten when their document is written. That the
 * store forgets them on every write is checked on both dialects by page-reader-suite.ts, and
 * through the ingest writer thread by page-read-connection.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HitCache } from '../../src/store/hit-cache.ts';

describe('HitCache', () => {
  it('drops the least recently used hits past its size', () => {
    const cache = new HitCache(10, 1000, () => 0);
    cache.set('hosts', 'a', 's', 'ha', 'aaaa', cache.generation);
    cache.set('hosts', 'b', 's', 'hb', 'bbbb', cache.generation);
    assert.equal(cache.get('hosts', 'a', 's')?.hit, 'aaaa'); // a is now the most recent
    cache.set('hosts', 'c', 's', 'hc', 'cccc', cache.generation);
    assert.equal(cache.get('hosts', 'b', 's'), undefined, 'b was the least recently used');
    assert.equal(cache.get('hosts', 'a', 's')?.hit, 'aaaa');
    assert.equal(cache.get('hosts', 'c', 's')?.hit, 'cccc');
    assert.equal(cache.chars, 8);
    cache.set('hosts', 'a', 's', 'ha2', 'a2', cache.generation);
    const a = cache.get('hosts', 'a', 's');
    assert.deepEqual([a?.contentHash, a?.hit], ['ha2', 'a2']);
    assert.equal(cache.chars, 6, 'a replaced hit no longer counts');
    cache.set('hosts', 'big', 's', 'h', 'x'.repeat(11), cache.generation);
    assert.equal(cache.get('hosts', 'big', 's'), undefined, 'a hit larger than the budget is not kept');
    assert.equal(cache.size, 2);
  });

  it('keeps the hits in use while others come and go', () => {
    // Room for 10 hits of one character; 3 are read before every new one is added.
    const cache = new HitCache(10, 1000, () => 0);
    const hot = ['h1', 'h2', 'h3'];
    for (const id of hot) cache.set('hosts', id, 's', id, 'x', cache.generation);
    for (let i = 0; i < 100; i++) {
      for (const id of hot) assert.equal(cache.get('hosts', id, 's')?.hit, 'x', `${id} after ${i} others`);
      cache.set('hosts', `cold${i}`, 's', 'c', 'y', cache.generation);
      assert.ok(cache.size <= 10);
    }
    assert.equal(cache.get('hosts', 'cold89', 's'), undefined, 'the oldest of the others went first');
    assert.equal(cache.get('hosts', 'cold99', 's')?.hit, 'y');
  });

  it('serves a hit only under its spec, for its index, and while young enough', () => {
    let now = 0;
    const cache = new HitCache(1000, 100, () => now);
    cache.set('hosts', 'x', 's1', 'h', 'hit', cache.generation);
    assert.equal(cache.get('hosts', 'x', 's2'), undefined);
    assert.equal(cache.get('certificates', 'x', 's1'), undefined);
    cache.set('hosts', 'x', 's1', 'h', 'hit', cache.generation);
    now = 100;
    assert.equal(cache.get('hosts', 'x', 's1')?.hit, 'hit');
    now = 101;
    assert.equal(cache.get('hosts', 'x', 's1'), undefined, 'older than maxAgeMs');
    assert.equal(cache.chars, 0);
  });

  it('forgets written documents, and keeps nothing read while something was forgotten', () => {
    const cache = new HitCache(1000, 1000, () => 0);
    cache.set('hosts', 'x', 's', 'h', 'hit', cache.generation);
    cache.set('certificates', 'x', 's', 'h', 'cert', cache.generation);
    const readStarted = cache.generation;
    cache.forget('hosts', ['x', 'unknown']);
    assert.equal(cache.get('hosts', 'x', 's'), undefined);
    assert.equal(cache.get('certificates', 'x', 's')?.hit, 'cert', 'only the index written forgets');
    cache.set('hosts', 'y', 's', 'h', 'read before the write', readStarted);
    assert.equal(cache.get('hosts', 'y', 's'), undefined);
    cache.clear();
    assert.equal(cache.size, 0);
    assert.equal(cache.chars, 0);
  });
});
