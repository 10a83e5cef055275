/**
 * The shape of one searchable field. The catalogues (hosts-fields.ts, certificates-fields.ts)
 * list every field; query resolution, indexing, `fields` projection and aggregation all read
 * them, so a field's type is decided in exactly one place.
 */
export type IndexName = 'hosts' | 'certificates';

/**
 * - text:    tokenised, case-insensitive token/phrase match with `:`; whole-value, case-sensitive with `=`
 * - keyword: whole-value match, case-insensitive with `:`, case-sensitive with `=`
 * - int / float: numbers; ranges and comparisons
 * - ip:      IPv4/IPv6; equality, CIDR, ranges (values compared in canonical form, see lib/ip.ts)
 * - date:    RFC 3339 timestamps; ranges with `now` arithmetic (values compared as epoch ms)
 * - bool:    true/false
 */
export type FieldType = 'text' | 'keyword' | 'int' | 'float' | 'ip' | 'date' | 'bool';

export interface FieldDef {
  /** Query path, e.g. `services.port`. */
  readonly path: string;
  readonly type: FieldType;
  /**
   * Path of the values inside the document, when it differs from `path` (for example the query
   * field `services.http.response.headers.server.headers` reads document path
   * `services.http.response.headers.Server`). Dotted; arrays are traversed transparently.
   */
  readonly docPath: string;
  /** Set when the field lives inside the nested array `services` (hosts): same-element matching. */
  readonly nested?: 'services';
  /** Searched by bare full-text terms. */
  readonly fullText: boolean;
  /** May be used as the `field` of an aggregate. */
  readonly aggregatable: boolean;
}

export interface FieldCatalogue {
  readonly index: IndexName;
  /** The field for a query path (case-insensitive on the path), or undefined when unknown. */
  get(path: string): FieldDef | undefined;
  /** Every static field, in a stable order. */
  all(): readonly FieldDef[];
  /** The closest known field path, for `Did you mean ...?`. */
  suggest(path: string): string | undefined;
  /** True when `path` is an object prefix of known fields (`services.tls`, `location`): used by existence queries. */
  isPrefix(path: string): boolean;
  /** Names of nested array roots (hosts: ['services']; certificates: []). */
  readonly nestedRoots: readonly string[];
}
