/**
 * The resolved query: what the parser's AST becomes once every field is looked up in the field
 * catalogue and every value is typed. It is the only thing engines (and the reference
 * evaluator) receive, so its semantics are written down here, once.
 */
import type { FieldDef } from '../model/field-def.ts';

/**
 * A condition on the values of one field.
 *
 * Values of a field in a document are every leaf found at its docPath (arrays traversed).
 * A document (or, inside `nested`, one element) matches a predicate when ANY of its values does;
 * `exists` matches when there is at least one non-null value (for object prefixes: any field
 * under the prefix has a value).
 *
 * - eq:       keyword/text: whole value equals `value`; caseSensitive=false compares lower-cased.
 *             int/float: numeric equality; bool: equality; ip: canonical equality (lib/ip.ts
 *             `ipKey`); date: equality in epoch ms.
 * - tokens:   text fields only: every token (already lower-cased by model/tokenize.ts) occurs
 *             among the value's tokens; with phrase=true they occur consecutively in that order.
 * - range:    numbers (int/float), dates (epoch ms), ips (`ipKey` strings, compared as strings),
 *             keyword/text (compared as strings, case-sensitive). Missing bound = open.
 * - wildcard: whole-value glob, `*` = any run, `?` = one character; case-insensitive unless
 *             caseSensitive. On text fields it matches the whole value OR any single token.
 * - regex:    whole-value (anchored) JavaScript regular expression source; case-insensitive
 *             unless caseSensitive. On text fields it matches the whole value OR any token.
 */
export type Predicate =
  | { readonly op: 'exists' }
  | { readonly op: 'eq'; readonly value: string | number | boolean; readonly caseSensitive: boolean }
  | { readonly op: 'tokens'; readonly tokens: readonly string[]; readonly phrase: boolean }
  | {
      readonly op: 'range';
      readonly lo?: number | string;
      readonly hi?: number | string;
      readonly loInclusive: boolean;
      readonly hiInclusive: boolean;
    }
  | { readonly op: 'wildcard'; readonly pattern: string; readonly caseSensitive: boolean }
  | { readonly op: 'regex'; readonly source: string; readonly caseSensitive: boolean };

/**
 * - all:      every document (empty query, `*`).
 * - none:     no document.
 * - field:    predicate on one field (`field.path` may also be an object prefix, only with `exists`).
 *             A field with `nested` outside a `nested` node matches when ANY element matches
 *             (so `services.port: 22 and services.service_name: HTTP` may match two elements).
 * - nested:   `services: (...)` / `same_service(...)`: true when ONE element of the nested array
 *             satisfies `child` entirely. Inside, `not` is evaluated per element.
 * - fulltext: bare term: OR over every catalogue field with fullText=true of
 *             `tokens` (text fields) / case-insensitive `eq` (keyword fields) on `text`; when the
 *             term is an IP or CIDR, `ipRange` also matches the document's `ip` field (hosts).
 */
export type ResolvedQuery =
  | { readonly kind: 'all' }
  | { readonly kind: 'none' }
  | { readonly kind: 'and'; readonly children: readonly ResolvedQuery[] }
  | { readonly kind: 'or'; readonly children: readonly ResolvedQuery[] }
  | { readonly kind: 'not'; readonly child: ResolvedQuery }
  | { readonly kind: 'field'; readonly field: FieldDef; readonly predicate: Predicate }
  | { readonly kind: 'nested'; readonly root: 'services'; readonly child: ResolvedQuery }
  | {
      readonly kind: 'fulltext';
      readonly text: string;
      readonly tokens: readonly string[];
      readonly phrase: boolean;
      readonly ipRange?: { readonly lo: string; readonly hi: string };
    };
