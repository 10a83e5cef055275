/**
 * What every ASM use case works with. main/ builds one (and subscribes discovery to its events);
 * when none is given, the API builds a plain one over the store.
 */
import type { Store } from '../store/store.ts';
import { SeedsChanged } from './seeds-changed.ts';
import { AssetsChanged } from './assets-changed.ts';
import type { SearchContext } from '../search/search-context.ts';

export interface AsmContext {
  readonly store: Store;
  readonly seedsChanged: SeedsChanged;
  /** Discovery announces asset changes here; risk evaluation subscribes. */
  readonly assetsChanged: AssetsChanged;
  /** The clock, so tests can pin `now`. */
  now(): Date;
  /** Where listener failures are reported (logging); they never fail the request. */
  reportError?(err: unknown): void;
  /** The search indexes discovery reads (engine, catalogues); absent where no discovery runs. */
  readonly search?: SearchContext;
}

export function createAsmContext(
  store: Store,
  now: () => Date = () => new Date(),
  reportError?: (err: unknown) => void,
  search?: SearchContext,
): AsmContext {
  return {
    store,
    now,
    seedsChanged: new SeedsChanged(),
    assetsChanged: new AssetsChanged(),
    ...(reportError ? { reportError } : {}),
    ...(search ? { search } : {}),
  };
}
