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
import { readBlock, SEGMENT_FORMAT_VERSION, SegmentReader, type BlockRef, type SegmentWriter } from './segment-codec.ts';

class Terms {
  private _ids = new Map<string, number>();
  private _postings = new PostingTable();
  private pending: BlockRef | undefined;
  /**
   * Decoded terms from `mapped` on are not in `_ids` yet: hashing them is most of decoding a large
   * table (172 ms of 268 for 189k keywords), which the warm-up spreads over slices.
   */
  private unmapped: string[] | undefined;
  private mapped = 0;

  get ids(): Map<string, number> {
    if (this.pending) this.decode();
    if (this.unmapped) this.mapTerms(Infinity);
    return this._ids;
  }

  get postings(): PostingTable {
    if (this.pending) this.decode();
    return this._postings;
  }

  /**
   * Decodes the block left on disk at restore, if not done yet, and maps at most `budget` more
   * terms (the background warm-up); true when the table is complete.
   */
  load(budget = Infinity): boolean {
    if (this.pending) this.decode();
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
    const ids = this.ids;
    let id = ids.get(term);
    if (id === undefined) ids.set(term, (id = ids.size));
    return id;
  }

  write(w: SegmentWriter): void {
    if (this.pending && this.pending.version === SEGMENT_FORMAT_VERSION) {
      w.copyBlock(this.pending);
      return;
    }
    w.block((inner) => {
      // Map order is insertion order, which is id order.
      inner.scalars([...this.ids.keys()]);
      this.postings.write(inner);
    });
  }

  restore(r: SegmentReader): void {
    if (r.version >= 2) this.pending = r.blockRef();
    else this.decodeFrom(r);
  }

  private decode(): void {
    const ref = this.pending!;
    this.pending = undefined;
    this.decodeFrom(SegmentReader.ofBlock(readBlock(ref), ref.version));
  }

  private decodeFrom(r: SegmentReader): void {
    this._ids = new Map();
    this.unmapped = r.scalars() as string[];
    this.mapped = 0;
    this._postings = new PostingTable();
    this._postings.restore(r);
  }

  docs(term: string): Bitmap {
    const id = this.ids.get(term);
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
    const value = slot.values[ord];
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
