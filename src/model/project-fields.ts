/**
 * The Censys `fields` parameter: a search hit reduced to the requested paths, nested as in the
 * document (`["ip", "services.port"]` → `{ip, services: [{port}, ...]}`).
 */
import type { FieldCatalogue } from './field-def.ts';

interface PathTrie {
  /** A requested path ends here: the whole subtree is kept. */
  whole: boolean;
  children: Map<string, PathTrie>;
}

function buildTrie(paths: readonly string[]): PathTrie {
  const root: PathTrie = { whole: false, children: new Map() };
  for (const path of paths) {
    if (path === '') continue;
    let node = root;
    for (const part of path.split('.')) {
      let next = node.children.get(part);
      if (!next) {
        next = { whole: false, children: new Map() };
        node.children.set(part, next);
      }
      node = next;
    }
    node.whole = true;
  }
  return root;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A copy of `value` without nulls and without the objects and arrays that hold nothing else;
 * undefined when nothing is left. Kept subtrees are copied so a projection never aliases the
 * document it came from.
 */
function pruned(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const p = pruned(item);
      if (p !== undefined) out.push(p);
    }
    return out.length > 0 ? out : undefined;
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    let any = false;
    for (const [k, v] of Object.entries(value)) {
      const p = pruned(v);
      if (p !== undefined) {
        out[k] = p;
        any = true;
      }
    }
    return any ? out : undefined;
  }
  return value;
}

function project(value: unknown, trie: PathTrie): unknown {
  if (trie.whole) return pruned(value);
  if (Array.isArray(value)) {
    // Arrays are traversed transparently (as in valuesOf): each element is projected on the same
    // remaining path, and empty results are dropped without disturbing the others' order.
    const out: unknown[] = [];
    for (const item of value) {
      const p = project(item, trie);
      if (p !== undefined) out.push(p);
    }
    return out.length > 0 ? out : undefined;
  }
  if (!isPlainObject(value)) return undefined;
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [key, child] of trie.children) {
    if (!Object.hasOwn(value, key)) continue;
    const p = project(value[key], child);
    if (p !== undefined) {
      out[key] = p;
      any = true;
    }
  }
  return any ? out : undefined;
}

/**
 * `doc` reduced to `paths` (dotted document paths). Paths under the same array merge per element;
 * a path naming an object keeps its whole subtree; missing paths, nulls and containers left empty
 * are absent from the result. The keys of the result follow the order of `paths`.
 */
export function projectFields(doc: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  const p = project(doc, buildTrie(paths));
  return isPlainObject(p) ? p : {};
}

export type FieldPathsCheck =
  | { readonly ok: true; readonly docPaths: readonly string[] }
  | { readonly ok: false; readonly path: string; readonly suggestion: string | undefined };

/**
 * Checks requested `fields` against the catalogue and maps them to document paths. A path may be
 * a field (dynamic ones included) or an object prefix of fields (`location`, `services.tls`).
 */
export function validateFieldPaths(catalogue: FieldCatalogue, paths: readonly string[]): FieldPathsCheck {
  const docPaths: string[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    const docPath = catalogue.get(path)?.docPath ?? prefixDocPath(catalogue, path);
    if (docPath === undefined) return { ok: false, path, suggestion: catalogue.suggest(path) };
    if (!seen.has(docPath)) {
      seen.add(docPath);
      docPaths.push(docPath);
    }
  }
  return { ok: true, docPaths };
}

/** The document spelling of an object prefix, taken from a field under it (lookups ignore case). */
function prefixDocPath(catalogue: FieldCatalogue, path: string): string | undefined {
  if (!catalogue.isPrefix(path)) return undefined;
  const lower = path.toLowerCase();
  const depth = lower.split('.').length;
  for (const f of catalogue.all()) {
    if (f.path.toLowerCase().startsWith(lower + '.') && f.docPath === f.path) {
      return f.path.split('.').slice(0, depth).join('.');
    }
  }
  return lower;
}
