/**
 * A population of units with dense uint32 ids — the documents of an index, or the elements of
 * one nested root — and the slots and existence postings over their paths. Ids are never
 * reused: a removed or replaced unit is a tombstone (its byte in `alive` cleared) and its old
 * postings are filtered out by the live bitmap, which keeps every posting list append-only.
 */
import { RoaringBitmap32, type Bitmap } from './bitmap.ts';
import type { CollectedLeaves } from './collect-leaves.ts';
import { PostingTable } from './posting-table.ts';
import { Slot } from './slot.ts';

export class Scope {
  readonly slots = new Map<string, Slot>();
  private readonly existsOrd = new Map<string, number>();
  private readonly exists = new PostingTable();
  alive = new Uint8Array(1024);
  /** Ids handed out so far (the next id). */
  idCount = 0;
  liveCount = 0;
  private liveCache: Bitmap | undefined;

  newUnit(): number {
    const id = this.idCount++;
    if (id >= this.alive.length) {
      const next = new Uint8Array(this.alive.length * 2);
      next.set(this.alive);
      this.alive = next;
    }
    this.alive[id] = 1;
    this.liveCount++;
    this.liveCache = undefined;
    return id;
  }

  kill(id: number): void {
    if (this.alive[id] !== 1) return;
    this.alive[id] = 0;
    this.liveCount--;
    this.liveCache = undefined;
  }

  /** Indexes a new unit's leaves and existence paths. */
  index(unit: number, collected: CollectedLeaves): void {
    for (const [path, leaves] of collected.leaves) this.slot(path).addUnit(unit, leaves);
    for (const path of collected.present) {
      let ord = this.existsOrd.get(path);
      if (ord === undefined) this.existsOrd.set(path, (ord = this.existsOrd.size));
      this.exists.add(ord, unit);
    }
  }

  private slot(path: string): Slot {
    let s = this.slots.get(path);
    if (!s) this.slots.set(path, (s = new Slot(path)));
    return s;
  }

  /** Units (live or not) with a leaf at or under `path`: a new bitmap. */
  existing(path: string): Bitmap {
    const ord = this.existsOrd.get(path);
    return ord === undefined ? new RoaringBitmap32() : this.exists.bitmap(ord);
  }

  hasPath(path: string): boolean {
    return this.existsOrd.has(path);
  }

  /** The live units; shared, do not mutate (clone first). */
  live(): Bitmap {
    if (!this.liveCache) {
      const ids = new Uint32Array(this.liveCount);
      let n = 0;
      const alive = this.alive;
      for (let i = 0; i < this.idCount; i++) if (alive[i] === 1) ids[n++] = i;
      this.liveCache = RoaringBitmap32.from(ids);
    }
    return this.liveCache;
  }
}
