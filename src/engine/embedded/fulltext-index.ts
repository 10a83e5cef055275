/**
 * The combined full-text postings of an index: every token of every fullText text field, and
 * every lower-cased value of every fullText keyword field, each mapped to documents. A bare
 * one-token term is then one lookup in each map instead of one per field.
 */
import type { FieldCatalogue } from '../../model/field-def.ts';
import { tokenize } from '../../model/tokenize.ts';
import { RoaringBitmap32, type Bitmap } from './bitmap.ts';
import { PostingTable } from './posting-table.ts';
import type { FulltextSink } from './scope.ts';
import type { Slot } from './slot.ts';
import { PackedLeaves } from './packed-leaves.ts';
import { BLOCK_LAYOUT_VERSION, CorruptSegmentError, PACKED_LEAVES_VERSION, readBlock, SegmentReader, type BlockRef, type SegmentWriter } from './segment-codec.ts';

class Terms {
  /**
   * The terms the segments held when the table was decoded (format 5+), packed outside the heap,
   * sorted (see PackedLeaves); ids 0 .. base.length - 1.
   */
  private base: PackedLeaves | undefined;
  /** The other terms → id: all of them without a base, else those added since (writes, deltas). */
  private _ids = new Map<string, number>();
  private _postings = new PostingTable();
  private pending: BlockRef | undefined;
  /** Blocks of delta segments appending terms and postings, applied in order after `pending`. */
  private deltas: BlockRef[] | undefined;
  /**
   * Terms added since the last checkpoint (their ids follow the persisted ones), while deltas are
   * tracked (see track()); the postings table records its adds.
   */
  private added: string[] | undefined;
  /** Terms the persisted segments hold. */
  private saved = 0;
  /**
   * Terms decoded from an older format (JSON lists), from `mapped` on not in `_ids` yet: hashing
   * them is most of decoding a large table (172 ms of 268 for 189k keywords), which the warm-up
   * spreads over slices.
   */
  private unmapped: string[] | undefined;
  private mapped = 0;

  /** The id of `term`, or undefined. */
  find(term: string): number | undefined {
    if (this.pending || this.deltas) this.decode();
    if (this.unmapped) this.mapTerms(Infinity);
    const base = this.base;
    if (base !== undefined) {
      const id = base.indexOf(term);
      if (id >= 0) return id;
    }
    return this._ids.get(term);
  }

  get postings(): PostingTable {
    if (this.pending || this.deltas) this.decode();
    return this._postings;
  }

  /**
   * Decodes the block left on disk at restore, if not done yet, and maps at most `budget` more
   * terms (the background warm-up); true when the table is complete.
   */
  load(budget = Infinity): boolean {
    if (this.pending || this.deltas) this.decode();
    return this.mapTerms(budget);
  }

  private mapTerms(budget: number): boolean {
    const terms = this.unmapped;
    if (!terms) return true;
    const end = Math.min(terms.length, this.mapped + budget);
    for (let i = this.mapped; i < end; i++) this._ids.set(terms[i], i);
    this.mapped = end;
    if (end < terms.length) return false;
    this.unmapped = undefined;
    return true;
  }

  idOf(term: string): number {
    let id = this.find(term);
    if (id === undefined) {
      this._ids.set(term, (id = this.count));
      this.added?.push(term);
    }
    return id;
  }

  /** The term count: decoded or not, mapped or not. */
  private get count(): number {
    return (this.base === undefined ? 0 : this.base.length) + (this.unmapped ? this.unmapped.length : this._ids.size);
  }

  /**
   * Starts recording what a delta segment must append (new terms, posting adds), as of a
   * checkpoint that persisted the whole table; stops (and forgets) with `on` false.
   */
  track(on: boolean): void {
    if (on && !this.pending && !this.deltas) this.saved = this.count;
    this.added = on ? [] : undefined;
    this._postings.track(on);
  }

  get tracking(): boolean {
    return this.added !== undefined;
  }

