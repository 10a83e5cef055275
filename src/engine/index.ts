export { ReferenceEngine, type EngineCatalogues } from './reference/index.ts';
export {
  EmbeddedEngine,
  PartedEngine,
  DEFAULT_PART_DOCUMENTS,
  type PartedEngineOptions,
  EngineUnavailableError,
  CorruptSegmentError,
  SEGMENT_FORMAT_VERSION,
  type EmbeddedEngineOptions,
  type AggregateStrategy,
  type PageStrategy,
  type CompactionPolicy,
} from './embedded/index.ts';
export { orderKeyFor } from './order-key.ts';
export type {
  AggregateRequest,
  AggregateResult,
  CheckpointInfo,
  EnginePersistence,
  OpenResult,
  Doc,
  SearchEngine,
  SearchHit,
  SearchRequest,
  SearchResult,
  SortPosition,
  SortSpec,
} from './search-engine.ts';
