/**
 * A population of units with dense uint32 ids — the documents of an index, or the elements of
 * one nested root — and the slots and existence postings over their paths. Ids are never
 * reused: a removed or replaced unit is a tombstone (its byte in `alive` cleared) and its old
 * postings are filtered out by the live bitmap, which keeps every posting list append-only.
 *
 * Indexing walks a unit once: leaves are gathered per addressable path (what
 * model/values-of.ts can reach: a key containing a dot cannot be named by a dotted path, so
 * leaves below one only count for the existence of its parents), and every path holding a
 * leaf, with its prefixes, is marked present for `exists`.
 */
import type { Leaf } from '../../model/values-of.ts';
import { bitmapOfSorted, RoaringBitmap32, type Bitmap } from './bitmap.ts';
import { PathNode } from './path-node.ts';
import { PostingTable } from './posting-table.ts';
import { Slot } from './slot.ts';
import { CorruptSegmentError, type SegmentReader, type SegmentWriter } from './segment-codec.ts';

/** Receives the values of slots that feed the combined full-text postings. */
export interface FulltextSink {
  /** Whether values at this full document path are tokens (text) and/or whole keywords. */
  flagsFor(fullPath: string): { readonly text: boolean; readonly keyword: boolean };
  addValue(slot: Slot, ord: number, doc: number): void;
}

export class Scope {
  readonly slots = new Map<string, Slot>();
  private readonly nodes = new Map<string, PathNode>();
  private readonly root: PathNode;
  private exists = new PostingTable();
  alive = new Uint8Array(1024);
  /** Ids handed out so far (the next id). */
  idCount = 0;
  liveCount = 0;
  private liveCache: Bitmap | undefined;
  /**
   * `liveWithout` by path, dropped with `liveCache`: by newUnit() before a unit's existence
   * postings are added (index() follows it in the same call), by kill(), and by restores.
   */
  private withoutCache = new Map<string, Bitmap>();
  private epoch = 0;
  private readonly touched: PathNode[] = [];
  private readonly present: PathNode[] = [];

  /** `prefix` is the nested root for element scopes ('' for documents): full paths are `prefix.path`. */
  constructor(private readonly prefix: string, private readonly fulltext: FulltextSink) {
    this.root = new PathNode(undefined, '', 0);
    this.nodes.set('', this.root);
  }

  newUnit(): number {
    const id = this.idCount++;
    if (id >= this.alive.length) {
      const next = new Uint8Array(this.alive.length * 2);
      next.set(this.alive);
      this.alive = next;
    }
    this.alive[id] = 1;
    this.liveCount++;
    this.liveChanged();
    return id;
  }

  kill(id: number): void {
    if (this.alive[id] !== 1) return;
    this.alive[id] = 0;
    this.liveCount--;
    this.liveChanged();
  }

  /** Indexes a new unit; `doc` is its document (itself for document scopes), `skipTop` top-level keys left out. */
  index(unit: number, value: unknown, doc: number, skipTop?: ReadonlySet<string>): void {
    this.epoch++;
    this.walk(value, this.root, this.root, skipTop);
    for (const node of this.touched) {
      const slot = (node.slot ??= this.newSlot(node.path));
      const from = slot.fwdOrd.length;
      slot.addUnit(unit, node.leaves, node.leafCount);
      node.leafCount = 0;
      if (slot.ftText || slot.ftKeyword) {
        const ords = slot.fwdOrd.data;
        for (let i = from; i < slot.fwdOrd.length; i++) this.fulltext.addValue(slot, ords[i], doc);
      }
    }
    for (const node of this.present) this.exists.add(node.existsOrd, unit);
    this.touched.length = 0;
    this.present.length = 0;
  }

