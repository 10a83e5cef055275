/**
 * The order of live documents by (order key, id), kept as a permutation plus each document's
 * rank, so paging without a sort never compares strings at query time. New and removed
 * documents are merged in lazily on the next query: O(n + m log m) for m new documents.
 */
import { bitmapOfSorted, type Bitmap } from './bitmap.ts';
import type { Scope } from './scope.ts';
import { CorruptSegmentError, type SegmentReader, type SegmentWriter } from './segment-codec.ts';

/** Positions of the order per block of documents a page intersects with its matches at once. */
export const ORDER_SHIFT = 12;
export const ORDER_BLOCK = 1 << ORDER_SHIFT;

export class OrderIndex {
  /** Live document ids in order. */
  ordered = new Uint32Array(0);
  /** document id → position in `ordered`, -1 when not live. */
  rank = new Int32Array(0);
  private added: number[] = [];
  private stale = false;
  /** Documents at each block of ORDER_BLOCK positions, built on first use since the order last changed. */
  private blocks: (Bitmap | undefined)[] = [];

  constructor(private readonly orderKeys: string[], private readonly ids: string[]) {}

  add(doc: number): void {
    this.added.push(doc);
    this.stale = true;
  }

  remove(): void {
    this.stale = true;
  }

  private compare(a: number, b: number): number {
    const ka = this.orderKeys[a];
    const kb = this.orderKeys[b];
    if (ka !== kb) return ka < kb ? -1 : 1;
    const ia = this.ids[a];
    const ib = this.ids[b];
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  }

  ensure(docs: Scope): void {
    if (!this.stale) return;
    const alive = docs.alive;
    const kept = this.ordered.filter((d) => alive[d] === 1);
    const fresh = this.added.filter((d) => alive[d] === 1).sort((a, b) => this.compare(a, b));
    const merged = new Uint32Array(kept.length + fresh.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < kept.length && j < fresh.length) merged[k++] = this.compare(kept[i], fresh[j]) <= 0 ? kept[i++] : fresh[j++];
    while (i < kept.length) merged[k++] = kept[i++];
    while (j < fresh.length) merged[k++] = fresh[j++];
    const rank = new Int32Array(docs.idCount).fill(-1);
    for (let p = 0; p < merged.length; p++) rank[merged[p]] = p;
    this.ordered = merged;
    this.rank = rank;
    this.added = [];
    this.stale = false;
    this.blocks = [];
  }

  /**
   * Documents at positions [k * ORDER_BLOCK, (k + 1) * ORDER_BLOCK) (ensure() first): one
   * native intersection with a match finds its hits there, where testing each position would
   * cost a native call per position. Shared, do not mutate.
   */
  block(k: number): Bitmap {
    let b = this.blocks[k];
    if (!b) {
      const docs = this.ordered.slice(k * ORDER_BLOCK, (k + 1) * ORDER_BLOCK).sort();
      this.blocks[k] = b = bitmapOfSorted(docs);
    }
    return b;
  }

  /** The permutation only (ensure() it first); ranks are derived on restore. */
  write(w: SegmentWriter): void {
    if (this.stale) throw new Error('order index written while stale');
    w.u32s(this.ordered);
  }

  restore(r: SegmentReader, docs: Scope): void {
    const ordered = r.u32s();
    const rank = new Int32Array(docs.idCount).fill(-1);
    for (let p = 0; p < ordered.length; p++) {
      const d = ordered[p];
      if (d >= docs.idCount || docs.alive[d] !== 1) throw new CorruptSegmentError('order index: not a live document');
      rank[d] = p;
    }
    if (ordered.length !== docs.liveCount) throw new CorruptSegmentError('order index: live count differs');
    this.ordered = ordered;
    this.rank = rank;
    this.added = [];
    this.stale = false;
    this.blocks = [];
  }

  /** First position whose order key is > key (strict) or >= key. */
  bound(key: string, strict: boolean): number {
    let lo = 0;
    let hi = this.ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.orderKeys[this.ordered[mid]];
      if (k < key || (strict && k === key)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
