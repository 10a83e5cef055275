/**
 * One walk over a document (or a nested element) gathering what the index needs: the leaves at
 * every addressable path, in document order, and every path (with its prefixes) under which
 * some leaf exists. Addressable means model/values-of.ts could reach it: a key containing a dot
 * cannot be named by a dotted path, so leaves below it only count for existence of its parents.
 */
import type { Leaf } from '../../model/values-of.ts';

export interface CollectedLeaves {
  readonly leaves: Map<string, Leaf[]>;
  /** Paths holding a leaf, with all their prefixes, and '' when the node holds any leaf. */
  readonly present: Set<string>;
}

function markPresent(present: Set<string>, anchor: string): void {
  let p = anchor;
  for (;;) {
    if (present.has(p)) return; // its prefixes were marked with it
    present.add(p);
    if (p === '') return;
    const dot = p.lastIndexOf('.');
    p = dot < 0 ? '' : p.slice(0, dot);
  }
}

function walk(node: unknown, path: string | null, anchor: string, out: CollectedLeaves, skipTop?: (key: string, value: unknown) => boolean): void {
  if (node === null || node === undefined) return;
  if (Array.isArray(node)) {
    for (const item of node) walk(item, path, anchor, out);
    return;
  }
  if (typeof node === 'object') {
    const obj = node as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const child = obj[key];
      if (skipTop && skipTop(key, child)) continue;
      const addressable = path !== null && !key.includes('.') && !(path === '' && key === '');
      const childPath = addressable ? (path === '' ? key : `${path}.${key}`) : null;
      walk(child, childPath, childPath ?? anchor, out);
    }
    return;
  }
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') {
    if (path !== null) {
      const list = out.leaves.get(path);
      if (list) list.push(node);
      else out.leaves.set(path, [node]);
    }
  }
  // Any other non-null value also counts as "a value" for existence, like model/values-of.ts.
  markPresent(out.present, anchor);
}

/** Leaves and present paths of `node`; `skipTop` drops top-level keys (nested roots indexed as elements). */
export function collectLeaves(node: unknown, skipTop?: (key: string, value: unknown) => boolean): CollectedLeaves {
  const out: CollectedLeaves = { leaves: new Map(), present: new Set() };
  walk(node, '', '', out, skipTop);
  return out;
}
