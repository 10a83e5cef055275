/**
 * The embedded search engine: an in-memory inverted index per index (see index-data.ts) with
 * roaring-bitmap postings, typed views for ranges and sorting, element ids for `services`, and
 * query evaluation by bitmap algebra. With `dir`, the index is also kept on disk as segments
 * and a journal (engine-directory.ts), so a restart loads it instead of re-reading every
 * document; the engine never owns the truth and can always be rebuilt from the store.
 */
import { closeSync } from 'node:fs';
import type { IndexName } from '../../model/field-def.ts';
import type { ResolvedQuery } from '../../query/resolved.ts';
import type {
  AggregateRequest,
  AggregateResult,
  Doc,
  SearchEngine,
  SearchRequest,
  SearchResult,
} from '../search-engine.ts';
import type { EngineCatalogues } from '../reference/reference-engine.ts';
import { aggregateField, partGroups, type AggregateStrategy, type PartGroups } from './aggregate.ts';
import { release, type Bitmap } from './bitmap.ts';
import { Evaluator } from './evaluate.ts';
import { IndexData, type CompactionPolicy } from './index-data.ts';
import { docPage, searchPage, type DocPage, type PageStrategy } from './search-page.ts';
import { EngineDirectory, indexingFingerprint, restoreChain, restoreSegment, type SegmentEntry } from './engine-directory.ts';
import { CorruptSegmentError } from './segment-codec.ts';
import { runWarmSteps, warmSteps } from './warm-up.ts';

export interface EmbeddedEngineOptions {
  /** Force one aggregation strategy (tests exercise both); default picks by cardinality. */
  readonly aggregateStrategy?: AggregateStrategy;
  /** Force one way of finding unsorted pages (tests exercise both); default picks by density. */
  readonly pageStrategy?: PageStrategy;
  /** When tombstones are purged (default: 1024 dead documents and as many as live ones). */
  readonly compaction?: CompactionPolicy;
  /** Keep segments and journals in this directory (`<data-dir>/engine`); in memory only without. */
  readonly dir?: string;
}

/** Queries while the engine rebuilds after meeting a damaged segment. */
export class EngineUnavailableError extends Error {}

export class EmbeddedEngine implements SearchEngine {
  readonly name = 'embedded';
  private readonly data: Record<IndexName, IndexData>;
  readonly persistence: EngineDirectory | undefined;
  /** Files opened by openSegmentFile with blocks left on disk. */
  private readonly openFiles: number[] = [];
  /** Set by close(): blocks left on disk are unreadable from then on, so warming stops. */
  private closed = false;

  constructor(private readonly catalogues: EngineCatalogues, private readonly options: EmbeddedEngineOptions = {}) {
    const fresh = (index: IndexName) => new IndexData(index, catalogues[index], options.compaction);
    this.data = { hosts: fresh('hosts'), certificates: fresh('certificates') };
    this.persistence = options.dir === undefined ? undefined : new EngineDirectory(options.dir, indexingFingerprint(catalogues), this.data, fresh);
  }

  /** Runs `f`; a damaged segment block met on the way empties the engine for a rebuild (see EngineDirectory.corrupted). */
  private guarded<T>(f: () => T): T {
    const p = this.persistence;
    if (!p) return f();
    try {
      return f();
    } catch (err) {
      if (err instanceof CorruptSegmentError) p.corrupted(err);
      throw err;
    }
  }

  private available(): void {
    const broken = this.persistence?.broken;
    if (broken) throw new EngineUnavailableError(`the search index is being rebuilt from the store (${broken.message})`);
  }

  upsert(index: IndexName, id: string, doc: Doc): void {
    this.guarded(() => this.data[index].upsert(id, doc));
    if (this.persistence) this.persistence.dirty = true;
  }

  remove(index: IndexName, id: string): void {
    this.guarded(() => this.data[index].remove(id));
    if (this.persistence) this.persistence.dirty = true;
  }

  size(index: IndexName): number {
    return this.data[index].docs.liveCount;
  }

  /** Whether the index holds a live document with this id. */
  has(index: IndexName, id: string): boolean {
    return this.guarded(() => this.data[index].docOf(id) >= 0);
  }

  /**
   * What differs whenever the index's documents differ: its data (replaced by a restore or a
   * reset), the units given out (every write gives out one) and the units alive (a removal kills
   * one). A PartedEngine keeps merged counts while its parts' stamps stay the same (whole-counts.ts).
   */
  contentStamp(index: IndexName): readonly [object, number, number] {
    const data = this.data[index];
    return [data, data.docs.idCount, data.docs.liveCount];
  }

