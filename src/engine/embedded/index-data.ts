/**
 * Everything the embedded engine holds for one index: document ids, the document scope, one
 * element scope per nested root (`services`), the combined full-text postings and the order
 * index. Elements of a document get consecutive ids, in array order, when it is indexed, so a
 * document's elements are a range and element → document is one array lookup.
 */
import type { FieldCatalogue, FieldDef, IndexName } from '../../model/field-def.ts';
import type { Doc } from '../search-engine.ts';
import { orderKeyFor } from '../order-key.ts';
import type { Predicate } from '../../query/resolved.ts';
import { FulltextIndex } from './fulltext-index.ts';
import { GrowableU32 } from './growable.ts';
import { NestedDocPostings } from './nested-doc-postings.ts';
import { OrderIndex } from './order-index.ts';
import { Scope } from './scope.ts';
import type { Slot } from './slot.ts';
import { nestedRootOf } from '../reference/nested-root.ts';
import { relativePath } from '../../model/values-of.ts';
import { bitmapOfSorted, RoaringBitmap32, type Bitmap } from './bitmap.ts';
import { CorruptSegmentError, SEGMENT_DELTA, SEGMENT_FULL, STRING_COLUMNS_VERSION, type SegmentReader, type SegmentWriter } from './segment-codec.ts';
import { readStringList, writeStringList } from './string-column.ts';
import { ColumnHash, hashOf } from './column-hash.ts';

export class NestedPart {
  readonly scope: Scope;
  /** element → document */
  elemDoc = new GrowableU32();
  /** document → its first element id and element count */
  start = new GrowableU32();
  count = new GrowableU32();

  /** Elements standing for a root that is present but not an array (see IndexData.upsert). */
  private pseudo = new RoaringBitmap32();
  private realCache: { live: Bitmap; real: Bitmap } | undefined;
  /** Derived on query, never written. */
  private readonly docPostings = new NestedDocPostings();

  constructor(readonly root: string, fulltext: FulltextIndex) {
    this.scope = new Scope(root, fulltext);
  }

  markPseudo(e: number): void {
    this.pseudo.add(e);
    this.realCache = undefined;
  }

  write(w: SegmentWriter, release = false): void {
    this.scope.write(w, release);
    w.u32s(this.elemDoc.data, this.elemDoc.length);
    w.u32s(this.start.data, this.start.length);
    w.u32s(this.count.data, this.count.length);
    w.bitmap(this.pseudo);
  }

  restore(r: SegmentReader): void {
    this.scope.restore(r);
    this.elemDoc = GrowableU32.of(r.u32s());
    this.start = GrowableU32.of(r.u32s());
    this.count = GrowableU32.of(r.u32s());
    this.pseudo = r.bitmap();
    this.realCache = undefined;
    this.docPostings.clear();
    if (this.elemDoc.length !== this.scope.idCount || this.start.length !== this.count.length) {
      throw new CorruptSegmentError(`nested part ${this.root}: element columns disagree`);
    }
    this.savedElems = this.elemDoc.length;
    this.savedDocs = this.start.length;
  }

  /** Elements and documents the persisted segments hold (a delta appends the rest). */
  private savedElems = 0;
  private savedDocs = 0;

  /** What changed since the last checkpoint (the scope's delta, the columns' new entries, the pseudo elements whole). */
  writeDelta(w: SegmentWriter): void {
    this.scope.writeDelta(w);
    w.u32(this.savedElems);
    w.u32s(this.elemDoc.data.subarray(this.savedElems, this.elemDoc.length));
    w.u32(this.savedDocs);
    w.u32s(this.start.data.subarray(this.savedDocs, this.start.length));
    w.u32s(this.count.data.subarray(this.savedDocs, this.count.length));
    w.bitmap(this.pseudo);
  }

  markSaved(): void {
    this.scope.markSaved();
    this.savedElems = this.elemDoc.length;
    this.savedDocs = this.start.length;
  }

