/**
 * The embedded search engine: an in-memory inverted index per index (see index-data.ts) with
 * roaring-bitmap postings, typed views for ranges and sorting, element ids for `services`, and
 * query evaluation by bitmap algebra. Persistence (immutable segments under this mutable
 * structure) is a later step; the engine never owns the truth and can be rebuilt from the store.
 */
import type { IndexName } from '../../model/field-def.ts';
import type {
  AggregateRequest,
  AggregateResult,
  Doc,
  SearchEngine,
  SearchRequest,
  SearchResult,
} from '../search-engine.ts';
import type { EngineCatalogues } from '../reference/reference-engine.ts';
import { aggregateField, type AggregateStrategy } from './aggregate.ts';
import { Evaluator } from './evaluate.ts';
import { IndexData, type CompactionPolicy } from './index-data.ts';
import { searchPage, type PageStrategy } from './search-page.ts';

export interface EmbeddedEngineOptions {
  /** Force one aggregation strategy (tests exercise both); default picks by cardinality. */
  readonly aggregateStrategy?: AggregateStrategy;
  /** Force one way of finding unsorted pages (tests exercise both); default picks by density. */
  readonly pageStrategy?: PageStrategy;
  /** When tombstones are purged (default: 1024 dead documents and as many as live ones). */
  readonly compaction?: CompactionPolicy;
}

export class EmbeddedEngine implements SearchEngine {
  readonly name = 'embedded';
  private readonly data: Record<IndexName, IndexData>;

  constructor(private readonly catalogues: EngineCatalogues, private readonly options: EmbeddedEngineOptions = {}) {
    this.data = {
      hosts: new IndexData('hosts', catalogues.hosts, options.compaction),
      certificates: new IndexData('certificates', catalogues.certificates, options.compaction),
    };
  }

  upsert(index: IndexName, id: string, doc: Doc): void {
    this.data[index].upsert(id, doc);
  }

  remove(index: IndexName, id: string): void {
    this.data[index].remove(id);
  }

  size(index: IndexName): number {
    return this.data[index].docs.liveCount;
  }

  search(index: IndexName, request: SearchRequest): SearchResult {
    const data = this.data[index];
    const match = new Evaluator(data).docs(request.query);
    return searchPage(data, this.catalogues[index], match, request, this.options.pageStrategy ?? 'auto');
  }

  aggregate(index: IndexName, request: AggregateRequest): AggregateResult {
    const data = this.data[index];
    const match = new Evaluator(data).docs(request.query);
    const field = this.catalogues[index].get(request.field);
    return aggregateField(data, match, field, request.numBuckets, this.options.aggregateStrategy ?? 'auto');
  }

  async close(): Promise<void> {}
}
