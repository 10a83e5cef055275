/**
 * Everything indexed for one document path within a scope (documents, or elements of a nested
 * root): a dictionary of the raw leaves seen there, one posting list per distinct leaf, and a
 * forward column listing each unit's distinct leaves in document order (for sorting by first
 * value and for aggregating over many distinct values). Typed views, the token index and the
 * lower-case index are derived from the dictionary on first use, so any field definition over
 * this path — including pattern fields the catalogue resolves dynamically — can be answered.
 */
import type { FieldType } from '../../model/field-def.ts';
import type { Leaf } from '../../model/values-of.ts';
import { GrowableU32 } from './growable.ts';
import { PostingTable } from './posting-table.ts';
import { eachValue, PackedLeaves, SlotLeaves } from './packed-leaves.ts';
import { CorruptSegmentError, readBlock, SegmentReader, BLOCK_LAYOUT_VERSION, PACKED_LEAVES_VERSION, type BlockRef, type SegmentWriter } from './segment-codec.ts';
import { TokenIndex } from './token-index.ts';
import { TypedView } from './typed-view.ts';

export class Slot {
  /**
   * Values added since the slot was decoded (the tail of `_values`) → ordinal. Undefined until
   * first needed after a restore of an older format (whose values all come back as a tail) or a
   * delta: phrase, range and token queries never look values up.
   */
  private _dict: Map<Leaf, number> | undefined = new Map();
  /** The term dictionary: packed, sorted values from the segments (format 5+), then values added since. */
  private _values = new SlotLeaves(undefined);
  private _postings = new PostingTable();
  private _fwdUnit = new GrowableU32();
  private _fwdOrd = new GrowableU32();
  /** Forward entries [0, postedUpTo) are in `_postings`. */
  private postedUpTo = 0;
  /** A block of a segment not decoded yet (format 2+): most slots of a large index are never queried. */
  private pending: BlockRef | undefined;
  /** Blocks of delta segments (format 4+) appending to it, in chain order, applied when the slot is decoded. */
  private deltas: BlockRef[] | undefined;
  /** Values and forward entries the persisted segments (base and deltas) hold: a delta appends the rest. */
  private savedValues = 0;
  private savedFwd = 0;

  /** The map of the tail's values, built from it when missing. */
  private get tailDict(): Map<Leaf, number> {
    if (!this._dict) {
      const tail = this._values.tail;
      const from = this._values.baseLength;
      const dict = new Map<Leaf, number>();
      for (let v = 0; v < tail.length; v++) dict.set(tail[v], from + v);
      this._dict = dict;
    }
    return this._dict;
  }

  /** The ordinal of `leaf` in this slot, or undefined (SameValueZero, like a Map key). */
  ordOf(leaf: Leaf): number | undefined {
    if (this.pending || this.deltas) this.decode();
    const base = this._values.base;
    if (base !== undefined) {
      const ord = base.indexOf(leaf);
      if (ord >= 0) return ord;
    }
    return this.tailDict.get(leaf);
  }

  get values(): SlotLeaves {
    if (this.pending || this.deltas) this.decode();
    return this._values;
  }

  /** Value ordinal → units, caught up with the forward column on use (see post()). */
  get postings(): PostingTable {
    if (this.pending || this.deltas) this.decode();
    if (this.postedUpTo < this._fwdUnit.length) this.post();
    return this._postings;
  }

  /** Forward column: parallel (unit, value ordinal) entries, units ascending. */
  get fwdUnit(): GrowableU32 {
    if (this.pending || this.deltas) this.decode();
    return this._fwdUnit;
  }

  get fwdOrd(): GrowableU32 {
    if (this.pending || this.deltas) this.decode();
    return this._fwdOrd;
  }

  private tokenIndex: TokenIndex | undefined;
  private lowerIndex: Map<string, number | number[]> | undefined;
  private lowerUpTo = 0;
  private readonly views = new Map<FieldType, TypedView>();