  restoreDelta(r: SegmentReader): void {
    this.scope.restoreDelta(r);
    if (r.u32() !== this.elemDoc.length) throw new CorruptSegmentError(`nested part ${this.root}: delta does not follow`);
    for (const d of r.u32s()) this.elemDoc.push(d);
    if (r.u32() !== this.start.length) throw new CorruptSegmentError(`nested part ${this.root}: delta does not follow`);
    const start = r.u32s();
    const count = r.u32s();
    if (start.length !== count.length) throw new CorruptSegmentError(`nested part ${this.root}: element columns disagree`);
    for (let i = 0; i < start.length; i++) {
      this.start.push(start[i]);
      this.count.push(count[i]);
    }
    this.pseudo = r.bitmap();
    this.realCache = undefined;
    this.docPostings.clear();
    if (this.elemDoc.length !== this.scope.idCount) throw new CorruptSegmentError(`nested part ${this.root}: element columns disagree`);
    this.savedElems = this.elemDoc.length;
    this.savedDocs = this.start.length;
  }

  compact(): void {
    this.scope.compact();
    this.pseudo.andInPlace(this.scope.live());
    this.realCache = undefined;
    // Slots renumbered their value ordinals.
    this.docPostings.clear();
  }

  /**
   * Live documents (`liveDocs`) with an element, pseudo-elements included, whose value at `rel`
   * matches, from document-level postings; undefined when only the matching elements can tell.
   */
  matchDocs(rel: string, field: FieldDef, predicate: Predicate, liveDocs: Bitmap): Bitmap | undefined {
    if (predicate.op === 'exists') return undefined;
    const slot = this.scope.slots.get(rel);
    if (!slot) return new RoaringBitmap32();
    if (predicate.op === 'tokens') return this.docPostings.matchTokens(slot, field, predicate, this.elemDoc, (units) => this.docsOf(units), liveDocs);
    return this.docPostings.match(slot, field, predicate, this.elemDoc, liveDocs);
  }

  /** Live elements that are items of a nested array (what `nested` iterates): shared, do not mutate. */
  realLive(): Bitmap {
    const live = this.scope.live();
    if (this.realCache?.live !== live) {
      this.realCache = { live, real: this.pseudo.isEmpty ? live : RoaringBitmap32.andNot(live, this.pseudo) };
    }
    return this.realCache.real;
  }

  /** Documents having at least one of `elems`: a new bitmap. */
  docsOf(elems: Bitmap): Bitmap {
    const es = elems.toUint32Array();
    const elemDoc = this.elemDoc.data;
    let n = 0;
    let last = -1;
    for (let i = 0; i < es.length; i++) {
      const d = elemDoc[es[i]];
      // Elements of one document are consecutive, so duplicates are adjacent; documents are
      // written over the elements already read (n <= i), sparing a second array.
      if (d !== last) es[n++] = last = d;
    }
    return bitmapOfSorted(es.subarray(0, n));
  }

  /** Every element of `docs`: a new bitmap. */
  elemsOf(docs: Bitmap): Bitmap {
    const ds = docs.toUint32Array();
    const start = this.start.data;
    const count = this.count.data;
    const known = this.start.length;
    let total = 0;
    for (let i = 0; i < ds.length; i++) if (ds[i] < known) total += count[ds[i]];
    const out = new Uint32Array(total);
    let n = 0;
    for (let i = 0; i < ds.length; i++) {
      const d = ds[i];
      if (d >= known) continue;
      for (let e = start[d], end = e + count[d]; e < end; e++) out[n++] = e;
    }
    return bitmapOfSorted(out);
  }
}

/**
 * When tombstones are purged: once dead documents number at least `minDead` and at least
 * `ratio` times the live ones (so the cost, linear in the index, is amortised over as many
 * removals as there are live documents).
 */
export interface CompactionPolicy {
  readonly minDead: number;
  readonly ratio: number;
}

/**
 * `s` as one flat string. An order key is built by concatenation (a hex digit pair at a time), and
 * V8 keeps such a string as a tree of rope nodes: ten times the bytes of its characters, for every
 * document. Reading a character flattens the rope in place, leaving the tree to the collector.
 */
function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}

/** Documents a delta may add before changes stop being recorded (see upsert), unless the index holds more. */
const DELTA_MAX_DOCS = 100_000;

export const DEFAULT_COMPACTION: CompactionPolicy = { minDead: 1024, ratio: 1 };