  /** Document ids given out so far, tombstones included (what a part of a PartedEngine counts toward its size). */
  idCount(index: IndexName): number {
    return this.data[index].docs.idCount;
  }

  search(index: IndexName, request: SearchRequest): SearchResult {
    return this.matching(index, request.query, (data, match) => searchPage(data, this.catalogues[index], match, request, this.options.pageStrategy ?? 'auto'));
  }

  /** The page of a search as documents, for a PartedEngine to combine over its parts before making hits (see mergePages). */
  searchDocs(index: IndexName, request: SearchRequest): DocPage {
    return this.matching(index, request.query, (data, match) => docPage(data, this.catalogues[index], match, request, this.options.pageStrategy ?? 'auto'));
  }

  aggregate(index: IndexName, request: AggregateRequest): AggregateResult {
    const field = this.catalogues[index].get(request.field);
    return this.matching(index, request.query, (data, match) => aggregateField(data, match, field, request.numBuckets, this.options.aggregateStrategy ?? 'auto'));
  }

  /** The counts per group of an aggregation, for a PartedEngine to combine over its `parts` parts (see partGroups). */
  partGroups(index: IndexName, request: AggregateRequest, parts = 1): PartGroups {
    const field = this.catalogues[index].get(request.field);
    return this.matching(index, request.query, (data, match) => partGroups(data, match, field, request.numBuckets, this.options.aggregateStrategy ?? 'auto', parts));
  }

  /**
   * `answer` over the documents matching `query`, which it must not change: their bitmap is
   * released after it (bitmap.ts, release), unless the index keeps it (Evaluator.kept).
   */
  private matching<T>(index: IndexName, query: ResolvedQuery, answer: (data: IndexData, match: Bitmap) => T): T {
    this.available();
    return this.guarded(() => {
      const data = this.data[index];
      const evaluator = new Evaluator(data);
      const kept = evaluator.kept(query);
      const match = kept ?? evaluator.docs(query);
      try {
        return answer(data, match);
      } finally {
        if (!kept) release(match);
      }
    });
  }

  /**
   * Builds ahead, in slices that let requests interleave, what the common queries derive on
   * first use (see warm-up.ts); settles when done, when `signal` aborts, when the engine closes
   * or when it is being rebuilt after a damaged segment.
   */
  async warm(signal: AbortSignal): Promise<void> {
    const stopped = () => signal.aborted || this.closed || this.persistence?.broken !== undefined;
    for (const index of ['hosts', 'certificates'] as const) {
      await runWarmSteps(warmSteps(index, this.catalogues[index], () => this.data[index]), stopped, (f) => this.guarded(f));
    }
  }

  /**
   * Loads one full segment file, then the delta segments written after it in order, into an
   * empty index (tools and the format fixtures; serving opens through `persistence`).
   */
  openSegmentFile(index: IndexName, file: string, deltas: readonly string[] = []): void {
    if (this.data[index].docs.idCount !== 0) throw new Error('openSegmentFile needs an empty index');
    for (const [f, delta] of [[file, false], ...deltas.map((d) => [d, true] as const)] as const) {
      const fd = restoreSegment(this.data[index], f, undefined, delta);
      if (fd !== undefined) this.openFiles.push(fd);
    }
  }

  /**
   * Opens the segments a manifest lists (`segments`, files in `dir`) into an empty engine without
   * a directory of its own: read-only, no journal, no ownership (the query thread's parts).
   */
  openSegments(dir: string, segments: Record<IndexName, SegmentEntry>): void {
    for (const index of ['hosts', 'certificates'] as const) {
      if (this.data[index].docs.idCount !== 0) throw new Error('openSegments needs an empty engine');
      restoreChain(this.data[index], dir, segments[index], this.openFiles);
    }
  }

  /** Checkpoints when the engine holds the whole store (it was opened) and changed since. */
  async close(): Promise<void> {
    this.closed = true;
    for (const fd of this.openFiles.splice(0)) closeSync(fd);
    const p = this.persistence;
    if (!p) return;
    // A clean close leaves one full segment per index: the next open reads no deltas.
    if (p.opened && (p.dirty || p.hasDeltas)) p.checkpoint(true);
    p.close();
  }
}
