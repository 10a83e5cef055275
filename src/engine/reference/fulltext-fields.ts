/**
 * A bare full-text term is an OR of ordinary field predicates over the catalogue's fullText
 * fields (see query/resolved.ts). Spelling that OR out once keeps both engines on one definition,
 * including inside `nested`, where each alternative is then read per element like any field.
 */
import type { FieldCatalogue } from '../../model/field-def.ts';
import type { ResolvedQuery } from '../../query/resolved.ts';

export type FulltextQuery = Extract<ResolvedQuery, { kind: 'fulltext' }>;
export type FieldQuery = Extract<ResolvedQuery, { kind: 'field' }>;

const cache = new WeakMap<FulltextQuery, WeakMap<FieldCatalogue, FieldQuery[]>>();

/**
 * text fields: tokens (phrase as given); every other fullText field: case-insensitive equality
 * with the raw text; plus, when the term is an IP or CIDR, an inclusive range on the `ip` field.
 */
export function fulltextAlternatives(q: FulltextQuery, catalogue: FieldCatalogue): FieldQuery[] {
  let byCat = cache.get(q);
  if (!byCat) cache.set(q, (byCat = new WeakMap()));
  const known = byCat.get(catalogue);
  if (known) return known;
  const out: FieldQuery[] = [];
  for (const field of catalogue.all()) {
    if (!field.fullText) continue;
    if (field.type === 'text') {
      out.push({ kind: 'field', field, predicate: { op: 'tokens', tokens: q.tokens, phrase: q.phrase } });
    } else {
      out.push({ kind: 'field', field, predicate: { op: 'eq', value: q.text, caseSensitive: false } });
    }
  }
  const ip = catalogue.get('ip');
  if (q.ipRange && ip && ip.type === 'ip') {
    out.push({
      kind: 'field',
      field: ip,
      predicate: { op: 'range', lo: q.ipRange.lo, hi: q.ipRange.hi, loInclusive: true, hiInclusive: true },
    });
  }
  byCat.set(catalogue, out);
  return out;
}
