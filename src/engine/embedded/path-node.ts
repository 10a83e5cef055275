/**
 * A trie of the paths seen in one scope. Walking a document follows object keys down the trie
 * (keys from JSON are interned strings, so each step is a cheap map lookup), instead of building
 * and hashing dotted path strings for every leaf; each node carries its slot, its existence
 * ordinal and per-walk scratch space, so indexing a document allocates almost nothing.
 */
import type { Leaf } from '../../model/values-of.ts';
import type { Slot } from './slot.ts';

export class PathNode {
  /** null for a key that cannot be named by a dotted path (see Scope.child). */
  readonly children = new Map<string, PathNode | null>();
  slot: Slot | undefined;
  /** Walk scratch: the epoch in which `leaves` was last filled / the node was marked present. */
  leafEpoch = -1;
  presentEpoch = -1;
  /**
   * The leaves of the unit being walked are leaves[0, leafCount): the array is overwritten, never
   * truncated (setting a JS array's length to 0 drops its backing store, so every unit would
   * allocate a new one per path).
   */
  readonly leaves: Leaf[] = [];
  leafCount = 0;

  constructor(
    readonly parent: PathNode | undefined,
    readonly path: string,
    readonly existsOrd: number,
  ) {}
}
