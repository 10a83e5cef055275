/**
 * mergePartGroups over parts whose best groups hide the answer: a value counted a little in
 * every part, never among any part's best, whose total beats every part's best. Its groups
 * reach the merge's threshold (the bound of rank numBuckets over the number of parts) without
 * reaching their part's own floor, so they must be among each part's `above` groups
 * (aggregate.ts, partGroups) for the merge to take them as candidates.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Doc } from '../search-engine.ts';
import { EmbeddedEngine, PartedEngine } from '../index.ts';
import { all } from '../../../test/engine/engine-helpers.ts';
import { fixtureCatalogues } from '../../../test/engine/fixture-catalogue.ts';

const PART = 14;

/** Part k: ten hosts of its own country, then four of the shared one. */
function hostsOfPart(k: number): Doc[] {
  const own = Array.from({ length: 10 }, () => ({ location: { country: `own-${k}` }, services: [{ port: 1000 + k }] }));
  const shared = Array.from({ length: 4 }, () => ({ location: { country: 'shared' }, services: [{ port: 7 }] }));
  return [...own, ...shared];
}

test('a value below every part\'s best but first over all parts is found', () => {
  const parted = new PartedEngine(fixtureCatalogues, { partDocuments: PART });
  const one = new EmbeddedEngine(fixtureCatalogues);
  let id = 0;
  for (let k = 0; k < 4; k++) {
    for (const doc of hostsOfPart(k)) {
      const key = `h${id++}`;
      parted.upsert('hosts', key, doc);
      one.upsert('hosts', key, doc);
    }
  }
  assert.equal(parted.parts.length, 4);
  for (const field of ['location.country', 'services.port']) {
    for (const numBuckets of [1, 2, 5]) {
      const request = { query: all, field, numBuckets };
      const merged = parted.aggregate('hosts', request);
      assert.deepStrictEqual(merged, one.aggregate('hosts', request), `${field}, ${numBuckets}`);
      // 16 against 10 for each part's own value.
      assert.deepStrictEqual(merged.buckets[0], { key: field === 'location.country' ? 'shared' : '7', count: 16 });
    }
  }
});