  get trackedAdds(): number {
    return this._postings.trackedAdds?.ord.length ?? 0;
  }

  /** The terms and posting adds since track(true), as a delta block: a flag, then the block when anything changed. */
  writeDelta(w: SegmentWriter): void {
    const added = this.added;
    const adds = this._postings.trackedAdds;
    if (!added) throw new Error('full-text delta without tracking');
    if (this.pending || this.deltas || !adds || (added.length === 0 && adds.ord.length === 0)) {
      w.u8(0);
      return;
    }
    w.u8(1);
    w.block((inner) => {
      inner.u32(this.saved);
      inner.scalars(added);
      inner.u32s(adds.ord.data, adds.ord.length);
      inner.u32s(adds.id.data, adds.id.length);
    });
  }

  write(w: SegmentWriter): void {
    if (this.pending && !this.deltas && this.pending.version >= BLOCK_LAYOUT_VERSION) {
      w.copyBlock(this.pending);
      return;
    }
    if (this.pending || this.deltas) this.decode();
    // An older format's terms are written from their list, without hashing the unmapped ones
    // (nothing can be added before they are all mapped); otherwise Map order is insertion order,
    // which is id order. A base is copied as it is.
    const rest = this.unmapped ?? [...this._ids.keys()];
    const terms = this.base === undefined ? PackedLeaves.of(rest) : this.base.concat(rest);
    w.block((inner) => {
      terms.write(inner);
      this.postings.write(inner);
    });
  }

  restore(r: SegmentReader): void {
    if (r.version >= 2) this.pending = r.blockRef();
    else this.decodeFrom(r);
  }

  /** A delta segment's block (writeDelta), applied after the base when the table is decoded. */
  restoreDelta(r: SegmentReader): void {
    if (r.u8() === 1) (this.deltas ??= []).push(r.blockRef());
  }

  private decode(): void {
    const ref = this.pending;
    const deltas = this.deltas;
    this.pending = undefined;
    this.deltas = undefined;
    if (ref) this.decodeFrom(SegmentReader.ofBlock(readBlock(ref), ref.version));
    if (deltas) for (const d of deltas) this.applyDelta(SegmentReader.ofBlock(readBlock(d), d.version));
    this.saved = this.count;
    // The decoded table replaced the placeholder: adds from now on are what the next delta appends.
    if (this.added) this._postings.track(true);
  }

  private applyDelta(r: SegmentReader): void {
    const from = r.u32();
    if (from !== this.count) throw new CorruptSegmentError('full-text delta does not follow the segments before it');
    const terms = r.scalars() as string[];
    const ords = r.u32s();
    const ids = r.u32s();
    if (ords.length !== ids.length) throw new CorruptSegmentError('full-text delta: columns differ in length');
    if (terms.length > 0 && this.base !== undefined) {
      let id = this.count;
      for (const t of terms) this._ids.set(t, id++);
    } else if (terms.length > 0) {
      if (!this.unmapped) {
        this.unmapped = [...this._ids.keys()];
        this.mapped = this.unmapped.length;
      }
      for (const t of terms) this.unmapped.push(t);
    }
    const count = this.count;
    for (let i = 0; i < ords.length; i++) {
      if (ords[i] >= count) throw new CorruptSegmentError('full-text delta: bad term id');
      this._postings.add(ords[i], ids[i]);
    }
  }

  private decodeFrom(r: SegmentReader): void {
    this._ids = new Map();
    this.mapped = 0;
    if (r.version >= PACKED_LEAVES_VERSION) {
      this.base = r.version >= BLOCK_LAYOUT_VERSION ? PackedLeaves.read(r) : PackedLeaves.readV5(r);
      if (!this.base.allStrings()) throw new CorruptSegmentError('full-text terms: a term that is not text');
      this.unmapped = undefined;
    } else {
      this.base = undefined;
      this.unmapped = r.scalars() as string[];
    }
    this._postings = new PostingTable();
    this._postings.restore(r);
  }

