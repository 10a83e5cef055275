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
import type { SegmentReader, SegmentWriter } from './segment-codec.ts';

class Terms {
  readonly ids = new Map<string, number>();
  readonly postings = new PostingTable();

  idOf(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) this.ids.set(term, (id = this.ids.size));
    return id;
  }

  write(w: SegmentWriter): void {
    // Map order is insertion order, which is id order.
    w.scalars([...this.ids.keys()]);
    this.postings.write(w);
  }

  restore(r: SegmentReader): void {
    const terms = r.scalars() as string[];
    for (let i = 0; i < terms.length; i++) this.ids.set(terms[i], i);
    this.postings.restore(r);
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

  private tokenIds(value: string): Uint32Array {
    const toks = tokenize(value);
    const ids = new Uint32Array(toks.length);
    for (let i = 0; i < toks.length; i++) ids[i] = this.tokens.idOf(toks[i]);
    return ids;
  }

  addValue(slot: Slot, ord: number, doc: number): void {
    const value = slot.values[ord];
    if (typeof value !== 'string') return;
    if (slot.ftText) {
      // Values seen once (most bodies, banners) are tokenised and dropped; a value seen again
      // keeps its token ids, so templated pages repeated across hosts are tokenised once.
      let ids: Uint32Array | undefined;
      if (ord >= slot.ftSeen) {
        slot.ftSeen = ord + 1;
        ids = this.tokenIds(value);
      } else {
        ids = slot.ftCache.get(ord);
        if (!ids) slot.ftCache.set(ord, (ids = this.tokenIds(value)));
      }
      // Repeated tokens of one document are skipped by the posting table itself.
      for (let i = 0; i < ids.length; i++) this.tokens.postings.add(ids[i], doc);
    }
    if (slot.ftKeyword) this.keywords.postings.add(this.keywords.idOf(value.toLowerCase()), doc);
  }
}
