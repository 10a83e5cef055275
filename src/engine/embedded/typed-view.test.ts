import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Leaf } from '../../model/values-of.ts';
import { compareTyped, typedValue } from '../reference/typed-value.ts';
import { TypedView } from './typed-view.ts';

describe('TypedView', () => {
  it('groups and sorts addresses as their ipKeys do, whatever their spelling', () => {
    const octet = fc.oneof(fc.nat(255).map(String), fc.constantFrom('0', '00', '01', '256', '1000', ''));
    const v4 = fc.array(octet, { minLength: 3, maxLength: 5 }).map((o) => o.join('.'));
    const text = fc.oneof(
      v4,
      v4.map((a) => `::ffff:${a}`),
      fc.constantFrom('::1', '2001:db8::1', '::', 'ffff::', '1.2.3.4 ', ' 1.2.3.4', '1.2.3.4\n', 'x', ''),
      fc.integer(),
    );
    fc.assert(
      fc.property(fc.array(fc.array(text, { maxLength: 20 }), { minLength: 1, maxLength: 4 }), (batches) => {
        const view = new TypedView('ip');
        const values: Leaf[] = [];
        for (const batch of batches) {
          values.push(...batch);
          view.catchUp(values);
          const keys = values.map((v) => typedValue('ip', v) as string | undefined);
          for (let v = 0; v < values.length; v++) {
            const g = view.ordGroup[v];
            assert.equal(g < 0 ? undefined : view.key(g), keys[v]);
            if (keys[v] !== undefined) assert.equal(view.findGroup(keys[v]!), g);
          }
          const distinct = [...new Set(keys.filter((k) => k !== undefined))].sort(compareTyped);
          assert.deepEqual(Array.from(view.sortedGroups(), (g) => view.key(g)), distinct);
        }
      }),
    );
  });

  it('keeps the sort order when a few groups are added to many (merged, not re-sorted)', () => {
    for (const [type, make] of [
      ['ip', (i: number) => `${(i * 37) % 223}.${(i * 11) % 256}.${i % 7}.${i % 256}`],
      ['int', (i: number) => ((i * 7919) % 5003) - 2500],
      ['keyword', (i: number) => `k${(i * 31) % 4001}`],
    ] as const) {
      const view = new TypedView(type);
      const values: Leaf[] = [];
      for (let batch = 0; batch < 4; batch++) {
        const count = batch === 0 ? 3000 : 1 + batch * 150;
        for (let i = 0; i < count; i++) values.push(make(values.length * 3 + batch));
        if (type === 'ip') values.push('2001:db8::' + batch, '::' + batch);
        view.catchUp(values);
        const keys = Array.from({ length: view.groups }, (_, g) => view.key(g) as string | number);
        const order = Array.from(view.sortedGroups(), (g) => keys[g]);
        assert.deepEqual(order, [...keys].sort(compareTyped), `${type} after batch ${batch}`);
        const rank = view.groupRank();
        view.sortedGroups().forEach((g, p) => assert.equal(rank[g], p));
      }
    }
  });
  it('ends up the same when caught up in budgeted steps, with appends in between', () => {
    const text = fc.oneof(fc.nat(40).map((n) => `10.0.${n % 3}.${n}`), fc.constantFrom('::1', '2001:db8::1', '::ffff:10.0.1.1', 'x'), fc.integer());
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(text, { maxLength: 5 }), fc.nat(4)), { minLength: 1, maxLength: 20 }), (steps) => {
        const stepped = new TypedView('ip');
        const values: Leaf[] = [];
        for (const [added, budget] of steps) {
          values.push(...added);
          stepped.catchUp(values, budget);
          // A query in between sees the order of the groups made so far.
          stepped.sortedGroups();
        }
        while (!stepped.catchUp(values, 1));
        const whole = new TypedView('ip');
        whole.catchUp(values);
        assert.deepEqual(Array.from(stepped.ordGroup.subarray(0, values.length)), Array.from(whole.ordGroup.subarray(0, values.length)));
        const keysOf = (v: TypedView) => Array.from({ length: v.groups }, (_, g) => v.key(g));
        assert.deepEqual(keysOf(stepped), keysOf(whole));
        assert.deepEqual(stepped.groupOrds, whole.groupOrds);
        assert.deepEqual(Array.from(stepped.sortedGroups()), Array.from(whole.sortedGroups()));
        assert.deepEqual(Array.from(stepped.groupRank()), Array.from(whole.groupRank()));
      }),
    );
  });
});
