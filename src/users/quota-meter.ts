/**
 * Counts queries against each user's quota without a store round trip per query. Usage is known
 * in memory (the stored count, read once, plus what this process counted since) and written in
 * batches: within `flushMs`, at `flush()`, and before any request of the same user that may read
 * it (the guard flushes the caller's counts before routes without a quota, e.g. /v1/account), so
 * a user always sees their own queries counted. What a crash loses is at most the last
 * `flushMs` of counts. Several servers on one PostgreSQL database each add their own counts
 * (the store's upsert adds, never overwrites) and learn the others' at their next write, so a
 * user may overshoot their allowance by what the other servers counted since then.
 */
import type { Store } from '../store/store.ts';

interface Usage {
  readonly userId: string;
  readonly period: string;
  /** The stored total at the last read or write. */
  stored: number;
  /** Counted here and not written yet. */
  pending: number;
  /** Being written now. */
  writing: number;
  loaded: Promise<void> | undefined;
  /** The write chain of this entry: one write at a time, in order. */
  chain: Promise<void>;
}

export class QuotaMeter {
  private readonly usage = new Map<string, Usage>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    private readonly flushMs = 250,
  ) {}

  private entry(userId: string, period: string): Usage {
    const key = `${userId}\n${period}`;
    let u = this.usage.get(key);
    if (!u) {
      u = { userId, period, stored: 0, pending: 0, writing: 0, loaded: undefined, chain: Promise.resolve() };
      const fresh = u;
      u.loaded = this.store.quota.used(userId, period).then(
        (n) => {
          fresh.stored = n;
        },
        (err: unknown) => {
          // Read again next time rather than count from a wrong base.
          this.usage.delete(key);
          throw err;
        },
      );
      this.usage.set(key, u);
    }
    return u;
  }

  /** Queries counted for the user in `period` (stored plus not yet written). */
  async used(userId: string, period: string): Promise<number> {
    const u = this.entry(userId, period);
    await u.loaded;
    return u.stored + u.writing + u.pending;
  }

  /** Counts one query if the allowance permits it; false (nothing counted) when it is used up. */
  async take(userId: string, period: string, allowance: number): Promise<boolean> {
    const u = this.entry(userId, period);
    await u.loaded;
    if (u.stored + u.writing + u.pending >= allowance) return false;
    u.pending++;
    this.schedule();
    return true;
  }

  private write(u: Usage): Promise<void> {
    u.chain = u.chain.then(async () => {
      const n = u.pending;
      if (n === 0) return;
      u.pending = 0;
      u.writing = n;
      try {
        u.stored = await this.store.quota.add(u.userId, u.period, n);
      } catch (err) {
        u.pending += n;
        throw err;
      } finally {
        u.writing = 0;
      }
    });
    const done = u.chain;
    // A failed write leaves its counts pending for the next one; the chain itself goes on.
    u.chain = u.chain.catch(() => {});
    return done;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch(() => {});
    }, this.flushMs);
    this.timer.unref();
  }

  /** Writes the pending counts of one user (all periods), or of everyone. */
  async flush(userId?: string): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const [key, u] of this.usage) {
      if (userId !== undefined && u.userId !== userId) continue;
      if (u.pending > 0 || u.writing > 0) writes.push(this.write(u));
      else if (userId === undefined && this.usage.size > 10_000) this.usage.delete(key);
    }
    const results = await Promise.allSettled(writes);
    // Counts a failed write left pending go out with the next timer.
    for (const u of this.usage.values()) if (u.pending > 0) this.schedule();
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Forgets what it knows of a user's usage (after an operator changed it in the store). */
  forget(userId: string): void {
    for (const [key, u] of this.usage) if (u.userId === userId && u.pending === 0 && u.writing === 0) this.usage.delete(key);
  }
}