  private walk(value: unknown, node: PathNode | null, anchor: PathNode, skipTop?: ReadonlySet<string>): void {
    // Leaves first: they are most of the calls.
    const type = typeof value;
    if (type === 'string' || type === 'number' || type === 'boolean') {
      if (node !== null) {
        if (node.leafEpoch !== this.epoch) {
          node.leafEpoch = this.epoch;
          this.touched.push(node);
        }
        node.leaves[node.leafCount++] = value as Leaf;
      }
      this.markPresent(anchor);
      return;
    }
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) this.walk(value[i], node, anchor);
      return;
    }
    if (type === 'object') {
      const obj = value as Record<string, unknown>;
      for (const key in obj) {
        if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
        if (skipTop !== undefined && skipTop.has(key)) continue;
        const child = node === null ? null : this.child(node, key);
        this.walk(obj[key], child, child ?? anchor);
      }
      return;
    }
    // Any other non-null value counts for existence, like model/values-of.ts.
    this.markPresent(anchor);
  }

  /** Marks `anchor` and its ancestors present in this unit (any non-null value counts, like model/values-of.ts). */
  private markPresent(anchor: PathNode): void {
    for (let n: PathNode | undefined = anchor; n !== undefined && n.presentEpoch !== this.epoch; n = n.parent) {
      n.presentEpoch = this.epoch;
      this.present.push(n);
    }
  }

  /**
   * The trie node of `key` under `node`, or null when the key cannot be named by a dotted path
   * (it contains a dot, or is an empty top-level key): such keys are remembered as null, so the
   * walk decides once per key rather than once per document.
   */
  private child(node: PathNode, key: string): PathNode | null {
    const c = node.children.get(key);
    if (c !== undefined) return c;
    if (key.includes('.') || (node === this.root && key === '')) {
      node.children.set(key, null);
      return null;
    }
    return this.addChild(node, key);
  }

  private addChild(node: PathNode, key: string): PathNode {
    const path = node.path === '' ? key : `${node.path}.${key}`;
    const c = new PathNode(node, path, this.nodes.size);
    node.children.set(key, c);
    this.nodes.set(path, c);
    return c;
  }

  private newSlot(path: string): Slot {
    const full = this.prefix === '' ? path : path === '' ? this.prefix : `${this.prefix}.${path}`;
    const flags = this.fulltext.flagsFor(full);
    const slot = new Slot(path, flags.text, flags.keyword);
    this.slots.set(path, slot);
    return slot;
  }

  /**
   * Units (with the tombstones as the alive bytes), the path trie as (parent, key) pairs in
   * existence-ordinal order, existence postings, then each slot.
   */
  write(w: SegmentWriter, release = false): void {
    w.u32(this.idCount);
    w.u32(this.liveCount);
    w.bytes(this.alive.subarray(0, this.idCount));
    this.writeTrie(w);
    this.exists.write(w);
    w.u32(this.slots.size);
    for (const slot of this.slots.values()) {
      w.str(slot.path);
      w.u8((slot.ftText ? 1 : 0) | (slot.ftKeyword ? 2 : 0));
      slot.writeBlock(w);
      // A merge's throwaway copy keeps one decoded slot at a time.
      if (release) slot.release();
    }
  }

  private writeTrie(w: SegmentWriter): void {
    const nodes = [...this.nodes.values()];
    const parents = new Uint32Array(nodes.length);
    const keys: string[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      if (n.existsOrd !== i) throw new Error('path trie out of order');
      const parent = n.parent;
      parents[i] = parent ? parent.existsOrd : 0;
      keys.push(!parent ? '' : parent.path === '' ? n.path : n.path.slice(parent.path.length + 1));
    }
    w.u32s(parents);
    w.scalars(keys);
  }

  /** Fills a new, empty scope from write()'s output. */
  restore(r: SegmentReader): void {
    this.idCount = r.u32();
    this.liveCount = r.u32();
    const alive = r.bytes();
    if (alive.length !== this.idCount) throw new CorruptSegmentError('scope: alive bytes and unit count differ');
    this.alive = new Uint8Array(Math.max(1024, alive.length));
    this.alive.set(alive);
    this.liveChanged();
    this.readTrie(r);
    this.exists = new PostingTable();
    this.exists.restore(r);
    this.readSlots(r, false);
    this.savedIds = this.idCount;
  }

  /** The path trie as written by writeTrie; a delta's trie extends the one read before. */
  private readTrie(r: SegmentReader): void {
    const parents = r.u32s();
    const keys = r.scalars() as string[];
    if (parents.length !== keys.length || parents.length === 0 || parents.length < this.nodes.size) throw new CorruptSegmentError('scope: bad path trie');
    const ordered: PathNode[] = [this.root];
    for (let i = 1; i < parents.length; i++) {
      const parent = ordered[parents[i]];
      if (parent === undefined) throw new CorruptSegmentError('scope: bad path trie');
      const c = this.child(parent, keys[i]);
      if (c === null || c.existsOrd !== i) throw new CorruptSegmentError('scope: path trie out of order');
      ordered.push(c);
    }
  }

  private readSlots(r: SegmentReader, delta: boolean): void {
    const slots = r.u32();
    for (let i = 0; i < slots; i++) {
      const path = r.str();
      const flags = r.u8();
      const node = this.nodes.get(path);
      if (!node) throw new CorruptSegmentError(`scope: slot ${path} has no path`);
      let slot = delta ? this.slots.get(path) : undefined;
      if (!slot) {
        slot = new Slot(path, (flags & 1) !== 0, (flags & 2) !== 0);
        node.slot = slot;
        this.slots.set(path, slot);
      }
      if (delta) slot.deferDelta(r.blockRef());
      else if (r.version >= 2) slot.defer(r.blockRef());
      else slot.restore(r);
    }
  }

  /** Units the persisted segments hold (a delta appends the rest). */
  private savedIds = 0;

  /** Starts (or stops) recording the existence adds a delta segment appends; see markSaved. */
  track(on: boolean): void {
    this.exists.track(on);
  }

  /** Existence adds recorded for the next delta. */
  get trackedAdds(): number {
    return this.exists.trackedAdds?.ord.length ?? 0;
  }

  /**
   * What changed since the segments last persisted the scope (track(true) must have been on
   * since): unit count, the alive bytes and the path trie whole (small), the existence adds, and
   * a block per slot that changed.
   */
  writeDelta(w: SegmentWriter): void {
    const adds = this.exists.trackedAdds;
    if (!adds) throw new Error('scope delta without tracking');
    w.u32(this.savedIds);
    w.u32(this.idCount);
    w.u32(this.liveCount);
    w.bytes(this.alive.subarray(0, this.idCount));
    this.writeTrie(w);
    w.u32s(adds.ord.data, adds.ord.length);
    w.u32s(adds.id.data, adds.id.length);
    const changed = [...this.slots.values()].filter((s) => s.changed);
    w.u32(changed.length);
    for (const slot of changed) {
      w.str(slot.path);
      w.u8((slot.ftText ? 1 : 0) | (slot.ftKeyword ? 2 : 0));
      slot.writeDeltaBlock(w);
    }
  }

  /** The segments now hold the whole scope (after a checkpoint). */
  markSaved(): void {
    this.savedIds = this.idCount;
    for (const slot of this.slots.values()) slot.markSaved();
  }

  /** Applies writeDelta()'s output on top of what restore() and earlier deltas read; slots stay undecoded. */
  restoreDelta(r: SegmentReader): void {
    const from = r.u32();
    if (from !== this.idCount) throw new CorruptSegmentError('scope: delta does not follow the segments before it');
    const idCount = r.u32();
    const liveCount = r.u32();
    const alive = r.bytes();
    if (alive.length !== idCount || idCount < from || liveCount > idCount) throw new CorruptSegmentError('scope: alive bytes and unit count differ');
    this.idCount = idCount;
    this.liveCount = liveCount;
    this.alive = new Uint8Array(Math.max(1024, alive.length));
    this.alive.set(alive);
    this.liveChanged();
    this.readTrie(r);
    const ords = r.u32s();
    const ids = r.u32s();
    if (ords.length !== ids.length) throw new CorruptSegmentError('scope: existence delta columns differ');
    for (let i = 0; i < ords.length; i++) {
      if (ords[i] >= this.nodes.size || ids[i] >= idCount) throw new CorruptSegmentError('scope: bad existence delta');
      this.exists.add(ords[i], ids[i]);
    }
    this.readSlots(r, true);
    this.savedIds = idCount;
  }

  /** Dead units so far (tombstones still present in postings). */
  get deadCount(): number {
    return this.idCount - this.liveCount;
  }

  /** Removes dead units from every slot and posting list (ids are still never reused). */
  compact(): void {
    const dead = RoaringBitmap32.fromRange(0, this.idCount).andNotInPlace(this.live());
    for (const slot of this.slots.values()) slot.compact(this.alive);
    this.exists.dropDead(this.alive, dead);
  }

  /**
   * Live units without a value at or under `path`; shared, do not mutate. A conjunction
   * intersects with this instead of subtracting `existing(path)`: the hosts API's default
   * `and not name: *` subtracted 53,580 virtual hosts from every match at 1M hosts, and an
   * andNot of two sets of array containers cost 0.2-0.35 ms where this intersection costs
   * 0.01-0.03 ms (BENCHMARK, session 10).
   */
  liveWithout(path: string): Bitmap {
    let b = this.withoutCache.get(path);
    if (!b) {
      b = this.live().clone().andNotInPlace(this.existing(path));
      b.runOptimize();
      this.withoutCache.set(path, b);
    }
    return b;
  }

  private liveChanged(): void {
    this.liveCache = undefined;
    if (this.withoutCache.size > 0) this.withoutCache = new Map();
  }

  /** Units (live or not) with a value at or under `path`: a new bitmap. */
  existing(path: string): Bitmap {
    const node = this.nodes.get(path);
    return node === undefined ? new RoaringBitmap32() : this.exists.bitmap(node.existsOrd);
  }

  /** The live units; shared, do not mutate (clone first). */
  live(): Bitmap {
    if (!this.liveCache) {
      const ids = new Uint32Array(this.liveCount);
      let n = 0;
      const alive = this.alive;
      for (let i = 0; i < this.idCount; i++) if (alive[i] === 1) ids[n++] = i;
      this.liveCache = bitmapOfSorted(ids);
    }
    return this.liveCache;
  }
}
