/**
 * The naive evaluator: documents in a Map, every query answered by scanning them and reading
 * values with model/values-of.ts. It is the executable form of query/resolved.ts and
 * engine/search-engine.ts, against which the real engines are checked; speed is not a goal.
 */
import type { FieldCatalogue, FieldDef, IndexName } from '../../model/field-def.ts';
import type { ResolvedQuery } from '../../query/resolved.ts';
import { elementsOf, hasValueAt, relativePath, valuesOf } from '../../model/values-of.ts';
import { orderKeyFor } from '../order-key.ts';
import type {
  AggregateRequest,
  AggregateResult,
  Doc,
  SearchEngine,
  SearchHit,
  SearchRequest,
  SearchResult,
  SortSpec,
} from '../search-engine.ts';
import { keyString, positionValue, typedValue, type Typed } from './typed-value.ts';
import { cachedValueTest } from './value-test.ts';
import { fulltextAlternatives } from './fulltext-fields.ts';
import { comparePositions, cursorValue, type PositionValue } from './sort-position.ts';
import { compareBuckets, type Bucket } from './buckets.ts';
import { nestedRootOf } from './nested-root.ts';

export interface EngineCatalogues {
  readonly hosts: FieldCatalogue;
  readonly certificates: FieldCatalogue;
}

/** Typed values of `field` read at `path` under `node`, in document order. */
function typedValues(node: unknown, path: string, field: FieldDef): Typed[] {
  const out: Typed[] = [];
  for (const leaf of valuesOf(node, path)) {
    const t = typedValue(field.type, leaf);
    if (t !== undefined) out.push(t);
  }
  return out;
}

function exists(node: unknown, path: string): boolean {
  // An element's own path is '' (the nested root itself): any leaf inside it.
  return path === '' ? hasValueAt({ node }, 'node') : hasValueAt(node, path);
}

export class ReferenceEngine implements SearchEngine {
  readonly name = 'reference';
  private readonly docs: Record<IndexName, Map<string, Doc>> = { hosts: new Map(), certificates: new Map() };

  constructor(private readonly catalogues: EngineCatalogues) {}

  upsert(index: IndexName, id: string, doc: Doc): void {
    this.docs[index].set(id, doc);
  }

  remove(index: IndexName, id: string): void {
    this.docs[index].delete(id);
  }

  size(index: IndexName): number {
    return this.docs[index].size;
  }

  async close(): Promise<void> {}

  /** `element` is set while evaluating inside `nested`: nested fields are then read relative to it. */
  private matches(cat: FieldCatalogue, q: ResolvedQuery, doc: Doc, element?: { root: string; node: unknown }): boolean {
    switch (q.kind) {
      case 'all':
        return true;
      case 'none':
        return false;
      case 'and':
        return q.children.every((c) => this.matches(cat, c, doc, element));
      case 'or':
        return q.children.some((c) => this.matches(cat, c, doc, element));
      case 'not':
        return !this.matches(cat, q.child, doc, element);
      case 'nested':
        // Already inside an element of this root: the inner group constrains that same element.
        if (!cat.nestedRoots.includes(q.root)) return false;
        if (element && element.root === q.root) return this.matches(cat, q.child, doc, element);
        return elementsOf(doc, q.root).some((node) => this.matches(cat, q.child, doc, { root: q.root, node }));
      case 'fulltext':
        return fulltextAlternatives(q, cat).some((c) => this.matches(cat, c, doc, element));
      case 'field': {
        const { field, predicate } = q;
        let node: unknown = doc;
        let path = field.docPath;
        const root = nestedRootOf(cat, path);
        if (element && root === element.root) {
          node = element.node;
          path = path === root ? '' : relativePath(path, root);
        }
        if (predicate.op === 'exists') return exists(node, path);
        const test = cachedValueTest(field.type, predicate);
        return typedValues(node, path, field).some(test);
      }
    }
  }

  private sortValues(cat: FieldCatalogue, doc: Doc, sort: readonly SortSpec[]): PositionValue[] {
    return sort.map((s) => {
      const field = cat.get(s.field);
      if (!field) return null;
      const first = typedValues(doc, field.docPath, field)[0];
      return first === undefined ? null : positionValue(first);
    });
  }

  search(index: IndexName, request: SearchRequest): SearchResult {
    const cat = this.catalogues[index];
    const sort = request.sort ?? [];
    const hits: { id: string; values: PositionValue[]; orderKey: string }[] = [];
    for (const [id, doc] of this.docs[index]) {
      if (!this.matches(cat, request.query, doc)) continue;
      hits.push({ id, values: this.sortValues(cat, doc, sort), orderKey: orderKeyFor(index, id) });
    }
    hits.sort((a, b) => comparePositions(a, b, sort) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const after = request.after && {
      values: sort.map((s, i) => cursorValue(cat.get(s.field)?.type, request.after!.values[i])),
      orderKey: request.after.orderKey,
    };
    const cmpAfter = (h: (typeof hits)[number]): number => (after ? comparePositions(h, after, sort) : 1);
    let start: number;
    let end: number;
    let more: boolean;
    if (!request.backwards) {
      start = hits.findIndex((h) => cmpAfter(h) > 0);
      if (start < 0) start = hits.length;
      end = Math.min(hits.length, start + request.limit);
      more = end < hits.length;
    } else {
      end = after ? hits.findIndex((h) => cmpAfter(h) >= 0) : hits.length;
      if (end < 0) end = hits.length;
      start = Math.max(0, end - request.limit);
      more = start > 0;
    }
    const page: SearchHit[] = hits
      .slice(start, end)
      .map((h) => ({ id: h.id, position: { values: h.values, orderKey: h.orderKey } }));
    return { total: hits.length, hits: page, more };
  }

  aggregate(index: IndexName, request: AggregateRequest): AggregateResult {
    const cat = this.catalogues[index];
    const field = cat.get(request.field);
    if (!field) return { total: 0, totalOmitted: 0, buckets: [] };
    const root = nestedRootOf(cat, field.docPath);
    const counts = new Map<string, number>();
    let total = 0;
    const count = (node: unknown, path: string): void => {
      const keys = new Set(typedValues(node, path, field).map((t) => keyString(field.type, t)));
      if (keys.size === 0) return;
      total++;
      for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
    };
    for (const doc of this.docs[index].values()) {
      if (!this.matches(cat, request.query, doc)) continue;
      if (root === undefined) count(doc, field.docPath);
      else {
        const rel = field.docPath === root ? '' : relativePath(field.docPath, root);
        for (const el of elementsOf(doc, root)) count(el, rel);
      }
    }
    const all: Bucket[] = [...counts].map(([key, c]) => ({ key, count: c }));
    all.sort(compareBuckets);
    const buckets = all.slice(0, request.numBuckets);
    const shown = buckets.reduce((s, b) => s + b.count, 0);
    const counted = all.reduce((s, b) => s + b.count, 0);
    return { total, totalOmitted: counted - shown, buckets };
  }
}