export class IndexData {
  /**
   * document → id, and → order key (orderKeyFor); '' once the document is dead. Strings, though
   * they are two small heap objects per document (see docs/ARCHITECTURE.md, "Small objects"):
   * every hit carries both, and reading them from a string column cost ~0.3 µs a hit, a third
   * more time for a query of a 1.1M-document part.
   */
  readonly ids: string[] = [];
  readonly orderKeys: string[] = [];
  /**
   * id → document, a hash table over the ids (column-hash.ts): made on the first write or lookup after a
   * restore (queries never need it) or a compaction. A replaced document's entry stays until
   * then; lookups take only live documents.
   */
  private byId: ColumnHash | undefined;
  private readonly idStrings = { equals: (d: number, s: string): boolean => this.ids[d] === s, hashAt: (d: number): number => hashOf(this.ids[d]) };
  private readonly isLive = (d: number): boolean => this.docs.alive[d] === 1;

  private idIndex(): ColumnHash {
    if (!this.byId) {
      const index = new ColumnHash(this.idStrings);
      const alive = this.docs.alive;
      for (let d = 0; d < this.ids.length; d++) if (alive[d] === 1) index.add(d);
      this.byId = index;
    }
    return this.byId;
  }

  /** The live document with this id, or -1. */
  docOf(id: string, h = hashOf(id)): number {
    return this.idIndex().find(id, h, this.isLive);
  }
  readonly docs: Scope;
  readonly nested = new Map<string, NestedPart>();
  readonly fulltext: FulltextIndex;
  readonly order: OrderIndex;
  private readonly roots: ReadonlySet<string>;
  /** Dead documents already purged from the postings by compaction. */
  private purged = 0;


  constructor(
    readonly index: IndexName,
    readonly catalogue: FieldCatalogue,
    private readonly compaction: CompactionPolicy = DEFAULT_COMPACTION,
  ) {
    this.fulltext = new FulltextIndex(catalogue);
    this.docs = new Scope('', this.fulltext);
    for (const root of catalogue.nestedRoots) this.nested.set(root, new NestedPart(root, this.fulltext));
    this.roots = new Set(catalogue.nestedRoots);
    this.order = new OrderIndex(this.orderKeys, this.ids);
  }

  /**
   * Where the values at document path `path` are kept: the slot of the document scope, or of the
   * nested part whose root holds the path (under the path relative to that root); undefined
   * when the path's nested part is missing.
   */
  slotAt(path: string): { part: NestedPart | undefined; slot: Slot | undefined } | undefined {
    const root = nestedRootOf(this.catalogue, path);
    if (root === undefined) return { part: undefined, slot: this.docs.slots.get(path) };
    const part = this.nested.get(root);
    return part && { part, slot: part.scope.slots.get(path === root ? '' : relativePath(path, root)) };
  }

  /**
   * The whole index as one segment body: ids and order keys, the document scope, each nested
   * part, the combined full-text postings and the order permutation. Tombstones stay (as the
   * alive bytes) until compaction purges them.
   */
  write(w: SegmentWriter, release = false): void {
    this.order.ensure(this.docs);
    w.u8(SEGMENT_FULL);
    w.str(this.index);
    w.u32(this.purged);
    writeStringList(w, this.ids);
    writeStringList(w, this.orderKeys);
    this.docs.write(w, release);
    w.u32(this.nested.size);
    for (const part of this.nested.values()) {
      w.str(part.root);
      part.write(w, release);
    }
    this.fulltext.write(w);
    this.order.write(w);
  }

  /** Fills a new, empty IndexData from write()'s output. */
  restore(r: SegmentReader): void {
    if (this.docs.idCount !== 0) throw new Error('restore into a non-empty index');
    if (r.version >= 4 && r.u8() !== SEGMENT_FULL) throw new CorruptSegmentError('a delta segment where a full one was expected');
    const index = r.str();
    if (index !== this.index) throw new CorruptSegmentError(`segment holds index ${index}, expected ${this.index}`);
    this.purged = r.u32();
    this.readStrings(r);
    this.docs.restore(r);
    if (this.ids.length !== this.docs.idCount || this.orderKeys.length !== this.ids.length) throw new CorruptSegmentError('ids and documents differ in number');
    this.byId = undefined;
    this.restoreTail(r, false);
  }

