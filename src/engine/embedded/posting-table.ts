/**
 * Posting lists indexed by a dense ordinal (a dictionary term, a path, a token). Most terms of a
 * real corpus occur in one or a few documents, so lists start as a plain number or a small
 * array and become roaring bitmaps only when they grow; adds to a bitmap are buffered and
 * applied in batches, because each native call costs far more than a JS array push.
 *
 * Ids must be added in ascending order per ordinal (the engines never reuse ids), which keeps
 * the small arrays sorted and makes a repeated add of the same id a cheap check.
 */
import { RoaringBitmap32, type Bitmap } from './bitmap.ts';
import { CorruptSegmentError, type SegmentReader, type SegmentWriter } from './segment-codec.ts';

/** A list grown past PROMOTE_AT: a bitmap plus a buffer of ids not yet added to it. */
class BigPosting {
  buf: number[] = [];
  constructor(readonly bitmap: Bitmap) {}

  settle(): Bitmap {
    if (this.buf.length > 0) {
      this.bitmap.addMany(this.buf);
      this.buf = [];
    }
    return this.bitmap;
  }
}

type Posting = number | number[] | BigPosting;

const PROMOTE_AT = 48;
const FLUSH_AT = 4096;
/** Count written for a list stored as a bitmap. */
const BIG = 0xffffffff;

export class PostingTable {
  private readonly lists: (Posting | undefined)[] = [];

  add(ord: number, id: number): void {
    const cur = this.lists[ord];
    if (cur === undefined) {
      this.lists[ord] = id;
    } else if (typeof cur === 'number') {
      if (cur !== id) this.lists[ord] = [cur, id];
    } else if (Array.isArray(cur)) {
      if (cur[cur.length - 1] === id) return;
      cur.push(id);
      if (cur.length > PROMOTE_AT) this.lists[ord] = new BigPosting(RoaringBitmap32.from(cur));
    } else {
      const buf = cur.buf;
      if (buf[buf.length - 1] === id) return;
      buf.push(id);
      if (buf.length >= FLUSH_AT) cur.settle();
    }
  }

  /** Removes dead ids (alive[id] !== 1, also given as a bitmap) from every list. */
  dropDead(alive: Uint8Array, dead: Bitmap): void {
    const lists = this.lists;
    for (let ord = 0; ord < lists.length; ord++) {
      const p = lists[ord];
      if (p === undefined) continue;
      if (typeof p === 'number') {
        if (alive[p] !== 1) lists[ord] = undefined;
      } else if (Array.isArray(p)) {
        const kept = p.filter((id) => alive[id] === 1);
        lists[ord] = kept.length === 0 ? undefined : kept.length === 1 ? kept[0] : kept;
      } else {
        const b = p.settle().andNotInPlace(dead);
        if (b.size <= PROMOTE_AT) {
          const ids = Array.from(b.toUint32Array());
          lists[ord] = ids.length === 0 ? undefined : ids.length === 1 ? ids[0] : ids;
        }
      }
    }
  }

  /** Counts per ordinal (BIG for bitmaps), the small lists' ids concatenated, then the bitmaps. */
  write(w: SegmentWriter): void {
    const lists = this.lists;
    const counts = new Uint32Array(lists.length);
    let small = 0;
    const bigs: Bitmap[] = [];
    for (let ord = 0; ord < lists.length; ord++) {
      const p = lists[ord];
      if (p === undefined) continue;
      if (typeof p === 'number') {
        counts[ord] = 1;
        small++;
      } else if (Array.isArray(p)) {
        counts[ord] = p.length;
        small += p.length;
      } else {
        counts[ord] = BIG;
        bigs.push(p.settle());
      }
    }
    const ids = new Uint32Array(small);
    let k = 0;
    for (const p of lists) {
      if (typeof p === 'number') ids[k++] = p;
      else if (Array.isArray(p)) for (const id of p) ids[k++] = id;
    }
    w.u32s(counts);
    w.u32s(ids);
    w.u32(bigs.length);
    for (const b of bigs) w.bitmap(b);
  }

  /** Fills an empty table from write()'s output. */
  restore(r: SegmentReader): void {
    const counts = r.u32s();
    const ids = r.u32s();
    const bigs = r.u32();
    const lists = this.lists;
    lists.length = counts.length;
    let k = 0;
    let b = 0;
    for (let ord = 0; ord < counts.length; ord++) {
      const c = counts[ord];
      if (c === 0) continue;
      if (c === BIG) {
        if (b++ >= bigs) throw new CorruptSegmentError('posting table: too few bitmaps');
        lists[ord] = new BigPosting(r.bitmap());
      } else if (c === 1) {
        lists[ord] = ids[k++];
      } else {
        const a = new Array<number>(c);
        for (let i = 0; i < c; i++) a[i] = ids[k + i];
        k += c;
        lists[ord] = a;
      }
    }
    if (k !== ids.length || b !== bigs) throw new CorruptSegmentError('posting table: counts and ids disagree');
  }

  has(ord: number): boolean {
    return this.lists[ord] !== undefined;
  }

  /** Appends the ids of `ord` to `ids`, or its bitmap to `bitmaps` (never to be mutated). */
  collect(ord: number, ids: number[], bitmaps: Bitmap[]): void {
    const p = this.lists[ord];
    if (p === undefined) return;
    if (typeof p === 'number') ids.push(p);
    else if (Array.isArray(p)) for (const id of p) ids.push(id);
    else bitmaps.push(p.settle());
  }

  /** A new bitmap holding the ids of every given ordinal. */
  union(ords: Iterable<number>): Bitmap {
    const ids: number[] = [];
    const bitmaps: Bitmap[] = [];
    for (const ord of ords) this.collect(ord, ids, bitmaps);
    return unionOf(ids, bitmaps);
  }

  /** A new bitmap of one ordinal's ids. */
  bitmap(ord: number): Bitmap {
    return this.union([ord]);
  }

  /** Number of ids of `ord` that are in `within` (given both as a bitmap and as a byte mask, for speed). */
  countIn(ord: number, within: Bitmap, mask: Uint8Array): number {
    const p = this.lists[ord];
    if (p === undefined) return 0;
    if (typeof p === 'number') return mask[p] ?? 0;
    if (Array.isArray(p)) {
      let n = 0;
      for (const id of p) n += mask[id] ?? 0;
      return n;
    }
    return p.settle().andCardinality(within);
  }
}

export function unionOf(ids: number[], bitmaps: Bitmap[]): Bitmap {
  const out = RoaringBitmap32.from(ids);
  if (bitmaps.length === 1) out.orInPlace(bitmaps[0]);
  else if (bitmaps.length > 1) out.orInPlace(RoaringBitmap32.orMany(bitmaps));
  return out;
}

/** A byte per id, 1 when the id is in `b`: membership tests without native calls. */
export function maskOf(b: Bitmap, size: number): Uint8Array {
  const mask = new Uint8Array(size);
  for (const id of b.toUint32Array()) mask[id] = 1;
  return mask;
}
