/**
 * A trie of the paths seen in one scope. Walking a document follows object keys down the trie
 * (keys from JSON are interned strings, so each step is a cheap map lookup), instead of building
 * and hashing dotted path strings for every leaf; each node carries its slot, its existence
 * ordinal and per-walk scratch space, so indexing a document allocates almost nothing.
 */
import type { Leaf } from '../../model/values-of.ts';
import type { Slot } from './slot.ts';

export class PathNode {
  readonly children = new Map<string, PathNode>();
  slot: Slot | undefined;
  /** Walk scratch: the epoch in which `leaves` was last filled / the node was marked present. */
  leafEpoch = -1;
  presentEpoch = -1;
  readonly leaves: Leaf[] = [];

  constructor(
    readonly parent: PathNode | undefined,
    readonly path: string,
    readonly existsOrd: number,
  ) {}
}
