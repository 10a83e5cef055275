/**
 * Evaluates a ResolvedQuery to a bitmap of live documents (or, inside `nested`, of live
 * elements) with bitmap algebra only: `not` is a complement within the live units of the
 * current scope, a nested field outside `nested` maps its matching elements to their
 * documents (equalities inside `nested` may not need to, see sameElementDocs), and a
 * document-level condition inside `nested` holds for every element of the documents that
 * satisfy it. Every function returns a new bitmap the caller may mutate, and releases (bitmap.ts)
 * every bitmap it made and no longer needs: a query leaves nothing for the collector.
 */
import type { FieldDef } from '../../model/field-def.ts';
import type { Predicate, ResolvedQuery } from '../../query/resolved.ts';
import { relativePath } from '../../model/values-of.ts';
import { fulltextAlternatives, type FulltextQuery } from '../reference/fulltext-fields.ts';
import { nestedRootOf } from '../reference/nested-root.ts';
import { andConsuming, andNotConsuming, mapConsuming, orConsuming, release, RoaringBitmap32, type Bitmap } from './bitmap.ts';
import { matchField } from './field-match.ts';
import type { IndexData, NestedPart } from './index-data.ts';
import { sameElementDocs, type ElementCondition } from './same-element-docs.ts';

/** `q` when it is `field: *` on a path of the documents themselves (not nested): that path. */
function docExistencePath(catalogue: IndexData['catalogue'], q: ResolvedQuery): string | undefined {
  if (q.kind !== 'field' || q.predicate.op !== 'exists') return undefined;
  if (nestedRootOf(catalogue, q.field.docPath) !== undefined) return undefined;
  return q.field.docPath;
}

/**
 * Whether the index keeps the documents matching `q` as a bitmap (Evaluator.kept): `*` (every
 * live document) or `not field: *` on a path of the documents (`without` that path).
 */
export function keptQuery(catalogue: IndexData['catalogue'], q: ResolvedQuery): { without: string | undefined } | undefined {
  if (q.kind === 'all') return { without: undefined };
  if (q.kind !== 'not') return undefined;
  const path = docExistencePath(catalogue, q.child);
  return path === undefined ? undefined : { without: path };
}

export class Evaluator {
  constructor(private readonly data: IndexData) {}

  private liveDocs(): Bitmap {
    return this.data.docs.live().clone();
  }

  /**
   * The documents matching `q` when the index keeps exactly them as a bitmap: every live
   * document (`*`), or the live documents without a path (`not name: *`, the hosts API's `*`).
   * Borrowed: the caller neither changes nor releases it. A copy per query and part cost about
   * 9 µs of each part's aggregation over the whole corpus, and was garbage.
   */
  kept(q: ResolvedQuery): Bitmap | undefined {
    const kept = keptQuery(this.data.catalogue, q);
    if (kept === undefined) return undefined;
    return kept.without === undefined ? this.data.docs.live() : this.data.docs.liveWithout(kept.without);
  }

  /** Live documents matching `q`, a bitmap the caller owns. */
  docs(q: ResolvedQuery): Bitmap {
    switch (q.kind) {
      case 'all':
        return this.liveDocs();
      case 'none':
        return new RoaringBitmap32();
      case 'and':
        return this.conjunction(q.children, () => this.liveDocs(), (c) => this.docs(c), true);
      case 'or':
        return this.disjunction(q.children, (c) => this.docs(c), () => new RoaringBitmap32());
      case 'not': {
        const path = this.docExistencePath(q.child);
        return path !== undefined ? this.data.docs.liveWithout(path).clone() : andNotConsuming(this.liveDocs(), this.docs(q.child));
      }
      case 'field':
        return this.fieldDocs(q.field, q.predicate);
      case 'nested': {
        const part = this.data.nested.get(q.root);
        if (!part) return new RoaringBitmap32();
        const conditions = this.elementEqualities(part, q.child);
        if (conditions) return sameElementDocs(part, conditions, this.data.docs.live());
        return mapConsuming(this.elems(part, q.child), (elems) => part.docsOf(elems));
      }
      case 'fulltext':
        return this.fulltextDocs(q);
    }
  }

  /**
   * `q` as equalities on fields of `part` itself, one or a conjunction (what sameElementDocs
   * answers from document-level postings, which serve equalities with one lookup each), or
   * undefined.
   */
  private elementEqualities(part: NestedPart, q: ResolvedQuery): ElementCondition[] | undefined {
    const children = q.kind === 'and' ? q.children : [q];
    const conditions: ElementCondition[] = [];
    for (const c of children) {
      if (c.kind !== 'field' || c.predicate.op !== 'eq') return undefined;
      const path = c.field.docPath;
      if (nestedRootOf(this.data.catalogue, path) !== part.root) return undefined;
      conditions.push({ rel: path === part.root ? '' : relativePath(path, part.root), field: c.field, predicate: c.predicate });
    }
    return conditions.length > 0 ? conditions : undefined;
  }

