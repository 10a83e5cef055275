/**
 * Posting lists indexed by a dense ordinal (a dictionary term, a path, a token). Most terms of a
 * real corpus occur in one or a few documents, so a list starts as one id held in the ordinal's
 * own head cell, moves to a block of a shared typed pool when it grows, and becomes a roaring
 * bitmap only past PROMOTE_AT; adds to a bitmap are buffered and applied in batches, because
 * each native call costs far more than a JS array push.
 *
 * Small lists live in typed arrays rather than JS arrays: a JS array of a few ids costs 50-200
 * bytes of headers and growth slack and is one more object for the garbage collector to trace,
 * while a pool block costs 4 bytes per id (at most twice the ids: blocks are powers of two,
 * and a block left behind by a growing list is reused by the next list of its size).
 *
 * Ids must be added in ascending order per ordinal (the engines never reuse ids), which keeps
 * the small lists sorted and makes a repeated add of the same id a cheap check.
 *
 * Adds are logged first and applied in batches grouped by ordinal (see flush()): consecutive
 * adds of a document go to unrelated lists, each a cache miss into a large table, while a batch
 * reaches each list once for all of its new ids.
 */
import { orConsuming, RoaringBitmap32, unionMany, type Bitmap } from './bitmap.ts';
import { GrowableU32 } from './growable.ts';
import { CorruptSegmentError, type SegmentReader, type SegmentWriter } from './segment-codec.ts';
import { sortByKey } from './sort-by-key.ts';

/**
 * A list grown past PROMOTE_AT: a bitmap plus a buffer of ids not yet added to it. The buffer is
 * a typed array kept across flushes (it grows only while a list keeps filling it), so a busy
 * list, such as a common token or a path every document has, creates no garbage per id.
 */
class BigPosting {
  private buf = new Uint32Array(16);
  private n = 0;
  constructor(readonly bitmap: Bitmap) {}

