/**
 * Reading a document by dotted path. Arrays anywhere on the path are traversed, so
 * `services.software.vendor` yields every vendor of every service. These functions define what
 * "the values of a field" are for the engines, the reference evaluator and projection alike.
 */
export type Leaf = string | number | boolean;

function walk(node: unknown, parts: readonly string[], i: number, out: Leaf[]): void {
  if (node === null || node === undefined) return;
  if (Array.isArray(node)) {
    for (const item of node) walk(item, parts, i, out);
    return;
  }
  if (i === parts.length) {
    if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') out.push(node);
    return;
  }
  if (typeof node !== 'object') return;
  walk((node as Record<string, unknown>)[parts[i]], parts, i + 1, out);
}

/** Every leaf value (string, number, boolean) at `path`; objects at the end of the path yield nothing. */
export function valuesOf(doc: unknown, path: string): Leaf[] {
  const out: Leaf[] = [];
  walk(doc, path === '' ? [] : path.split('.'), 0, out);
  return out;
}

function hasAnyLeaf(node: unknown): boolean {
  if (node === null || node === undefined) return false;
  if (Array.isArray(node)) return node.some(hasAnyLeaf);
  if (typeof node === 'object') return Object.values(node as object).some(hasAnyLeaf);
  return true;
}

/** True when something non-null (a leaf, or an object/array holding one) is found at `path`. */
export function hasValueAt(doc: unknown, path: string): boolean {
  const parts = path.split('.');
  const found: unknown[] = [];
  const collect = (node: unknown, i: number): void => {
    if (node === null || node === undefined) return;
    if (Array.isArray(node)) {
      for (const item of node) collect(item, i);
      return;
    }
    if (i === parts.length) {
      found.push(node);
      return;
    }
    if (typeof node === 'object') collect((node as Record<string, unknown>)[parts[i]], i + 1);
  };
  collect(doc, 0);
  return found.some(hasAnyLeaf);
}

/** The elements of a nested array root (`services`), or [] when absent. */
export function elementsOf(doc: unknown, root: string): unknown[] {
  if (doc === null || typeof doc !== 'object') return [];
  const v = (doc as Record<string, unknown>)[root];
  return Array.isArray(v) ? v : [];
}

/** `services.port` relative to root `services` is `port`. */
export function relativePath(path: string, root: string): string {
  return path.startsWith(root + '.') ? path.slice(root.length + 1) : path;
}