  /** Full-text bookkeeping (see FulltextIndex): values below ftSeen occurred before; token ids of repeated values. */
  private _ftSeen = 0;
  get ftSeen(): number {
    if (this.pending || this.deltas) this.decode();
    return this._ftSeen;
  }
  set ftSeen(v: number) {
    this._ftSeen = v;
  }
  /**
   * Token ids of repeated values, per value ordinal: 1 + where in ftTokens its token count is
   * (0 until needed), the ids following the count. Columns rather than an array per value, for
   * the many values repeated a few times (an array costs a hundred bytes of headers).
   */
  ftTokenAt = new GrowableU32(0);
  ftTokens = new GrowableU32(0);
  /** Per value ordinal: 1 + the combined keyword id of its lower-cased value (0 until first needed). */
  ftKeywordIds = new GrowableU32(0);

  constructor(
    readonly path: string,
    /** Values here feed the combined full-text postings as tokens / as whole lower-cased keywords. */
    readonly ftText = false,
    readonly ftKeyword = false,
  ) {}

  /**
   * The last leaf looked up and its ordinal: most fields repeat the value of the unit before
   * (a protocol, a constant header, the same vendor in consecutive elements), and a strict
   * comparison spares hashing the value into a large dictionary. Cleared whenever ordinals
   * could change (restore, compaction, release).
   */
  private lastLeaf: Leaf | undefined;
  private lastOrd = 0;

  /** Records the first `count` leaves of one (new) unit; units must arrive in ascending id order. */
  addUnit(unit: number, leaves: readonly Leaf[], count = leaves.length): void {
    if (this.pending || this.deltas) this.decode();
    const fwdOrd = this._fwdOrd;
    const fwdUnit = this._fwdUnit;
    const from = fwdOrd.length;
    for (let i = 0; i < count; i++) {
      const leaf = leaves[i];
      let ord: number;
      let fresh = false;
      if (leaf === this.lastLeaf) ord = this.lastOrd;
      else {
        const dict = this._dict ?? this.tailDict;
        const base = this._values.base;
        const inBase = base === undefined ? -1 : base.indexOf(leaf);
        const found = inBase >= 0 ? inBase : dict.get(leaf);
        if (found === undefined) {
          ord = this._values.length;
          dict.set(leaf, ord);
          this._values.push(leaf);
          fresh = true;
        } else ord = found;
        this.lastLeaf = leaf;
        this.lastOrd = ord;
      }
      if (i > 0 && !fresh) {
        // Distinct per unit: documents count once per value. Ordinals compare as integers,
        // where comparing the leaves would compare long strings character by character.
        const ords = fwdOrd.data;
        let dup = false;
        for (let j = from, end = fwdOrd.length; j < end; j++) {
          if (ords[j] === ord) {
            dup = true;
            break;
          }
        }
        if (dup) continue;
      }
      fwdUnit.push(unit);
      fwdOrd.push(ord);
    }
  }

  /**
   * Drops every trace of dead units: values only they held leave the dictionary, and ordinals
   * are renumbered, so derived views and caches start over (they are rebuilt lazily).
   */
  compact(alive: Uint8Array): void {
    const units = this.fwdUnit.data;
    const ords = this.fwdOrd.data;
    const n = this.fwdUnit.length;
    const old = this.values;
    const renumber = new Int32Array(old.length).fill(-1);
    const values: Leaf[] = [];
    const fwdUnit = new GrowableU32();
    const fwdOrd = new GrowableU32();
    for (let i = 0; i < n; i++) {
      const unit = units[i];
      if (alive[unit] !== 1) continue;
      let ord = renumber[ords[i]];
      if (ord < 0) {
        ord = renumber[ords[i]] = values.length;
        values.push(old.at(ords[i])!);
      }
      fwdUnit.push(unit);
      fwdOrd.push(ord);
    }
    // The survivors are packed at once, so a compaction does not bring a packed dictionary back
    // into the heap.
    this._values = new SlotLeaves(PackedLeaves.of(values));
    this._dict = new Map();
    this.lastLeaf = undefined;
    this._postings = new PostingTable();
    this.postedUpTo = 0;
    this._fwdUnit = fwdUnit;
    this._fwdOrd = fwdOrd;
    this.tokenIndex = undefined;
    this.lowerIndex = undefined;
    this.lowerUpTo = 0;
    this.views.clear();
    this.ftSeen = values.length;
    this.ftTokenAt = new GrowableU32(0);
    this.ftTokens = new GrowableU32(0);
    this.ftKeywordIds = new GrowableU32(0);
  }

