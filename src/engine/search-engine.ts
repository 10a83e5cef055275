/**
 * The seam between the Search use cases and whatever indexes documents. The embedded engine
 * (engine/embedded) and the reference evaluator (engine/reference) implement it; a shared
 * conformance suite (test/engine/conformance.test.ts) holds them to identical answers.
 */
import type { IndexName } from '../model/field-def.ts';
import type { ResolvedQuery } from '../query/resolved.ts';

/** A document as JSON (Censys schema). Hosts are keyed by `ip` or `ip+name`; certificates by SHA-256. */
export type Doc = Record<string, unknown>;

export interface SortSpec {
  /** A catalogue field path (single-valued use: the first value of the document is used). */
  readonly field: string;
  readonly descending: boolean;
}

/**
 * Hits are ordered by `sort` (documents without a value sort last), then by `orderKey` ascending
 * (see `orderKeyFor`): the order is total, so a cursor holding the last hit's sort values and
 * order key continues exactly after it, whatever was written in between.
 */
export interface SearchRequest {
  readonly query: ResolvedQuery;
  readonly sort?: readonly SortSpec[];
  /** Continue after this position (from a previous page's `last`). */
  readonly after?: SortPosition;
  /** Page size, 1..1000. */
  readonly limit: number;
  /** When true, walk backwards: the page holds the hits just before `after`, still returned in forward order. */
  readonly backwards?: boolean;
}

/**
 * The position of one hit in the total order: its sort values, then its order key. Sort values
 * are numbers for int/float, epoch ms for dates, 0/1 for bools, canonical `ipKey`s for ips,
 * strings for keyword/text, and null when the document has no value (sorted last).
 */
export interface SortPosition {
  readonly values: readonly (string | number | null)[];
  readonly orderKey: string;
}

export interface SearchHit {
  readonly id: string;
  readonly position: SortPosition;
}

export interface SearchResult {
  /** Number of documents matching the query (ignoring `after` and `limit`). */
  readonly total: number;
  readonly hits: readonly SearchHit[];
  /** True when more hits follow the last one returned (in the walking direction). */
  readonly more: boolean;
}

export interface AggregateRequest {
  readonly query: ResolvedQuery;
  /** A catalogue field path with aggregatable=true. */
  readonly field: string;
  /** 1..1000 */
  readonly numBuckets: number;
}

export interface AggregateResult {
  /**
   * Documents matching the query that have a value for the field; for a nested field
   * (`services.*`) the number of elements (services) of matching documents with a value.
   */
  readonly total: number;
  /**
   * Sum of the counts of the buckets not returned (each unit counted once per distinct value);
   * equals `total` minus the returned counts when the field is single-valued per unit.
   */
  readonly totalOmitted: number;
  /**
   * Buckets by count descending, then key ascending; key is the value as a string (ints in
   * decimal, bools `true`/`false`, dates RFC 3339, ips in their usual text form, keyword/text
   * as stored). A document counts once per distinct value (per element for nested fields).
   */
  readonly buckets: readonly { readonly key: string; readonly count: number }[];
}

export interface SearchEngine {
  readonly name: string;
  /** Insert or replace a document. */
  upsert(index: IndexName, id: string, doc: Doc): void;
  remove(index: IndexName, id: string): void;
  /** Number of documents in an index. */
  size(index: IndexName): number;
  search(index: IndexName, request: SearchRequest): SearchResult;
  aggregate(index: IndexName, request: AggregateRequest): AggregateResult;
  /**
   * Optional: builds ahead, in the background and in slices that let requests interleave, the
   * structures the first queries of common kinds would otherwise build while others wait (after
   * a restart); answers do not depend on it. Settles when done or when `signal` aborts.
   */
  warm?(signal: AbortSignal): Promise<void>;
  /** Persist and release resources. */
  close(): Promise<void>;
  /** Present when the engine keeps its index on disk (see EnginePersistence). */
  readonly persistence?: EnginePersistence;
}

/** What opening persisted segments gave: the ids to refresh from the store, or why a rebuild is needed. */
export type OpenResult =
  | { readonly loaded: true; readonly tail: ReadonlyMap<IndexName, readonly string[]>; readonly documents: number; readonly ms: number }
  | { readonly loaded: false; readonly reason: string };

export interface CheckpointInfo {
  readonly generation: number;
  readonly bytes: number;
  readonly ms: number;
}

/**
 * An engine index kept on disk as immutable segments plus a journal of the ids written since
 * (docs/ARCHITECTURE.md, "Engine segments"). The store stays the truth: the journal names the
 * documents to re-read from it after a restart, and is written before the store is.
 */
export interface EnginePersistence {
  readonly dir: string;
  /** Records that `ids` are about to be written to the store; durable when this returns. */
  journal(index: IndexName, ids: readonly string[]): void;
  /**
   * journal() without blocking this thread on the disk: recorded at once, durable when the
   * promise resolves; successive calls resolve in call order. Undefined when it journaled
   * synchronously instead (durable already).
   */
  journalDurably?(index: IndexName, ids: readonly string[]): Promise<void> | undefined;
  /**
   * Declares that this process writes the store and never opens the engine (CLI commands):
   * journal() then only names ids, and open() is refused.
   */
  storeOnly(): void;
  /** Records a write whose documents are unknown: the next open reloads the whole store. */
  journalUnknown(): void;
  /** The engine now reflects the store for `ids` (journaled earlier): a checkpoint may forget them. */
  applied(index: IndexName, ids: readonly string[]): void;
  /** Ids journaled by this process since the last checkpoint. */
  readonly pending: number;
  /**
   * Loads the persisted segments into the (empty) engine and lists the ids journaled since, by
   * any process, for the caller to refresh from the store. When there are no usable segments
   * the engine stays empty, for the caller to rebuild from the store, and the reason is given.
   */
  open(): OpenResult;
  /** True once open() has run: only then does the engine hold everything and may be checkpointed. */
  readonly opened: boolean;
  /** Writes the current state as new segments and drops the journals they cover. */
  checkpoint(): CheckpointInfo;
  /** Called when a damaged segment was met: the engine is empty and answers nothing until rebuilt(). */
  onCorrupt(listener: (err: Error) => void): void;
  /** Ids journaled since the engine was emptied after damage (refreshed last by the rebuild). */
  journaledSinceBroken(): ReadonlyMap<IndexName, readonly string[]>;
  rebuilt(): void;
  /** Empties the engine after open(), for a reload of the whole store. */
  reset(): void;
  /**
   * Right after a checkpoint with nothing changed since: serves from the segments just written
   * instead of the in-memory state that produced them (a restart's memory instead of a load's).
   */
  reopen(): boolean;
  /** Set from a damaged segment until rebuilt(). */
  readonly broken: Error | undefined;
}

/**
 * The key that orders documents of an index when no sort is given and breaks ties otherwise.
 * Hosts: the IP in canonical sortable form, then `+name` for a virtual host (so a virtual host
 * follows its IP); certificates: the fingerprint.
 */
export { orderKeyFor } from './order-key.ts';