  /** Documents the persisted segments hold. */
  private savedDocs = 0;
  /**
   * Whether what changed since the last checkpoint is being recorded, so that the next one can
   * be a delta segment (see writeDelta): on after a checkpoint or an open, off until the next
   * full checkpoint once compaction renumbered ordinals or the changes outgrew a delta.
   */
  private tracking = false;

  /** Whether the next checkpoint may be a delta on top of the persisted segments. */
  get deltaReady(): boolean {
    return this.tracking;
  }

  private track(on: boolean): void {
    this.tracking = on;
    this.docs.track(on);
    for (const part of this.nested.values()) part.scope.track(on);
    this.fulltext.track(on);
  }

  /** The segments now hold everything (a checkpoint or an open): changes from here on are recorded for a delta. */
  markSaved(): void {
    this.changed = false;
    this.savedDocs = this.ids.length;
    this.docs.markSaved();
    for (const part of this.nested.values()) part.markSaved();
    this.track(true);
  }

  /** The next checkpoint must be a full segment (compaction, a failed checkpoint, a large change). */
  forgetChanges(): void {
    this.track(false);
  }

  /** Documents indexed and posting adds recorded since the last checkpoint (the size of the next delta). */
  /** Documents the segments hold (ids given out before the last save or restore). */
  get savedDocuments(): number {
    return this.savedDocs;
  }

  get changedSinceSaved(): { changed: boolean; docs: number; adds: number } {
    let adds = this.docs.trackedAdds + this.fulltext.trackedAdds;
    for (const part of this.nested.values()) adds += part.scope.trackedAdds;
    return { changed: this.changed, docs: this.ids.length - this.savedDocs, adds };
  }

  /** A document was added or removed since the last checkpoint. */
  private changed = false;

  /**
   * What changed since the last checkpoint, as the body of a delta segment: the new documents'
   * ids and order keys, each scope's delta (alive bytes and path trie whole, existence adds, a
   * block per changed slot with its new values and forward entries), each nested part's new
   * column entries, the full-text tables' new terms and posting adds, and the order permutation
   * whole. Applied by restoreDelta on top of the segments it follows.
   */
  writeDelta(w: SegmentWriter): void {
    if (!this.tracking) throw new Error('delta checkpoint without recorded changes');
    this.order.ensure(this.docs);
    w.u8(SEGMENT_DELTA);
    w.str(this.index);
    w.u32(this.purged);
    w.u32(this.savedDocs);
    writeStringList(w, this.ids, this.savedDocs);
    writeStringList(w, this.orderKeys, this.savedDocs);
    this.docs.writeDelta(w);
    w.u32(this.nested.size);
    for (const part of this.nested.values()) {
      w.str(part.root);
      part.writeDelta(w);
    }
    this.fulltext.writeDelta(w);
    this.order.write(w);
  }

  /** Applies a delta segment (writeDelta) on top of restore() and the deltas before it; blocks stay on disk. */
  restoreDelta(r: SegmentReader): void {
    if (r.version < 4 || r.u8() !== SEGMENT_DELTA) throw new CorruptSegmentError('a full segment where a delta was expected');
    const index = r.str();
    if (index !== this.index) throw new CorruptSegmentError(`segment holds index ${index}, expected ${this.index}`);
    this.purged = r.u32();
    const from = r.u32();
    if (from !== this.ids.length) throw new CorruptSegmentError('delta does not follow the segments before it');
    this.readStrings(r);
    this.docs.restoreDelta(r);
    if (this.ids.length !== this.orderKeys.length || this.ids.length !== this.docs.idCount) throw new CorruptSegmentError('ids and documents differ in number');
    const alive = this.docs.alive;
    // Documents removed since: their strings are dropped, as kill() does.
    for (let d = 0; d < from; d++) {
      if (alive[d] !== 1) {
        this.ids[d] = '';
        this.orderKeys[d] = '';
      }
    }
    this.byId = undefined;
    this.restoreTail(r, true);
  }

