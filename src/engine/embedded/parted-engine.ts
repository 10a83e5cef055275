/**
 * The embedded engine over many documents: an index made of parts, each an EmbeddedEngine of
 * at most `partDocuments` documents per index with its own segments (docs/ARCHITECTURE.md,
 * "Engine parts"). A new document goes to the newest part; once that part is full it is
 * checkpointed and reopened from its segments (a restart's memory instead of a load's) and a
 * new part is started, so a load of any size holds one part's build in memory at a time. A
 * document is replaced in the part that holds it. Queries run on every part and are combined
 * (merge-parts.ts); with one part, which is every index up to `partDocuments`, they go straight
 * to it.
 */
import type { IndexName } from '../../model/field-def.ts';
import type { AggregateRequest, AggregateResult, Doc, SearchEngine, SearchRequest, SearchResult } from '../search-engine.ts';
import type { EngineCatalogues } from '../reference/reference-engine.ts';
import { EmbeddedEngine, type EmbeddedEngineOptions } from './embedded-engine.ts';
import { mergePages, mergePartGroups } from './merge-parts.ts';
import { PartedDirectory, partDir, type PartsHost } from './parted-directory.ts';

/**
 * Documents per index in one part. Loading a part builds its dictionaries and postings in the
 * JavaScript heap: about 2.3 GB at 1M hosts, where node's default heap limit here is 4.1 GB, and
 * 5.5-5.8 GB resident at the load's peak (docs/BENCHMARK.md). 1.1M keeps a load within that
 * limit whatever the index's size, and the 1M-host benchmark corpus (1.05M documents) in one part.
 */
export const DEFAULT_PART_DOCUMENTS = 1_100_000;

export interface PartedEngineOptions extends EmbeddedEngineOptions {
  /** Documents (per index, tombstones included) a part takes before new documents go to a new part. */
  readonly partDocuments?: number;
}

export class PartedEngine implements SearchEngine, PartsHost {
  readonly name = 'embedded';
  parts: EmbeddedEngine[];
  readonly persistence: PartedDirectory | undefined;
  private readonly capacity: number;
  /** Parts serving from segments they were reopened from, unchanged since: a reopen() skips them. */
  readonly reopened = new Set<EmbeddedEngine>();

  constructor(private readonly catalogues: EngineCatalogues, private readonly options: PartedEngineOptions = {}) {
    const capacity = options.partDocuments ?? DEFAULT_PART_DOCUMENTS;
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`partDocuments must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
    this.parts = [this.newPart(0)];
    this.persistence = options.dir === undefined ? undefined : new PartedDirectory(options.dir, this);
  }

  newPart(k: number, at?: string): EmbeddedEngine {
    const { partDocuments: _, dir, ...rest } = this.options;
    return new EmbeddedEngine(this.catalogues, { ...rest, ...(dir === undefined ? {} : { dir: at ?? partDir(dir, k) }) });
  }

  /** The newest part, or a new one when it is full (the full one sealed first; never in a process sharing the directory). */
  private partForNew(index: IndexName): EmbeddedEngine {
    const last = this.parts[this.parts.length - 1];
    if (last.idCount(index) < this.capacity || this.persistence?.shared) return last;
    this.persistence?.seal(last);
    const k = this.parts.length;
    const part = this.newPart(k);
    this.persistence?.opening(part, k);
    this.parts.push(part);
    return part;
  }

  /**
   * Replaces the document in the newest part holding it, else adds it to the newest part, and
   * removes it from every other part: an id is in one part only, even after a kill left a copy in
   * an older part (see parted-directory.ts).
   */
  upsert(index: IndexName, id: string, doc: Doc): void {
    if (this.parts.length === 1 && this.parts[0].idCount(index) < this.capacity) {
      this.reopened.delete(this.parts[0]);
      this.parts[0].upsert(index, id, doc);
      return;
    }
    let target: EmbeddedEngine | undefined;
    for (let k = this.parts.length - 1; k >= 0; k--) {
      const part = this.parts[k];
      if (!part.has(index, id)) continue;
      if (target === undefined) target = part;
      else this.removeFrom(part, index, id);
    }
    target ??= this.partForNew(index);
    this.reopened.delete(target);
    target.upsert(index, id, doc);
  }

  remove(index: IndexName, id: string): void {
    for (const part of this.parts) if (part.has(index, id)) this.removeFrom(part, index, id);
  }

  private removeFrom(part: EmbeddedEngine, index: IndexName, id: string): void {
    this.reopened.delete(part);
    part.remove(index, id);
  }

  size(index: IndexName): number {
    let n = 0;
    for (const p of this.parts) n += p.size(index);
    return n;
  }

  search(index: IndexName, request: SearchRequest): SearchResult {
    if (this.parts.length === 1) return this.parts[0].search(index, request);
    return mergePages(
      this.parts.map((p) => p.searchDocs(index, request)),
      request,
    );
  }

  aggregate(index: IndexName, request: AggregateRequest): AggregateResult {
    if (this.parts.length === 1) return this.parts[0].aggregate(index, request);
    return mergePartGroups(
      this.parts.map((p) => p.partGroups(index, request)),
      request.numBuckets,
    );
  }

  async warm(signal: AbortSignal): Promise<void> {
    for (const p of [...this.parts]) {
      if (signal.aborted) return;
      await p.warm(signal);
    }
  }

  /** A clean close: parts 1.. first, each written whole if it changed, then part 0 (whose checkpoint drops the journals). */
  async close(): Promise<void> {
    for (let k = this.parts.length - 1; k >= 0; k--) await this.parts[k].close();
  }
}
