/**
 * Document-level postings of a nested part's slots, derived from the element postings: for a
 * value ordinal, the documents having an element (pseudo-elements included) with that value.
 * `services.x: v` outside `nested` is then a lookup of a few document bitmaps instead of
 * mapping every matching element to its document, which is linear in the elements.
 *
 * The same holds for text slots' token index: a token, or an adjacent pair of tokens (a
 * two-token phrase such as `services.banner: "Server: nginx"`), gets the documents of its
 * postings. Going from the matching values to their documents at every query was linear in the
 * matches (10 ms for 325,000 banners at 1M hosts); the derived postings make it one intersection.
 * Predicates with no single posting (several tokens anywhere in a value, longer phrases) still
 * go from values to documents each time.
 *
 * Nothing here is persisted. An ordinal's documents are derived on its first query and caught
 * up on later ones with the elements appended since (ids only grow). Dead documents stay in
 * (an element is live exactly when its document is), so callers filter by the live documents.
 * Compaction renumbers ordinals: the part drops everything then (clear()).
 */
import type { FieldDef } from '../../model/field-def.ts';
import type { Predicate } from '../../query/resolved.ts';
import { tokenDocs, tokenValues, valueOrds } from './field-match.ts';
import { bitmapOfSorted, RoaringBitmap32, unionMany, type Bitmap } from './bitmap.ts';
import type { GrowableU32 } from './growable.ts';
import type { Slot } from './slot.ts';

interface Entry {
  readonly docs: Bitmap;
  /** Elements below this id are in `docs`. */
  upTo: number;
}

interface TokenEntry {
  readonly docs: Bitmap;
  /** Entries of the slot's forward column below this are in `docs`. */
  upTo: number;
  /** That column (a compacted slot has a new one). */
  readonly column: GrowableU32;
}

/** Token entries kept per slot, the least recently used dropped first: a bound on what ad-hoc phrases can hold. */
const TOKEN_ENTRIES = 256;

type TokensPredicate = Extract<Predicate, { op: 'tokens' }>;

export class NestedDocPostings {
  private bySlot = new Map<Slot, (Entry | undefined)[]>();
  private byTokens = new WeakMap<Slot, Map<string, TokenEntry>>();

  clear(): void {
    this.bySlot = new Map();
    this.byTokens = new WeakMap();
  }

  /**
   * Live documents (`live`) with an element whose value in `slot` matches a `tokens` predicate.
   * `elemDoc` maps the slot's units to documents, `unitDocs` a bitmap of them.
   */
  matchTokens(slot: Slot, field: FieldDef, predicate: TokensPredicate, elemDoc: GrowableU32, unitDocs: (units: Bitmap) => Bitmap, live: Bitmap): Bitmap {
    const { tokens, phrase } = predicate;
    if (field.type !== 'text' || tokens.length === 0) return new RoaringBitmap32();
    if (tokens.length > (phrase ? 2 : 1)) return tokenDocs(slot, tokens, phrase, elemDoc, unitDocs).andInPlace(live);
    let entries = this.byTokens.get(slot);
    if (!entries) this.byTokens.set(slot, (entries = new Map()));
    const key = tokens.join('\u0000');
    const column = slot.fwdUnit;
    let entry = entries.get(key);
    // Catching up tests each new element (a native call apiece); past a quarter of what was
    // derived, deriving again from the token index is cheaper.
    if (entry && (entry.column !== column || column.length - entry.upTo > entry.upTo / 4)) entry = undefined;
    if (!entry) {
      entry = { docs: tokenDocs(slot, tokens, phrase, elemDoc, unitDocs), upTo: column.length, column };
    } else if (entry.upTo < column.length) {
      // Elements appended since: those whose value holds the token or pair (new values included).
      const values = tokenValues(slot, tokens, phrase);
      const ords = slot.fwdOrd.data;
      const units = column.data;
      const map = elemDoc.data;
      const fresh: number[] = [];
      for (let i = entry.upTo, end = column.length; i < end; i++) if (values.has(ords[i])) fresh.push(map[units[i]]);
      if (fresh.length > 0) entry.docs.addMany(fresh);
      entry.upTo = column.length;
    }
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > TOKEN_ENTRIES) entries.delete(entries.keys().next().value!);
    return RoaringBitmap32.and(entry.docs, live);
  }

  /**
   * Live documents (`live`) with an element whose value in `slot` matches `predicate`, or
   * undefined when the predicate is not answered by value ordinals. `elemDoc` maps the
   * `elements` element ids handed out so far to their documents.
   */
  match(slot: Slot, field: FieldDef, predicate: Predicate, elemDoc: GrowableU32, live: Bitmap): Bitmap | undefined {
    const ords = valueOrds(slot, field, predicate);
    if (ords === undefined) return undefined;
    if (ords.length === 0) return new RoaringBitmap32();
    if (ords.length === 1) return RoaringBitmap32.and(this.docsOf(slot, ords[0], elemDoc), live);
    const all = ords.map((ord) => this.docsOf(slot, ord, elemDoc));
    return unionMany(all).andInPlace(live);
  }

  /** Documents (live or not) of one ordinal, caught up: shared, do not mutate. */
  private docsOf(slot: Slot, ord: number, elemDoc: GrowableU32): Bitmap {
    let entries = this.bySlot.get(slot);
    if (!entries) this.bySlot.set(slot, (entries = []));
    const elements = elemDoc.length;
    let entry = entries[ord];
    if (entry?.upTo === elements) return entry.docs;
    const from = entry?.upTo ?? 0;
    const ids: number[] = [];
    const bitmaps: Bitmap[] = [];
    slot.postings.collect(ord, ids, bitmaps);
    let fresh: ArrayLike<number> = ids;
    if (bitmaps.length > 0) {
      const b = bitmaps[0];
      const skip = from === 0 ? 0 : b.rank(from - 1);
      fresh = b.rangeUint32Array(new Uint32Array(b.size - skip), skip);
    }
    const docs = new Uint32Array(fresh.length);
    const map = elemDoc.data;
    let n = 0;
    let last = -1;
    for (let i = 0; i < fresh.length; i++) {
      const e = fresh[i];
      if (e < from) continue;
      const d = map[e];
      // Elements of one document are consecutive, so duplicates are adjacent.
      if (d !== last) docs[n++] = last = d;
    }
    if (!entry) entries[ord] = entry = { docs: bitmapOfSorted(docs.subarray(0, n)), upTo: elements };
    else {
      if (n > 0) entry.docs.addMany(docs.subarray(0, n));
      entry.upTo = elements;
    }
    return entry.docs;
  }
}