  add(id: number): void {
    const n = this.n;
    if (n > 0 && this.buf[n - 1] === id) return;
    if (n === this.buf.length) {
      if (n >= FLUSH_AT) {
        this.settle();
        this.buf[0] = id;
        this.n = 1;
        return;
      }
      const next = new Uint32Array(n * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[n] = id;
    this.n = n + 1;
  }

  /** Adds ids[from..to) (ascending): a long run goes to the bitmap directly, past the buffer. */
  addRun(ids: Uint32Array, from: number, to: number): void {
    if (to - from < FLUSH_AT) {
      for (let i = from; i < to; i++) this.add(ids[i]);
      return;
    }
    this.settle();
    this.bitmap.addMany(ids.subarray(from, to));
  }

  settle(): Bitmap {
    if (this.n > 0) {
      this.bitmap.addMany(this.buf.subarray(0, this.n));
      this.n = 0;
    }
    return this.bitmap;
  }
}

const PROMOTE_AT = 48;
const FLUSH_AT = 256;
/** Logged adds applied at once (8 bytes each): a few hundred documents' worth of paths or tokens. */
const LOG_AT = 1 << 17;
/** A log above this capacity is released after a flush made for a read (writes have paused). */
const LOG_KEEP = 4096;
/** Count written for a list stored as a bitmap. */
const BIG = 0xffffffff;
/** Block sizes are 2 << cls for cls 0..MAX_CLASS; the largest holds PROMOTE_AT ids. */
const MAX_CLASS = 5;

function classOf(n: number): number {
  let cls = 0;
  while (2 << cls < n) cls++;
  return cls;
}

export class PostingTable {
  /**
   * Per ordinal: 0 when empty, id + 1 for a list of one id, or -(r + 1) for record r (a pool
   * block, or a bitmap when its length is BIG).
   */
  private readonly head = new GrowableU32();
  /** Per record: block offset in the pool (or index in `bigs`) and list length (or BIG). */
  private readonly recOff = new GrowableU32();
  private readonly recLen = new GrowableU32();
  private readonly pool = new GrowableU32();
  /** Offsets of released blocks, per size class. */
  private readonly free: number[][] = [[], [], [], [], [], []];
  private readonly bigs: BigPosting[] = [];
  /** Adds not applied yet, in the order made (see flush()). */
  private logOrd = new GrowableU32(0);
  private logId = new GrowableU32(0);

  private alloc(cls: number): number {
    const off = this.free[cls].pop();
    if (off !== undefined) return off;
    const at = this.pool.length;
    this.pool.ensureLength(at + (2 << cls));
    return at;
  }

  /** A new record holding `ids` (sorted, 2..PROMOTE_AT of them) or a bitmap of them. */
  private record(ids: readonly number[] | Uint32Array): number {
    const r = this.recOff.length;
    if (ids.length > PROMOTE_AT) {
      this.recOff.push(this.bigs.length);
      this.recLen.push(BIG);
      this.bigs.push(new BigPosting(RoaringBitmap32.from(ids)));
      return r;
    }
    const off = this.alloc(classOf(ids.length));
    const pool = this.pool.data;
    for (let i = 0; i < ids.length; i++) pool[off + i] = ids[i];
    this.recOff.push(off);
    this.recLen.push(ids.length);
    return r;
  }

  private setHead(ord: number, v: number): void {
    if (ord >= this.head.length) this.head.ensureLength(ord + 1);
    this.head.data[ord] = v;
  }

  /**
   * Adds made since track() (ordinal, id pairs in the order made), for a delta segment: tables
   * that are not derived from a forward column (existence, full-text terms) record what a
   * checkpoint must append to the persisted table.
   */
  private tracked: { ord: GrowableU32; id: GrowableU32 } | undefined;

  /** Starts recording adds (forgetting those recorded so far); stops with `on` false. */
  track(on: boolean): void {
    this.tracked = on ? { ord: new GrowableU32(0), id: new GrowableU32(0) } : undefined;
  }

  /** The adds recorded since track(true), undefined when not tracking. */
  get trackedAdds(): { readonly ord: GrowableU32; readonly id: GrowableU32 } | undefined {
    return this.tracked;
  }

  add(ord: number, id: number): void {
    const t = this.tracked;
    if (t) {
      t.ord.push(ord);
      t.id.push(id);
    }
    if (this.logOrd.length === LOG_AT) this.flush();
    this.logOrd.push(ord);
    this.logId.push(id);
  }

  /** Applies the logged adds before a read. */
  private settled(): void {
    if (this.logOrd.length === 0) return;
    this.flush();
    if (this.logOrd.data.length > LOG_KEEP) {
      this.logOrd = new GrowableU32(0);
      this.logId = new GrowableU32(0);
    }
  }

  /**
   * Applies the logged adds list by list: a stable sort by ordinal keeps each list's ids
   * ascending (and a repeated id next to itself), then each list takes its ids in one go.
   */
  private flush(): void {
    const n = this.logOrd.length;
    const [ords, ids] = sortByKey(this.logOrd.data, this.logId.data, n);
    this.logOrd.length = 0;
    this.logId.length = 0;
    for (let a = 0; a < n; ) {
      const ord = ords[a];
      let b = a + 1;
      while (b < n && ords[b] === ord) b++;
      this.append(ord, ids, a, b);
      a = b;
    }
  }

  /** Adds ids[from..to) (ascending, repeats allowed) to the list of `ord`. */
  private append(ord: number, ids: Uint32Array, from: number, to: number): void {
    let i = from;
    while (i < to && this.big(ord) === undefined) this.addNow(ord, ids[i++]);
    if (i < to) this.big(ord)!.addRun(ids, i, to);
  }

  private big(ord: number): BigPosting | undefined {
    const h = ord < this.head.length ? (this.head.data[ord] | 0) : 0;
    if (h >= 0 || this.recLen.data[-h - 1] !== BIG) return undefined;
    return this.bigs[this.recOff.data[-h - 1]];
  }

  private addNow(ord: number, id: number): void {
    const h = ord < this.head.length ? (this.head.data[ord] | 0) : 0;
    if (h === 0) {
      this.setHead(ord, id + 1);
      return;
    }
    if (h > 0) {
      if (h - 1 === id) return;
      const r = this.recOff.length;
      const off = this.alloc(0);
      this.pool.data[off] = h - 1;
      this.pool.data[off + 1] = id;
      this.recOff.push(off);
      this.recLen.push(2);
      this.head.data[ord] = -(r + 1);
      return;
    }
    const r = -h - 1;
    const len = this.recLen.data[r];
    if (len === BIG) {
      this.bigs[this.recOff.data[r]].add(id);
      return;
    }
    let off = this.recOff.data[r];
    if (this.pool.data[off + len - 1] === id) return;
    if (len === PROMOTE_AT) {
      const ids = Array.from(this.pool.data.subarray(off, off + len));
      ids.push(id);
      this.free[MAX_CLASS].push(off);
      this.recOff.data[r] = this.bigs.length;
      this.recLen.data[r] = BIG;
      this.bigs.push(new BigPosting(RoaringBitmap32.from(ids)));
      return;
    }
    const cls = classOf(len);
    if (len === 2 << cls) {
      // The block is full: move the list to one twice the size.
      const next = this.alloc(cls + 1);
      this.pool.data.copyWithin(next, off, off + len);
      this.free[cls].push(off);
      this.recOff.data[r] = off = next;
    }
    this.pool.data[off + len] = id;
    this.recLen.data[r] = len + 1;
  }

  /** Removes dead ids (alive[id] !== 1, also given as a bitmap) from every list. */
  dropDead(alive: Uint8Array, dead: Bitmap): void {
    this.settled();
    const head = this.head.data;
    for (let ord = 0; ord < this.head.length; ord++) {
      const h = head[ord] | 0;
      if (h === 0) continue;
      if (h > 0) {
        if (alive[h - 1] !== 1) head[ord] = 0;
        continue;
      }
      const r = -h - 1;
      const len = this.recLen.data[r];
      let kept: readonly number[] | Uint32Array;
      if (len === BIG) {
        const big = this.bigs[this.recOff.data[r]];
        const b = big.settle().andNotInPlace(dead);
        if (b.size > PROMOTE_AT) continue;
        kept = b.toUint32Array();
      } else {
        const off = this.recOff.data[r];
        const ids: number[] = [];
        for (let i = off; i < off + len; i++) if (alive[this.pool.data[i]] === 1) ids.push(this.pool.data[i]);
        if (ids.length === len) continue;
        this.free[classOf(len)].push(off);
        kept = ids;
      }
      // Records of dropped lists are left unused: compaction is rare and records are small.
      head[ord] = kept.length === 0 ? 0 : kept.length === 1 ? kept[0] + 1 : -(this.record(kept) + 1);
    }
  }

  /** Counts per ordinal (BIG for bitmaps), the small lists' ids concatenated, then the bitmaps. */
  write(w: SegmentWriter): void {
    this.settled();
    const n = this.head.length;
    const head = this.head.data;
    const counts = new Uint32Array(n);
    let small = 0;
    const bigs: Bitmap[] = [];
    for (let ord = 0; ord < n; ord++) {
      const h = head[ord] | 0;
      if (h === 0) continue;
      if (h > 0) {
        counts[ord] = 1;
        small++;
        continue;
      }
      const r = -h - 1;
      const len = this.recLen.data[r];
      counts[ord] = len;
      if (len === BIG) bigs.push(this.bigs[this.recOff.data[r]].settle());
      else small += len;
    }
    const ids = new Uint32Array(small);
    let k = 0;
    for (let ord = 0; ord < n; ord++) {
      const h = head[ord] | 0;
      if (h > 0) ids[k++] = h - 1;
      else if (h < 0) {
        const r = -h - 1;
        const len = this.recLen.data[r];
        if (len === BIG) continue;
        const off = this.recOff.data[r];
        ids.set(this.pool.data.subarray(off, off + len), k);
        k += len;
      }
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
    const bigs: Bitmap[] = [];
    for (let b = r.u32(); b > 0; b--) bigs.push(r.bitmap());
    this.fill(counts, ids, bigs);
  }

  /**
   * Fills an empty table with the entries (ords[i], ids[i]) for i in [from, to): ids ascending
   * and distinct per ordinal, ordinals below `ordCount`. One counting sort places every id at
   * once, where add() would move a growing list through up to six pool blocks and a bitmap.
   */
  fillFrom(ords: Uint32Array, ids: Uint32Array, from: number, to: number, ordCount: number): void {
    if (this.head.length !== 0) throw new Error('fillFrom needs an empty posting table');
    const counts = new Uint32Array(ordCount);
    for (let i = from; i < to; i++) counts[ords[i]]++;
    // next[ord]: where the ordinal's next id goes in `grouped`, its ids laid out in ordinal order.
    const next = new Uint32Array(ordCount);
    for (let ord = 0, at = 0; ord < ordCount; ord++) {
      next[ord] = at;
      at += counts[ord];
    }
    const grouped = new Uint32Array(to - from);
    for (let i = from; i < to; i++) grouped[next[ords[i]]++] = ids[i];
    this.fill(counts, grouped, []);
  }

  /**
   * Sets each ordinal's list from `counts` (BIG: the next of `bigs`) and the other lists' ids,
   * concatenated in ordinal order (lists longer than PROMOTE_AT become bitmaps).
   */
  private fill(counts: Uint32Array, ids: Uint32Array, bigs: readonly Bitmap[]): void {
    this.head.ensureLength(counts.length);
    const head = this.head.data;
    let k = 0;
    let b = 0;
    for (let ord = 0; ord < counts.length; ord++) {
      const c = counts[ord];
      if (c === 0) continue;
      if (c === BIG) {
        if (b >= bigs.length) throw new CorruptSegmentError('posting table: too few bitmaps');
        const rec = this.recOff.length;
        this.recOff.push(this.bigs.length);
        this.recLen.push(BIG);
        this.bigs.push(new BigPosting(bigs[b++]));
        head[ord] = -(rec + 1);
      } else if (c === 1) {
        if (k >= ids.length) throw new CorruptSegmentError('posting table: counts and ids disagree');
        head[ord] = ids[k++] + 1;
      } else {
        if (k + c > ids.length) throw new CorruptSegmentError('posting table: counts and ids disagree');
        head[ord] = -(this.record(ids.subarray(k, k + c)) + 1);
        k += c;
      }
    }
    if (k !== ids.length || b !== bigs.length) throw new CorruptSegmentError('posting table: counts and ids disagree');
  }

  has(ord: number): boolean {
    this.settled();
    return ord < this.head.length && this.head.data[ord] !== 0;
  }

  /** Appends the ids of `ord` to `ids`, or its bitmap to `bitmaps` (never to be mutated). */
  collect(ord: number, ids: number[], bitmaps: Bitmap[]): void {
    this.settled();
    const h = ord < this.head.length ? (this.head.data[ord] | 0) : 0;
    if (h === 0) return;
    if (h > 0) {
      ids.push(h - 1);
      return;
    }
    const r = -h - 1;
    const len = this.recLen.data[r];
    if (len === BIG) {
      bitmaps.push(this.bigs[this.recOff.data[r]].settle());
      return;
    }
    const pool = this.pool.data;
    for (let i = this.recOff.data[r], end = i + len; i < end; i++) ids.push(pool[i]);
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
    this.settled();
    const h = ord < this.head.length ? (this.head.data[ord] | 0) : 0;
    if (h === 0) return 0;
    if (h > 0) return mask[h - 1] ?? 0;
    const r = -h - 1;
    const len = this.recLen.data[r];
    if (len === BIG) return this.bigs[this.recOff.data[r]].settle().andCardinality(within);
    const pool = this.pool.data;
    let n = 0;
    for (let i = this.recOff.data[r], end = i + len; i < end; i++) n += mask[pool[i]] ?? 0;
    return n;
  }
}

export function unionOf(ids: number[], bitmaps: Bitmap[]): Bitmap {
  const out = RoaringBitmap32.from(ids);
  if (bitmaps.length === 1) out.orInPlace(bitmaps[0]);
  else if (bitmaps.length > 1) orConsuming(out, unionMany(bitmaps));
  return out;
}

/** A byte per id, 1 when the id is in `b`: membership tests without native calls. */
export function maskOf(b: Bitmap, size: number): Uint8Array {
  const mask = new Uint8Array(size);
  for (const id of b.toUint32Array()) mask[id] = 1;
  return mask;
}