  /** Ids and order keys appended from a segment: packed columns from format 7, JSON lists before. */
  private readStrings(r: SegmentReader): void {
    const ids = r.version >= STRING_COLUMNS_VERSION ? readStringList(r) : (r.scalars() as string[]);
    const orderKeys = r.version >= STRING_COLUMNS_VERSION ? readStringList(r) : (r.scalars() as string[]);
    for (let i = 0; i < ids.length; i++) this.ids.push(ids[i]);
    for (let i = 0; i < orderKeys.length; i++) this.orderKeys.push(orderKeys[i]);
  }

  /** What a full segment and a delta end with alike: the nested parts, the full-text tables (whole or added to) and the order. */
  private restoreTail(r: SegmentReader, delta: boolean): void {
    const parts = r.u32();
    if (parts !== this.nested.size) throw new CorruptSegmentError('nested roots differ from the catalogue');
    for (let i = 0; i < parts; i++) {
      const part = this.nested.get(r.str());
      if (!part) throw new CorruptSegmentError('nested roots differ from the catalogue');
      if (delta) part.restoreDelta(r);
      else part.restore(r);
    }
    if (delta) this.fulltext.restoreDelta(r);
    else this.fulltext.restore(r);
    this.order.restore(r, this.docs);
    this.savedDocs = this.ids.length;
  }

  upsert(id: string, doc: Doc): void {
    // A delta of more documents than the segments hold is no cheaper than a full checkpoint:
    // stop recording (a load without checkpoints would otherwise record everything).
    if (this.tracking && this.ids.length - this.savedDocs > Math.max(DELTA_MAX_DOCS, this.savedDocs)) this.forgetChanges();
    this.changed = true;
    const h = hashOf(id);
    const old = this.docOf(id, h);
    if (old >= 0) this.kill(old);
    // After the kill: a compaction there starts the table over.
    const byId = this.idIndex();
    const d = this.docs.newUnit();
    this.ids[d] = id;
    this.orderKeys[d] = flat(orderKeyFor(this.index, id));
    byId.add(d, h);
    this.order.add(d);

    this.docs.index(d, doc, d, this.roots);

    for (const part of this.nested.values()) {
      const value = doc[part.root];
      // A root that is present but not an array still has values for `services.x` outside
      // `nested` (values-of.ts reads through it), yet no elements for `nested` to iterate: it
      // becomes one pseudo-element that only document-level field matches and sorting see.
      const isArray = Array.isArray(value);
      const elements: unknown[] = isArray ? value : value === undefined || value === null ? [] : [value];
      part.start.ensureLength(d + 1);
      part.count.ensureLength(d + 1);
      part.start.data[d] = part.scope.idCount;
      part.count.data[d] = elements.length;
      for (const el of elements) {
        const e = part.scope.newUnit();
        part.elemDoc.push(d);
        if (!isArray) part.markPseudo(e);
        part.scope.index(e, el, d);
      }
    }
  }

  remove(id: string): void {
    const d = this.docOf(id);
    if (d >= 0) this.kill(d);
  }

  /** Purges tombstones from postings, columns and dictionaries when the policy says so. */
  private maybeCompact(): void {
    const dead = this.docs.deadCount - this.purged;
    if (dead === 0 || dead < this.compaction.minDead || dead < this.docs.liveCount * this.compaction.ratio) return;
    this.purged = this.docs.deadCount;
    // Ordinals are renumbered: the next checkpoint writes the whole index.
    this.forgetChanges();
    const deadDocs = RoaringBitmap32.fromRange(0, this.docs.idCount).andNotInPlace(this.docs.live());
    this.fulltext.dropDead(this.docs.alive, deadDocs);
    this.docs.compact();
    for (const part of this.nested.values()) part.compact();
    this.byId = undefined;
  }

  private kill(d: number): void {
    if (this.docs.alive[d] !== 1) return;
    this.changed = true;
    this.docs.kill(d);
    for (const part of this.nested.values()) {
      if (d >= part.start.length) continue;
      const s = part.start.data[d];
      for (let e = s, end = s + part.count.data[d]; e < end; e++) part.scope.kill(e);
    }
    // The strings are no longer needed: the order index skips dead documents.
    this.ids[d] = '';
    this.orderKeys[d] = '';
    this.order.remove();
    this.maybeCompact();
  }
}
