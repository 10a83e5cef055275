/**
 * RFC 6902 patch that turns `a` into `b` (add/remove/replace only). Arrays are compared element
 * by element, so a changed banner on service 0 is one `replace` at `/services/0/banner`.
 */
export interface PatchOp {
  op: 'add' | 'remove' | 'replace';
  path: string;
  value?: unknown;
}

function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function diffJson(a: unknown, b: unknown, path = '', out: PatchOp[] = []): PatchOp[] {
  if (equal(a, b)) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    const common = Math.min(a.length, b.length);
    for (let i = 0; i < common; i++) diffJson(a[i], b[i], `${path}/${i}`, out);
    // Remove from the end so the indices of earlier removals stay valid.
    for (let i = a.length - 1; i >= common; i--) out.push({ op: 'remove', path: `${path}/${i}` });
    for (let i = common; i < b.length; i++) out.push({ op: 'add', path: `${path}/${i}`, value: b[i] });
    return out;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of Object.keys(a)) {
      if (!(key in b)) out.push({ op: 'remove', path: `${path}/${escape(key)}` });
    }
    for (const key of Object.keys(b)) {
      const p = `${path}/${escape(key)}`;
      if (!(key in a)) out.push({ op: 'add', path: p, value: b[key] });
      else diffJson(a[key], b[key], p, out);
    }
    return out;
  }
  out.push({ op: 'replace', path: path === '' ? '' : path, value: b });
  return out;
}

/** Applies a patch produced by diffJson (used by tests to check diffs round-trip). */
export function applyPatch(doc: unknown, ops: readonly PatchOp[]): unknown {
  let root = structuredClone(doc);
  for (const op of ops) {
    if (op.path === '') {
      root = structuredClone(op.value);
      continue;
    }
    const parts = op.path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let node = root as Record<string, unknown> | unknown[];
    for (const part of parts.slice(0, -1)) node = (node as Record<string, unknown>)[part] as Record<string, unknown>;
    const last = parts[parts.length - 1];
    if (Array.isArray(node)) {
      const i = Number(last);
      if (op.op === 'remove') node.splice(i, 1);
      else if (op.op === 'add') node.splice(i, 0, structuredClone(op.value));
      else node[i] = structuredClone(op.value);
    } else if (op.op === 'remove') delete node[last];
    else node[last] = structuredClone(op.value);
  }
  return root;
}
