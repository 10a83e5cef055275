/** Periscope's embedded engine, driven directly (no HTTP, no store): what the query mix times. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartedEngine } from '../src/engine/index.ts';
import type { ResolvedQuery } from '../src/query/index.ts';
import { compileQuery } from '../src/query/index.ts';
import { catalogueFor } from '../src/model/field-catalogue.ts';
import type { BenchEngine } from './bench-engine.ts';
import type { CorpusEntry } from './corpus-file.ts';
import { PAGE, TOP_BUCKETS, type AggSpec, type BenchQuery, type Bucket, type SearchAnswer } from './query-mix.ts';

export class PeriscopeEngine implements BenchEngine {
  readonly name = 'periscope';
  private readonly catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
  // Persistent from the start, as a server's engine is: a first start finds no segments and loads.
  readonly dir = mkdtempSync(join(tmpdir(), 'periscope-bench-engine-'));
  private engine: PartedEngine;

  /** `partDocuments`: documents per part of the index (the product's default when undefined). */
  constructor(readonly partDocuments?: number) {
    this.engine = new PartedEngine(this.catalogues, { dir: this.dir, partDocuments });
    this.engine.persistence!.open();
  }

  /** Parts the index is made of. */
  get parts(): number {
    return this.engine.parts.length;
  }
  // Compiled once: the bench measures the engine, not the parser.
  private readonly compiled = new Map<string, ResolvedQuery>();

  async load(batches: AsyncIterable<CorpusEntry[]>): Promise<number> {
    let n = 0;
    for await (const batch of batches) {
      for (const { id, doc } of batch) this.engine.upsert('hosts', id, doc);
      n += batch.length;
    }
    return n;
  }

  /**
   * Writes the loaded index as segments (a checkpoint, as a server does), drops the in-memory
   * engine and opens the segments in a new one, which then serves the timed queries: what a
   * restart costs, and the engine as it runs after one.
   */
  persistAndReopen(): { checkpointMs: number; bytes: number; openMs: number } {
    const cp = this.engine.persistence!.checkpoint();
    this.engine.persistence!.close();
    this.engine = undefined as unknown as PartedEngine;
    globalThis.gc?.();
    const reopened = new PartedEngine(this.catalogues, { dir: this.dir, partDocuments: this.partDocuments, queryThread: true });
    const t = performance.now();
    const r = reopened.persistence!.open();
    const openMs = performance.now() - t;
    if (!r.loaded) throw new Error(`segments did not open: ${r.reason}`);
    this.engine = reopened;
    return { checkpointMs: cp.ms, bytes: cp.bytes, openMs };
  }

  /** Drops the engine (files closed, no checkpoint), so that a fresh process can be measured without this one's memory beside it. */
  suspend(): void {
    this.engine.persistence!.close();
    this.engine = undefined as unknown as PartedEngine;
    globalThis.gc?.();
  }

  /** Opens the segments again after suspend(). */
  resume(): void {
    const engine = new PartedEngine(this.catalogues, { dir: this.dir, partDocuments: this.partDocuments, queryThread: true });
    const r = engine.persistence!.open();
    if (!r.loaded) throw new Error(`segments did not open: ${r.reason}`);
    this.engine = engine;
  }

  compile(text: string): ResolvedQuery {
    let q = this.compiled.get(text);
    if (!q) {
      const r = compileQuery(text, this.catalogues.hosts);
      if (!r.ok) throw new Error(`bench query does not compile: ${text}: ${JSON.stringify(r.error)}`);
      q = r.query;
      this.compiled.set(text, q);
    }
    return q;
  }

  async search(query: BenchQuery): Promise<SearchAnswer> {
    return this.searchSync(query);
  }

  /** Synchronous form, so the timing loop measures the engine rather than promise scheduling. */
  searchSync(query: BenchQuery): SearchAnswer {
    const r = this.engine.search('hosts', { query: this.compile(query.censys), limit: PAGE });
    return { count: r.total, ids: r.hits.map((h) => h.id) };
  }

  async aggregate(spec: AggSpec): Promise<Bucket[]> {
    return this.aggregateSync(spec);
  }

  aggregateSync(spec: AggSpec): Bucket[] {
    return [...this.engine.aggregate('hosts', { query: this.compile(spec.censys), field: spec.field, numBuckets: TOP_BUCKETS }).buckets];
  }

  async close(): Promise<void> {
    // No checkpoint on the way out: the directory is thrown away.
    this.engine.persistence!.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
