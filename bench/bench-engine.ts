import type { CorpusEntry } from './corpus-file.ts';
import type { AggSpec, BenchQuery, Bucket, SearchAnswer } from './query-mix.ts';

/** One engine under test, loaded from the same corpus batches as the others. */
export interface BenchEngine {
  readonly name: string;
  /** Loads every batch, builds indexes; returns the number of documents loaded. */
  load(batches: AsyncIterable<CorpusEntry[]>): Promise<number>;
  /** Count plus the first 100 ids in order-key order. */
  search(query: BenchQuery): Promise<SearchAnswer>;
  /** Top buckets, count descending then key ascending. */
  aggregate(spec: AggSpec): Promise<Bucket[]>;
  close(): Promise<void>;
}
