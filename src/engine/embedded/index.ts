export { EmbeddedEngine, type EmbeddedEngineOptions } from './embedded-engine.ts';
export type { AggregateStrategy } from './aggregate.ts';
