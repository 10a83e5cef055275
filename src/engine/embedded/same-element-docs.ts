/**
 * Live documents having one element that meets every one of some conditions on a nested part's
 * own fields (`services: (service_name: HTTP and port: 8080)`), without mapping every matching
 * element to its document when one condition nearly implies the others, as a port often implies
 * its protocol: that mapping, linear in the matches, cost 2 ms at a million hosts.
 *
 * Let B be the condition with the fewest elements, and N its elements that are not live items of
 * the array (pseudo-elements, dead ones) or fail another condition. A live document with an
 * element for each condition (the document-level postings, see NestedDocPostings) but none in N
 * has a B element, which then meets every condition: it matches. Only the documents with an
 * element in N are decided by their elements. When N is not small next to the matching
 * elements, mapping those elements directly is cheaper, and that is done instead.
 */
import type { FieldDef } from '../../model/field-def.ts';
import type { Predicate } from '../../query/resolved.ts';
import { andConsuming, release, RoaringBitmap32, type Bitmap } from './bitmap.ts';
import { matchField } from './field-match.ts';
import type { NestedPart } from './index-data.ts';

export interface ElementCondition {
  /** The field's path relative to the part's root ('' for the root itself). */
  readonly rel: string;
  readonly field: FieldDef;
  readonly predicate: Predicate;
}

/** Elements failing some condition that the shortcut tolerates, per matching element. */
const UNSURE_PER_MATCH = 1 / 4;

/** Live documents (of `liveDocs`) with a live item of the nested array meeting all `conditions` (at least one). */
export function sameElementDocs(part: NestedPart, conditions: readonly ElementCondition[], liveDocs: Bitmap): Bitmap {
  // Dead elements are left in: they belong to dead documents, which the candidates exclude.
  const elems = conditions.map((c) => matchField(part.scope, c.rel, c.field, c.predicate));
  let narrowest = 0;
  for (let i = 1; i < elems.length; i++) if (elems[i].size < elems[narrowest].size) narrowest = i;
  const matching = RoaringBitmap32.and(elems[narrowest], part.realLive());
  for (let i = 0; i < elems.length; i++) if (i !== narrowest) matching.andInPlace(elems[i]);
  const unsure = elems[narrowest].andNotInPlace(matching);
  for (let i = 0; i < elems.length; i++) if (i !== narrowest) release(elems[i]);
  try {
    if (unsure.size > matching.size * UNSURE_PER_MATCH) return part.docsOf(matching);
    const candidates = part.matchDocs(conditions[0].rel, conditions[0].field, conditions[0].predicate, liveDocs)!;
    for (let i = 1; i < conditions.length && !candidates.isEmpty; i++) {
      const c = conditions[i];
      andConsuming(candidates, part.matchDocs(c.rel, c.field, c.predicate, liveDocs)!);
    }
    if (unsure.isEmpty || candidates.isEmpty) return candidates;
    const undecided = part.docsOf(unsure).andInPlace(candidates);
    if (!undecided.isEmpty) {
      const theirElems = part.elemsOf(undecided);
      const decided = part.docsOf(matching.andInPlace(theirElems));
      candidates.andNotInPlace(undecided).orInPlace(decided);
      release(theirElems);
      release(decided);
    }
    release(undecided);
    return candidates;
  } finally {
    // Bitmaps made here and not returned are released (bitmap.ts, release).
    release(matching);
    release(unsure);
  }
}
