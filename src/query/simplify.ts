/**
 * Constructors that keep resolved queries small and canonical: nested and/or are flattened,
 * `all`/`none` are absorbed, double negation disappears. They hold per element inside `nested`
 * too, since there `not` is evaluated per element.
 */
import type { ResolvedQuery } from './resolved.ts';

const ALL: ResolvedQuery = { kind: 'all' };
const NONE: ResolvedQuery = { kind: 'none' };

export function andOf(children: readonly ResolvedQuery[]): ResolvedQuery {
  const out: ResolvedQuery[] = [];
  for (const c of children) {
    if (c.kind === 'none') return NONE;
    if (c.kind === 'all') continue;
    if (c.kind === 'and') out.push(...c.children);
    else out.push(c);
  }
  if (out.length === 0) return ALL;
  return out.length === 1 ? out[0] : { kind: 'and', children: out };
}

export function orOf(children: readonly ResolvedQuery[]): ResolvedQuery {
  const out: ResolvedQuery[] = [];
  for (const c of children) {
    if (c.kind === 'all') return ALL;
    if (c.kind === 'none') continue;
    if (c.kind === 'or') out.push(...c.children);
    else out.push(c);
  }
  if (out.length === 0) return NONE;
  return out.length === 1 ? out[0] : { kind: 'or', children: out };
}

export function notOf(child: ResolvedQuery): ResolvedQuery {
  if (child.kind === 'all') return NONE;
  if (child.kind === 'none') return ALL;
  if (child.kind === 'not') return child.child;
  return { kind: 'not', child };
}
