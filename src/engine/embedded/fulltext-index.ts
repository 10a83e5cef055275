/**
 * The combined full-text postings of an index: every token of every fullText text field, and
 * every lower-cased value of every fullText keyword field, each mapped to documents. A bare
 * one-token term is then one lookup in each map instead of one per field. Each distinct value
 * is tokenised once (its token ids are cached on its slot), however many documents repeat it.
 */
import type { FieldCatalogue } from '../../model/field-def.ts';
import { tokenize } from '../../model/tokenize.ts';
import { RoaringBitmap32, type Bitmap } from './bitmap.ts';
import { PostingTable } from './posting-table.ts';
import type { FulltextSink } from './scope.ts';
import type { Slot } from './slot.ts';

class Terms {
  readonly ids = new Map<string, number>();
  readonly postings = new PostingTable();

  idOf(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) this.ids.set(term, (id = this.ids.size));
    return id;
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

  flagsFor(fullPath: string): { text: boolean; keyword: boolean } {
    return { text: this.textPaths.has(fullPath), keyword: this.keywordPaths.has(fullPath) };
  }

  private catchUp(slot: Slot): void {
    const values = slot.values;
    for (let v = slot.ftKw.length; v < values.length; v++) {
      const value = values[v];
      const isString = typeof value === 'string';
      if (slot.ftSeqStart.length === 0) slot.ftSeqStart.push(0);
      if (slot.ftText && isString) for (const t of tokenize(value)) slot.ftSeq.push(this.tokens.idOf(t));
      slot.ftSeqStart.push(slot.ftSeq.length);
      slot.ftKw.push(slot.ftKeyword && isString ? this.keywords.idOf(value.toLowerCase()) + 1 : 0);
    }
  }

  addValue(slot: Slot, ord: number, doc: number): void {
    if (ord >= slot.ftKw.length) this.catchUp(slot);
    if (slot.ftText) {
      const seq = slot.ftSeq.data;
      const start = slot.ftSeqStart.data;
      // Repeated tokens of one document are skipped by the posting table itself.
      for (let i = start[ord], end = start[ord + 1]; i < end; i++) this.tokens.postings.add(seq[i], doc);
    }
    const kw = slot.ftKw.data[ord];
    if (kw > 0) this.keywords.postings.add(kw - 1, doc);
  }
}