  /** Path and full-text flags are written by the scope; derived views are rebuilt lazily. */
  write(w: SegmentWriter): void {
    const values = this.values;
    const packed = values.packed();
    packed.write(w);
    // The slot keeps what it wrote (ordinals do not change when values are packed): its strings
    // and their Map leave the heap, as a restart would find them. Every buffer a checkpoint
    // allocates makes V8 mark the whole heap again, so the heap shrinking slot by slot makes a
    // full checkpoint of a freshly loaded index far cheaper (BENCHMARK "Checkpoints ... session 23").
    if (values.tail.length > 0) {
      this._values = new SlotLeaves(packed);
      this._dict = undefined;
    }
    this.postings.write(w);
    w.u32s(this.fwdUnit.data, this.fwdUnit.length);
    w.u32s(this.fwdOrd.data, this.fwdOrd.length);
  }

  /** As one block: a slot still undecoded since it was read (and not appended to by a delta) is copied as it is. */
  writeBlock(w: SegmentWriter): void {
    if (this.pending && !this.deltas && this.pending.version >= BLOCK_LAYOUT_VERSION) w.copyBlock(this.pending);
    else w.block((inner) => this.write(inner));
  }

  /** Whether values or forward entries were added since the segments last persisted the slot. */
  get changed(): boolean {
    if (this.pending || this.deltas) return false;
    return this._fwdUnit.length !== this.savedFwd || this._values.length !== this.savedValues;
  }

  /** What changed since the last checkpoint, as a block of a delta segment (see applyDelta). */
  writeDeltaBlock(w: SegmentWriter): void {
    const fromValues = this.savedValues;
    const fromFwd = this.savedFwd;
    const n = this._fwdUnit.length;
    w.block((inner) => {
      inner.u32(fromValues);
      inner.u32(fromFwd);
      inner.scalars(this._values.slice(fromValues));
      inner.u32s(this._fwdUnit.data.subarray(fromFwd, n));
      inner.u32s(this._fwdOrd.data.subarray(fromFwd, n));
    });
  }

  /** Drops the slot's contents once written (a merge's copy of the index only writes it): unusable afterwards. */
  release(): void {
    this._dict = undefined;
    this.lastLeaf = undefined;
    this._values = new SlotLeaves(undefined);
    this._postings = new PostingTable();
    this._fwdUnit = new GrowableU32(0);
    this._fwdOrd = new GrowableU32(0);
    this.postedUpTo = 0;
    this.pending = undefined;
    this.deltas = undefined;
  }

  /** The segments now hold everything (after a checkpoint). */
  markSaved(): void {
    if (this.pending || this.deltas) return;
    this.savedValues = this._values.length;
    this.savedFwd = this._fwdUnit.length;
  }

  /** Leaves the slot's block (format 2+) on disk until first use. */
  defer(ref: BlockRef): void {
    this.pending = ref;
  }

  /** A delta segment's block for this slot: applied after the base (and earlier deltas) when the slot is decoded. */
  deferDelta(ref: BlockRef): void {
    (this.deltas ??= []).push(ref);
  }

  private decode(): void {
    const ref = this.pending;
    const deltas = this.deltas;
    this.pending = undefined;
    this.deltas = undefined;
    if (ref) this.restore(SegmentReader.ofBlock(readBlock(ref), ref.version));
    if (deltas) for (const d of deltas) this.applyDelta(SegmentReader.ofBlock(readBlock(d), d.version));
    this.savedValues = this._values.length;
    this.savedFwd = this._fwdUnit.length;
  }

  /** Appends a delta block's values and forward entries (writeDeltaBlock); postings catch up on first read. */
  private applyDelta(r: SegmentReader): void {
    const fromValues = r.u32();
    const fromFwd = r.u32();
    if (fromValues !== this._values.length || fromFwd !== this._fwdUnit.length) {
      throw new CorruptSegmentError(`slot ${this.path}: delta does not follow the segments before it`);
    }
    const values = r.scalars() as Leaf[];
    const units = r.u32s();
    const ords = r.u32s();
    if (units.length !== ords.length) throw new CorruptSegmentError(`slot ${this.path}: forward columns differ in length`);
    for (const v of values) this._values.push(v);
    const count = this._values.length;
    let last = fromFwd > 0 ? this._fwdUnit.data[fromFwd - 1] : 0;
    for (let i = 0; i < units.length; i++) {
      if (ords[i] >= count || units[i] < last) throw new CorruptSegmentError(`slot ${this.path}: bad delta entries`);
      last = units[i];
      this._fwdUnit.push(units[i]);
      this._fwdOrd.push(ords[i]);
    }
    this._dict = undefined;
    this._ftSeen = count;
  }