  /** Live elements of `part` matching `q` (each element on its own). */
  elems(part: NestedPart, q: ResolvedQuery): Bitmap {
    const live = (): Bitmap => part.realLive().clone();
    switch (q.kind) {
      case 'all':
        return live();
      case 'none':
        return new RoaringBitmap32();
      case 'and':
        return this.conjunction(q.children, live, (c) => this.elems(part, c));
      case 'or':
        return this.disjunction(q.children, (c) => this.elems(part, c), () => new RoaringBitmap32());
      case 'not':
        return andNotConsuming(live(), this.elems(part, q.child));
      case 'field': {
        const path = q.field.docPath;
        if (nestedRootOf(this.data.catalogue, path) === part.root) {
          const rel = path === part.root ? '' : relativePath(path, part.root);
          return matchField(part.scope, rel, q.field, q.predicate).andInPlace(part.realLive());
        }
        return mapConsuming(this.fieldDocs(q.field, q.predicate), (docs) => part.elemsOf(docs)).andInPlace(part.realLive());
      }
      case 'nested': {
        if (q.root === part.root) return this.elems(part, q.child);
        return mapConsuming(this.docs(q), (docs) => part.elemsOf(docs)).andInPlace(part.realLive());
      }
      case 'fulltext':
        return this.disjunction(
          fulltextAlternatives(q, this.data.catalogue),
          (c) => this.elems(part, c),
          () => new RoaringBitmap32(),
        );
    }
  }

  /** `ofDocs`: the children are evaluated as documents (not elements of a nested part). */
  private conjunction(children: readonly ResolvedQuery[], all: () => Bitmap, evaluate: (q: ResolvedQuery) => Bitmap, ofDocs = false): Bitmap {
    // Positive children first, then subtract negated ones: no complement is materialised.
    const positive = children.filter((c) => c.kind !== 'not');
    const negative = children.filter((c): c is Extract<ResolvedQuery, { kind: 'not' }> => c.kind === 'not');
    let acc: Bitmap | undefined;
    for (const c of positive) {
      const r = evaluate(c);
      acc = acc ? andConsuming(acc, r) : r;
      if (acc.isEmpty) return acc;
    }
    acc ??= all();
    for (const c of negative) {
      if (acc.isEmpty) break;
      const path = ofDocs ? this.docExistencePath(c.child) : undefined;
      if (path !== undefined) acc.andInPlace(this.data.docs.liveWithout(path));
      else andNotConsuming(acc, evaluate(c.child));
    }
    return acc;
  }

  /**
   * The path of `q` when it is `field: *` on a path of the documents themselves (not nested):
   * a negated condition of a conjunction of documents then intersects with the live documents
   * without that path, kept by the scope, since the accumulator holds live documents only. The
   * hosts API's default `virtual_hosts: EXCLUDE` adds `and not name: *` to every search.
   */
  private docExistencePath(q: ResolvedQuery): string | undefined {
    return docExistencePath(this.data.catalogue, q);
  }

  private disjunction(children: readonly ResolvedQuery[], evaluate: (q: ResolvedQuery) => Bitmap, none: () => Bitmap): Bitmap {
    let acc: Bitmap | undefined;
    for (const c of children) {
      const r = evaluate(c);
      acc = acc ? orConsuming(acc, r) : r;
    }
    return acc ?? none();
  }

  /** Live documents where the field matches on any value (any element for nested fields). */
  fieldDocs(field: FieldDef, predicate: Predicate): Bitmap {
    const path = field.docPath;
    const root = nestedRootOf(this.data.catalogue, path);
    const part = root === undefined ? undefined : this.data.nested.get(root);
    if (part === undefined) return matchField(this.data.docs, path, field, predicate).andInPlace(this.data.docs.live());
    const rel = path === part.root ? '' : relativePath(path, part.root);
    const docs = part.matchDocs(rel, field, predicate, this.data.docs.live());
    if (docs) return docs;
    // Pseudo-elements included: outside `nested` a value anywhere under the root counts.
    const elems = matchField(part.scope, rel, field, predicate);
    return elems.isEmpty ? elems : mapConsuming(elems.andInPlace(part.scope.live()), (e) => part.docsOf(e));
  }

  private fulltextDocs(q: FulltextQuery): Bitmap {
    const ft = this.data.fulltext;
    const acc = ft.keywords.docs(q.text.toLowerCase());
    if (q.tokens.length === 1) orConsuming(acc, ft.tokens.docs(q.tokens[0]));
    const alternatives = fulltextAlternatives(q, this.data.catalogue);
    if (q.tokens.length > 1) {
      // Tokens must co-occur in one value of one field: the combined postings only narrow the
      // candidates, each text field then decides exactly.
      let candidates: Bitmap | undefined;
      for (const t of q.tokens) {
        const docs = ft.tokens.docs(t);
        candidates = candidates ? andConsuming(candidates, docs) : docs;
        if (candidates.isEmpty) break;
      }
      if (candidates && !candidates.isEmpty) {
        for (const alt of alternatives) {
          if (alt.field.type !== 'text') continue;
          orConsuming(acc, this.fieldDocs(alt.field, alt.predicate));
        }
      }
      if (candidates) release(candidates);
    }
    for (const alt of alternatives) {
      // Text and keyword fields were served above; other fullText fields and the IP range here.
      if (alt.field.type === 'text' || (alt.field.type === 'keyword' && alt.predicate.op === 'eq')) continue;
      orConsuming(acc, this.fieldDocs(alt.field, alt.predicate));
    }
    return acc.andInPlace(this.data.docs.live());
  }
}