  docs(term: string): Bitmap {
    const id = this.find(term);
    return id === undefined ? new RoaringBitmap32() : this.postings.bitmap(id);
  }
}

export class FulltextIndex implements FulltextSink {
  /** token → documents */
  readonly tokens = new Terms();
  /** lower-cased keyword value → documents */
  readonly keywords = new Terms();
  private readonly textPaths = new Set<string>();
  private readonly keywordPaths = new Set<string>();

  constructor(catalogue: FieldCatalogue) {
    for (const f of catalogue.all()) {
      if (!f.fullText) continue;
      if (f.type === 'text') this.textPaths.add(f.docPath);
      else if (f.type === 'keyword') this.keywordPaths.add(f.docPath);
    }
  }

  /** Removes dead documents from the combined postings. */
  dropDead(alive: Uint8Array, dead: Bitmap): void {
    this.tokens.postings.dropDead(alive, dead);
    this.keywords.postings.dropDead(alive, dead);
  }

  write(w: SegmentWriter): void {
    this.tokens.write(w);
    this.keywords.write(w);
  }

  restore(r: SegmentReader): void {
    this.tokens.restore(r);
    this.keywords.restore(r);
  }

  writeDelta(w: SegmentWriter): void {
    this.tokens.writeDelta(w);
    this.keywords.writeDelta(w);
  }

  restoreDelta(r: SegmentReader): void {
    this.tokens.restoreDelta(r);
    this.keywords.restoreDelta(r);
  }

  /** See Terms.track. */
  track(on: boolean): void {
    this.tokens.track(on);
    this.keywords.track(on);
  }

  /** Posting adds recorded for the next delta. */
  get trackedAdds(): number {
    return this.tokens.trackedAdds + this.keywords.trackedAdds;
  }

  flagsFor(fullPath: string): { text: boolean; keyword: boolean } {
    return { text: this.textPaths.has(fullPath), keyword: this.keywordPaths.has(fullPath) };
  }

  /** Records the token ids of value `ord` of `slot`; returns where they start in slot.ftTokens. */
  private cacheTokenIds(slot: Slot, ord: number, value: string): number {
    const toks = tokenize(value);
    const cache = slot.ftTokens;
    cache.push(toks.length);
    const at = cache.length;
    for (let i = 0; i < toks.length; i++) cache.push(this.tokens.idOf(toks[i]));
    slot.ftTokenAt.ensureLength(ord + 1);
    slot.ftTokenAt.data[ord] = at;
    return at;
  }

  addValue(slot: Slot, ord: number, doc: number): void {
    const value = slot.values.at(ord);
    if (typeof value !== 'string') return;
    if (slot.ftText) {
      // Values seen once (most bodies, banners) are tokenised and dropped; a value seen again
      // keeps its token ids, so templated pages repeated across hosts are tokenised once.
      // Repeated tokens of one document are skipped by the posting table itself.
      const postings = this.tokens.postings;
      if (ord >= slot.ftSeen) {
        slot.ftSeen = ord + 1;
        const toks = tokenize(value);
        for (let i = 0; i < toks.length; i++) postings.add(this.tokens.idOf(toks[i]), doc);
      } else {
        let at = ord < slot.ftTokenAt.length ? slot.ftTokenAt.data[ord] : 0;
        if (at === 0) at = this.cacheTokenIds(slot, ord, value);
        const ids = slot.ftTokens.data;
        for (let i = at, end = at + ids[at - 1]; i < end; i++) postings.add(ids[i], doc);
      }
    }
    if (slot.ftKeyword) {
      // Most keyword values repeat (countries, vendors, products): their id is looked up once
      // per distinct value, not lower-cased and hashed again for every document.
      const known = slot.ftKeywordIds;
      let id = ord < known.length ? known.data[ord] - 1 : -1;
      if (id < 0) {
        id = this.keywords.idOf(value.toLowerCase());
        known.ensureLength(ord + 1);
        known.data[ord] = id + 1;
      }
      this.keywords.postings.add(id, doc);
    }
  }
}
