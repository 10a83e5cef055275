/**
 * What happens after discovery changed a workspace's assets: risk evaluation looks at the assets
 * that changed. Discovery only announces; whoever cares subscribes (main/ and the API wire it).
 */
import type { Asset, AssetType } from '../model/asm-asset.ts';

export interface AssetsChange {
  readonly workspaceId: string;
  /** Assets added or whose data changed, as now stored. */
  readonly upserted: readonly Asset[];
  readonly removed: readonly { readonly type: AssetType; readonly assetId: string }[];
  /**
   * Assets whose underlying host/certificate document changed without changing the asset row
   * (a risk may appear even though ports and software stayed the same).
   */
  readonly touched?: readonly { readonly type: AssetType; readonly assetId: string }[];
}

export type AssetsChangedListener = (change: AssetsChange) => void | Promise<void>;

export class AssetsChanged {
  readonly #listeners: AssetsChangedListener[] = [];

  /** Adds a listener; the returned function removes it. */
  subscribe(listener: AssetsChangedListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const i = this.#listeners.indexOf(listener);
      if (i >= 0) this.#listeners.splice(i, 1);
    };
  }

  /** Runs every listener in turn and waits; a failing listener goes to `onError`, the next still runs. */
  async emit(change: AssetsChange, onError: (err: unknown) => void = () => {}): Promise<void> {
    if (change.upserted.length === 0 && change.removed.length === 0 && (change.touched?.length ?? 0) === 0) return;
    for (const listener of [...this.#listeners]) {
      try {
        await listener(change);
      } catch (err) {
        onError(err);
      }
    }
  }
}
