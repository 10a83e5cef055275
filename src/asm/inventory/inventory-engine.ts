/**
 * The workspace's inventory loaded into the reference evaluator over the inventory catalogue.
 * Built per request from the store (or reused by a paging loop, inventory-cache.ts): a workspace
 * holds thousands of assets, not millions, and this keeps query semantics, sorting and cursors
 * identical to the Search API's.
 *
 * Bare full-text terms are the one slow case of the evaluator here: a term is an OR over the ~900
 * full-text fields of hosts and certificates, each read by walking the document. They are decided
 * up front instead, from each document's values indexed by path once, and the term is replaced by
 * a marker the evaluator can test cheaply; the answer is the same (query/resolved.ts semantics).
 */
import { ReferenceEngine, cachedValueTest, fulltextAlternatives, typedValue } from '../../engine/reference/index.ts';
import type { SearchHit, SortPosition, SortSpec } from '../../engine/search-engine.ts';
import type { FieldDef } from '../../model/field-def.ts';
import type { Leaf } from '../../model/values-of.ts';
import type { ResolvedQuery } from '../../query/resolved.ts';
import { inventoryCatalogue } from './inventory-catalogue.ts';
import { NESTED_SERVICES, type InventoryEntry } from './inventory-documents.ts';

// The evaluator keeps two indexes; the inventory uses one, keyed so its order key is the entry key.
const INDEX = 'certificates';

/** Where a document holds the markers of the full-text terms it matches, during one evaluation. */
const MARKS = '\u0000fulltext';
const MARK_FIELD: FieldDef = { path: MARKS, type: 'keyword', docPath: MARKS, fullText: false, aggregatable: false };

type FulltextQuery = Extract<ResolvedQuery, { kind: 'fulltext' }>;

function collectLeaves(node: unknown, path: string, out: Map<string, Leaf[]>): void {
  if (node === null || node === undefined) return;
  if (Array.isArray(node)) {
    for (const x of node) collectLeaves(x, path, out);
    return;
  }
  if (typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (path === '' && (k === NESTED_SERVICES || k === MARKS)) continue;
      collectLeaves(v, path === '' ? k : `${path}.${k}`, out);
    }
    return;
  }
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') {
    const list = out.get(path);
    if (list) list.push(node);
    else out.set(path, [node]);
  }
}

export class InventoryEngine {
  readonly #engine: ReferenceEngine;
  readonly #entries = new Map<string, InventoryEntry>();
  readonly #leaves = new Map<string, Map<string, Leaf[]>>();
  #evaluation = 0;

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

  #leavesOf(e: InventoryEntry): Map<string, Leaf[]> {
    let m = this.#leaves.get(e.key);
    if (!m) {
      m = new Map();
      collectLeaves(e.doc, '', m);
      this.#leaves.set(e.key, m);
    }
    return m;
  }

  /** The term's alternatives by the document path they read, each with its value test. */
  #alternatives(q: FulltextQuery): Map<string, ((v: Leaf) => boolean)[]> {
    const byPath = new Map<string, ((v: Leaf) => boolean)[]>();
    for (const alt of fulltextAlternatives(q, inventoryCatalogue())) {
      const test = cachedValueTest(alt.field.type, alt.predicate);
      const type = alt.field.type;
      const check = (v: Leaf) => {
        const t = typedValue(type, v);
        return t !== undefined && test(t);
      };
      const list = byPath.get(alt.field.docPath);
      if (list) list.push(check);
      else byPath.set(alt.field.docPath, [check]);
    }
    return byPath;
  }

  // A document has far fewer value paths than there are full-text fields: walk its paths.
  #matchesFulltext(alternatives: Map<string, ((v: Leaf) => boolean)[]>, e: InventoryEntry): boolean {
    for (const [path, values] of this.#leavesOf(e)) {
      const checks = alternatives.get(path);
      if (!checks) continue;
      for (const check of checks) for (const v of values) if (check(v)) return true;
    }
    return false;
  }

  /**
   * Replaces full-text terms outside `nested` by markers written into the matching documents;
   * the caller evaluates and then calls the returned cleanup, all synchronously, so concurrent
   * requests never see each other's markers.
   */
  #prepare(query: ResolvedQuery): { query: ResolvedQuery; cleanup: () => void } {
    const touched = new Set<Record<string, unknown>>();
    const run = ++this.#evaluation;
    let n = 0;
    const rewrite = (q: ResolvedQuery): ResolvedQuery => {
      switch (q.kind) {
        case 'and':
        case 'or':
          return { ...q, children: q.children.map(rewrite) };
        case 'not':
          return { ...q, child: rewrite(q.child) };
        case 'fulltext': {
          const mark = `${run}:${n++}`;
          const alternatives = this.#alternatives(q);
          for (const e of this.#entries.values()) {
            if (!this.#matchesFulltext(alternatives, e)) continue;
            const doc = e.doc as Record<string, unknown>;
            const marks = (doc[MARKS] as string[] | undefined) ?? [];
            marks.push(mark);
            doc[MARKS] = marks;
            touched.add(doc);
          }
          return { kind: 'field', field: MARK_FIELD, predicate: { op: 'eq', value: mark, caseSensitive: true } };
        }
        default:
          // Inside `nested` a term is matched per element: left to the evaluator.
          return q;
      }
    };
    const rewritten = rewrite(query);
    return {
      query: rewritten,
      cleanup: () => {
        for (const doc of touched) delete doc[MARKS];
      },
    };
  }

  page(
    query: ResolvedQuery,
    sort: readonly SortSpec[],
    limit: number,
    after?: SortPosition,
    backwards = false,
  ): { total: number; hits: readonly SearchHit[]; more: boolean } {
    const p = this.#prepare(query);
    try {
      return this.#engine.search(INDEX, { query: p.query, sort, limit, ...(after ? { after, backwards } : {}) });
    } finally {
      p.cleanup();
    }
  }

  /** Every matching entry, in default order. */
  matching(query: ResolvedQuery): InventoryEntry[] {
    const p = this.#prepare(query);
    try {
      const r = this.#engine.search(INDEX, { query: p.query, limit: Math.max(1, this.#entries.size) });
      return r.hits.map((h) => this.#entries.get(h.id)!);
    } finally {
      p.cleanup();
    }
  }
}
