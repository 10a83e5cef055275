/**
 * The combined full-text postings of an index: every token of every fullText text field, and
 * every lower-cased value of every fullText keyword field, each mapped to documents. A bare
 * one-token term is then one lookup in each map instead of one per field.
 */
import type { FieldCatalogue } from '../../model/field-def.ts';
import type { Leaf } from '../../model/values-of.ts';
import { tokenize } from '../../model/tokenize.ts';
import { RoaringBitmap32, type Bitmap } from './bitmap.ts';
import { PostingTable } from './posting-table.ts';

class TermPostings {
  private readonly ordOf = new Map<string, number>();
  private readonly postings = new PostingTable();

  add(term: string, doc: number): void {
    let ord = this.ordOf.get(term);
    if (ord === undefined) this.ordOf.set(term, (ord = this.ordOf.size));
    this.postings.add(ord, doc);
  }

  docs(term: string): Bitmap {
    const ord = this.ordOf.get(term);
    return ord === undefined ? new RoaringBitmap32() : this.postings.bitmap(ord);
  }
}

export class FulltextIndex {
  /** token → documents */
  readonly tokens = new TermPostings();
  /** lower-cased keyword value → documents */
  readonly keywords = new TermPostings();
  private readonly textPaths = new Set<string>();
  private readonly keywordPaths = new Set<string>();

  constructor(catalogue: FieldCatalogue) {
    for (const f of catalogue.all()) {
      if (!f.fullText) continue;
      if (f.type === 'text') this.textPaths.add(f.docPath);
      else if (f.type === 'keyword') this.keywordPaths.add(f.docPath);
    }
  }

  /** Collects the terms of one document's leaves at `docPath`; call `commit` once per document. */
  gather(docPath: string, leaves: readonly Leaf[], toks: Set<string>, kws: Set<string>): void {
    const text = this.textPaths.has(docPath);
    const keyword = this.keywordPaths.has(docPath);
    if (!text && !keyword) return;
    for (const leaf of leaves) {
      if (typeof leaf !== 'string') continue;
      if (text) for (const t of tokenize(leaf)) toks.add(t);
      if (keyword) kws.add(leaf.toLowerCase());
    }
  }

  commit(doc: number, toks: Set<string>, kws: Set<string>): void {
    for (const t of toks) this.tokens.add(t, doc);
    for (const k of kws) this.keywords.add(k, doc);
  }
}
