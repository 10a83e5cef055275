export { EmbeddedEngine, EngineUnavailableError, type EmbeddedEngineOptions } from './embedded-engine.ts';
export { CorruptSegmentError, SEGMENT_FORMAT_VERSION } from './segment-codec.ts';
export type { AggregateStrategy } from './aggregate.ts';
export type { PageStrategy } from './search-page.ts';
export type { CompactionPolicy } from './index-data.ts';
export { PartedEngine, DEFAULT_PART_DOCUMENTS, type PartedEngineOptions } from './parted-engine.ts';
