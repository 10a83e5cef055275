/**
 * What happens after a workspace's seeds change: discovery re-evaluates the workspace. The seed use
 * cases only announce the change; whoever cares subscribes (main/ wires discovery in), so seeds
 * know nothing about what depends on them.
 */
import type { Seed } from '../store/store.ts';

export interface SeedsChange {
  readonly workspaceId: string;
  readonly added: readonly Seed[];
  readonly removed: readonly Seed[];
}

export type SeedsChangedListener = (change: SeedsChange) => void | Promise<void>;

export class SeedsChanged {
  readonly #listeners: SeedsChangedListener[] = [];

  /** Adds a listener; the returned function removes it. */
  subscribe(listener: SeedsChangedListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const i = this.#listeners.indexOf(listener);
      if (i >= 0) this.#listeners.splice(i, 1);
    };
  }

  /**
   * Runs every listener in turn and waits for it, so that a caller answering after `emit` answers
   * with the consequences in place. The seeds are already saved: a failing listener must not turn
   * that into an error, so failures go to `onError` and the next listener still runs.
   */
  async emit(change: SeedsChange, onError: (err: unknown) => void = () => {}): Promise<void> {
    if (change.added.length === 0 && change.removed.length === 0) return;
    for (const listener of [...this.#listeners]) {
      try {
        await listener(change);
      } catch (err) {
        onError(err);
      }
    }
  }
}
