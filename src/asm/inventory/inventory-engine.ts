/**
 * The workspace's inventory loaded into the reference evaluator over the inventory catalogue.
 * Built per request from the store: a workspace holds thousands of assets, not millions, and
 * this keeps query semantics, sorting and cursors identical to the Search API's.
 */
import { ReferenceEngine } from '../../engine/reference/index.ts';
import type { SearchHit, SortSpec } from '../../engine/search-engine.ts';
import type { ResolvedQuery } from '../../query/resolved.ts';
import type { SortPosition } from '../../engine/search-engine.ts';
import { inventoryCatalogue } from './inventory-catalogue.ts';
import type { InventoryEntry } from './inventory-documents.ts';

// The evaluator keeps two indexes; the inventory uses one, keyed so its order key is the entry key.
const INDEX = 'certificates';

export class InventoryEngine {
  readonly #engine: ReferenceEngine;
  readonly #entries = new Map<string, InventoryEntry>();

  constructor(entries: readonly InventoryEntry[]) {
    const cat = inventoryCatalogue();
    this.#engine = new ReferenceEngine({ hosts: cat, certificates: cat });
    for (const e of entries) {
      this.#entries.set(e.key, e);
      this.#engine.upsert(INDEX, e.key, e.doc);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  entry(key: string): InventoryEntry | undefined {
    return this.#entries.get(key);
  }

  page(
    query: ResolvedQuery,
    sort: readonly SortSpec[],
    limit: number,
    after?: SortPosition,
    backwards = false,
  ): { total: number; hits: readonly SearchHit[]; more: boolean } {
    return this.#engine.search(INDEX, { query, sort, limit, ...(after ? { after, backwards } : {}) });
  }

  /** Every matching entry, in default order. */
  matching(query: ResolvedQuery): InventoryEntry[] {
    const r = this.#engine.search(INDEX, { query, limit: Math.max(1, this.#entries.size) });
    return r.hits.map((h) => this.#entries.get(h.id)!);
  }
}
