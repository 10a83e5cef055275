/**
 * What every Search use case works with. Built once by main/ (which picks the store and engine
 * implementations); use cases never construct their own.
 */
import type { FieldCatalogue, IndexName } from '../model/field-def.ts';
import type { SearchEngine } from '../engine/search-engine.ts';
import type { Store } from '../store/store.ts';

export interface SearchContext {
  readonly store: Store;
  readonly engine: SearchEngine;
  readonly catalogues: Readonly<Record<IndexName, FieldCatalogue>>;
  /** The clock, so tests can pin `now`. */
  now(): Date;
}