  restore(r: SegmentReader): void {
    // Format 6 keeps the values packed and sorted; format 5's packed values in ordinal order are
    // sorted here; older formats' JSON lists become the tail, as they were.
    const values =
      r.version >= BLOCK_LAYOUT_VERSION
        ? new SlotLeaves(PackedLeaves.read(r))
        : r.version >= PACKED_LEAVES_VERSION
          ? new SlotLeaves(PackedLeaves.readV5(r))
          : new SlotLeaves(undefined, r.scalars() as Leaf[]);
    this._values = values;
    this._dict = values.tail.length === 0 ? new Map() : undefined;
    this.lastLeaf = undefined;
    this._postings = new PostingTable();
    this._postings.restore(r);
    this._fwdUnit = GrowableU32.of(r.u32s());
    this._fwdOrd = GrowableU32.of(r.u32s());
    this.postedUpTo = this._fwdUnit.length;
    if (this._fwdUnit.length !== this._fwdOrd.length) throw new CorruptSegmentError(`slot ${this.path}: forward columns differ in length`);
    // Every value was seen before: repeats take the cached-token path of FulltextIndex.addValue.
    this._ftSeen = values.length;
    this.savedValues = values.length;
    this.savedFwd = this._fwdUnit.length;
  }

  /**
   * Adds the forward entries recorded since the last call to the postings. Indexing only appends
   * to the forward column: its ids go to the postings in one pass when something reads them (a
   * query, a checkpoint), which for a bulk load is a single counting sort instead of a posting
   * add per value per unit, each a cache miss into a growing table.
   */
  private post(): void {
    const n = this._fwdUnit.length;
    const units = this._fwdUnit.data;
    const ords = this._fwdOrd.data;
    if (this.postedUpTo === 0) this._postings.fillFrom(ords, units, 0, n, this._values.length);
    else for (let i = this.postedUpTo; i < n; i++) this._postings.add(ords[i], units[i]);
    this.postedUpTo = n;
  }

  /** The token index, caught up; `pairs` when a phrase will be checked (adjacent-token pairs, see TokenIndex.catchUp). */
  tokens(pairs = false): TokenIndex {
    this.tokenIndex ??= new TokenIndex();
    this.tokenIndex.catchUp(this.values, pairs);
    return this.tokenIndex;
  }

  /** Advances the token index with its pairs by at most `budget` values (background warm-up); true when caught up. */
  warmTokens(budget: number): boolean {
    this.tokenIndex ??= new TokenIndex();
    return this.tokenIndex.catchUp(this.values, true, budget);
  }

  /** Value ordinals whose string value lower-cases to `lower`. */
  lowerOrds(lower: string): readonly number[] {
    if (!this.lowerIndex) this.lowerIndex = new Map();
    const idx = this.lowerIndex;
    const values = this.values;
    eachValue(values, this.lowerUpTo, values.length, (v, value) => {
      if (typeof value !== 'string') return;
      const key = value.toLowerCase();
      const cur = idx.get(key);
      idx.set(key, cur === undefined ? v : typeof cur === 'number' ? [cur, v] : (cur.push(v), cur));
    });
    this.lowerUpTo = values.length;
    const found = idx.get(lower);
    return found === undefined ? [] : typeof found === 'number' ? [found] : found;
  }

  view(type: FieldType): TypedView {
    const v = this.viewOf(type);
    v.catchUp(this.values);
    return v;
  }

  /** Advances the view of `type` by at most `budget` values (background warm-up); true when caught up. */
  warmView(type: FieldType, budget: number): boolean {
    return this.viewOf(type).catchUp(this.values, budget);
  }

  private viewOf(type: FieldType): TypedView {
    let v = this.views.get(type);
    if (!v) this.views.set(type, (v = new TypedView(type)));
    return v;
  }

  /** Index range [start, end) of `unit`'s entries in the forward column. */
  entriesOf(unit: number): [number, number] {
    const start = this.fwdUnit.lowerBound(unit);
    let end = start;
    const d = this.fwdUnit.data;
    while (end < this.fwdUnit.length && d[end] === unit) end++;
    return [start, end];
  }
}
