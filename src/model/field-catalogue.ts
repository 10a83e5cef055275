/**
 * The field catalogue of each index, built once. HTTP-style header maps get dynamic fields:
 * `services.http.response.headers.<name>.headers` (or without the trailing `.headers`) for any
 * header name, reading the value list stored under the canonical key (`Content_Type`).
 *
 * Header values are typed `text`: values such as `nginx/1.18.0 (Ubuntu)` or
 * `text/html; charset=utf-8` are found by one of their words (`headers.server: nginx`), while
 * `=` still compares the whole value.
 */
import type { FieldCatalogue, FieldDef, IndexName } from './field-def.ts';
import { makeCatalogue, makeField } from './make-catalogue.ts';
import type { FieldSpec } from './make-catalogue.ts';
import { hostFields } from './hosts-fields.ts';
import { certificateFields } from './certificates-fields.ts';

const HOST_NESTED_ROOTS: readonly string[] = ['services'];

/**
 * The stored key of a header: each `-`/`_`-separated part capitalised, joined with `_`
 * (`x-frame-options` → `X_Frame_Options`, `WWW-Authenticate` → `Www_Authenticate`). Ingest and
 * query resolution both use it, so a header is found whatever case it was received or typed in.
 */
export function canonicalHeaderKey(name: string): string {
  return name
    .split(/[-_]/)
    .map((part) => (part === '' ? '' : part[0].toUpperCase() + part.slice(1).toLowerCase()))
    .join('_');
}

// A header name as typed in a query path (already lower-cased); `_encoding`, `key` and `value`
// are excluded because the stored maps and the static fields use them.
const HEADER_NAME = /^[a-z0-9][a-z0-9_-]*$/;
const RESERVED_HEADER_NAMES = new Set(['key', 'value']);

/** Roots of header maps: every listed `<root>.key` field whose root ends in `headers`. */
function headerRoots(specs: readonly FieldSpec[]): string[] {
  return specs
    .map((s) => s.path)
    .filter((p) => p.endsWith('.headers.key'))
    .map((p) => p.slice(0, -'.key'.length).toLowerCase());
}

/** Resolves `<root>.<name>[.headers]` for every header map root. */
function headerResolver(
  specs: readonly FieldSpec[],
  nestedRoots: readonly string[],
): (lowerPath: string) => FieldDef | undefined {
  const roots = headerRoots(specs);
  // Fresh FieldDefs per lookup would defeat identity-keyed caches downstream; the cap bounds
  // memory against arbitrary query text.
  const cache = new Map<string, FieldDef | undefined>();
  const resolve = (lowerPath: string): FieldDef | undefined => {
    for (const root of roots) {
      if (!lowerPath.startsWith(root + '.')) continue;
      let name = lowerPath.slice(root.length + 1);
      if (name.endsWith('.headers')) name = name.slice(0, -'.headers'.length);
      if (!HEADER_NAME.test(name) || RESERVED_HEADER_NAMES.has(name)) return undefined;
      return makeField(
        { path: lowerPath, type: 'text', docPath: `${root}.${canonicalHeaderKey(name)}` },
        nestedRoots,
      );
    }
    return undefined;
  };
  return (lowerPath) => {
    if (cache.has(lowerPath)) return cache.get(lowerPath);
    const def = resolve(lowerPath);
    if (cache.size >= 10_000) cache.clear();
    cache.set(lowerPath, def);
    return def;
  };
}

function build(index: IndexName): FieldCatalogue {
  if (index === 'hosts') {
    return makeCatalogue('hosts', hostFields, HOST_NESTED_ROOTS, headerResolver(hostFields, HOST_NESTED_ROOTS));
  }
  return makeCatalogue('certificates', certificateFields, []);
}

const built = new Map<IndexName, FieldCatalogue>();

/** The catalogue of `index` (built on first use, then shared). */
export function catalogueFor(index: IndexName): FieldCatalogue {
  let c = built.get(index);
  if (!c) {
    c = build(index);
    built.set(index, c);
  }
  return c;
}
