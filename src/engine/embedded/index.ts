export { EmbeddedEngine, type EmbeddedEngineOptions } from './embedded-engine.ts';
export type { AggregateStrategy } from './aggregate.ts';
export type { PageStrategy } from './search-page.ts';
export type { CompactionPolicy } from './index-data.ts';
