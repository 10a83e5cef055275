export { ReferenceEngine, type EngineCatalogues } from './reference/index.ts';
export { EmbeddedEngine, type EmbeddedEngineOptions, type AggregateStrategy, type PageStrategy, type CompactionPolicy } from './embedded/index.ts';
export { orderKeyFor } from './order-key.ts';
export type {
  AggregateRequest,
  AggregateResult,
  Doc,
  SearchEngine,
  SearchHit,
  SearchRequest,
  SearchResult,
  SortPosition,
  SortSpec,
} from './search-engine.ts';
