/**
 * Inventory aggregation (contract §2B.8; the response shape is ours, docs/API.md). An aggregation
 * is a tree: each node is one of term, rareTerm, cardinality, filter, nested, reverseNested, and
 * term/rareTerm buckets, filter, nested and reverseNested may hold a child `aggregation` that is
 * computed within them ("counts within counts").
 *
 * Nodes work on units: an asset, or one element of a nested list (a host's service) once `nested`
 * has stepped into it. A term counts each unit once per distinct value; inside `nested` a field of
 * that list is read from the element only, so `port` and `service_name` pair up per service.
 */
import type { FieldCatalogue, FieldDef } from '../../model/field-def.ts';
import { elementsOf, relativePath, valuesOf } from '../../model/values-of.ts';
import { keyString, typedValue } from '../../engine/reference/index.ts';
import { compareBuckets } from '../../engine/reference/buckets.ts';
import { nestedRootOf } from '../../engine/reference/nested-root.ts';
import { fail, ok, type Problem, type Result } from '../../lib/problem.ts';
import type { AsmContext } from '../asm-context.ts';
import { inventoryCatalogue } from './inventory-catalogue.ts';
import { compileInventoryQuery } from './compile-inventory-query.ts';
import type { InventoryEntry } from './inventory-documents.ts';
import type { InventoryEngine } from './inventory-engine.ts';
import { inventoryEngine } from './inventory-cache.ts';
import { workspacesOf } from './search-inventory.ts';

export const MAX_AGGREGATION_BUCKETS = 1000;
const MAX_AGGREGATION_DEPTH = 5;
const KINDS = ['term', 'rareTerm', 'cardinality', 'filter', 'nested', 'reverseNested'] as const;
type Kind = (typeof KINDS)[number];

/** A checked aggregation node. */
type AggNode =
  | { kind: 'term'; field: FieldDef; buckets: number; child?: AggNode }
  | { kind: 'rareTerm'; field: FieldDef; maxCount: number; buckets: number; child?: AggNode }
  | { kind: 'cardinality'; field: FieldDef }
  | { kind: 'filter'; query: string; keys: Set<string>; child?: AggNode }
  | { kind: 'nested'; path: string; child?: AggNode }
  | { kind: 'reverseNested'; child?: AggNode };

interface Unit {
  readonly entry: InventoryEntry;
  /** Set inside `nested`: the element of `root` this unit is. */
  readonly element?: { readonly root: string; readonly node: unknown };
}

export interface InventoryAggregateInput {
  readonly workspaces?: readonly string[];
  readonly query?: string | null;
  readonly aggregation?: unknown;
}

const bad = (message: string, at: string): Problem => ({ code: 'invalid_request', message: `aggregation${at}: ${message}`, details: [{ path: `aggregation${at}`, message }] });

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class Checker {
  constructor(
    private readonly cat: FieldCatalogue,
    private readonly engine: InventoryEngine,
    private readonly now: Date,
  ) {}

  private field(spec: Record<string, unknown>, at: string): FieldDef {
    if (typeof spec.field !== 'string' || spec.field.trim() === '') throw bad("'field' must be a field name", at);
    const def = this.cat.get(spec.field.trim());
    if (!def) {
      const s = this.cat.suggest(spec.field);
      throw bad(`unknown field '${spec.field}'.${s ? ` Did you mean '${s}'?` : ''}`, at);
    }
    if (!def.aggregatable) throw bad(`field '${def.path}' cannot be aggregated`, at);
    return def;
  }

  private count(spec: Record<string, unknown>, name: string, fallback: number, max: number, at: string): number {
    const v = spec[name];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) throw bad(`'${name}' must be an integer from 1 to ${max}`, at);
    return v;
  }

  node(raw: unknown, at: string, depth: number): AggNode {
    if (!isObject(raw)) throw bad('must be an object with one of ' + KINDS.join(', '), at);
    if (depth > MAX_AGGREGATION_DEPTH) throw bad(`aggregations nest at most ${MAX_AGGREGATION_DEPTH} deep`, at);
    const kinds = Object.keys(raw).filter((k): k is Kind => (KINDS as readonly string[]).includes(k));
    const others = Object.keys(raw).filter((k) => !(KINDS as readonly string[]).includes(k) && k !== 'aggregation');
    if (kinds.length !== 1 || others.length > 0) {
      throw bad(`must hold exactly one of ${KINDS.join(', ')} (and optionally 'aggregation'); got ${Object.keys(raw).join(', ') || 'nothing'}`, at);
    }
    const kind = kinds[0];
    const spec = raw[kind] ?? {};
    const here = `${at}.${kind}`;
    if (!isObject(spec)) throw bad('must be an object', here);
    // The child may sit inside the kind's object or beside it.
    if (spec.aggregation !== undefined && raw.aggregation !== undefined) throw bad("give 'aggregation' once", here);
    const childRaw = spec.aggregation ?? raw.aggregation;
    const child = (): AggNode | undefined => (childRaw === undefined || childRaw === null ? undefined : this.node(childRaw, `${here}.aggregation`, depth + 1));
    switch (kind) {
      case 'term':
        return { kind, field: this.field(spec, here), buckets: this.count(spec, 'numberOfBuckets', 50, MAX_AGGREGATION_BUCKETS, here), child: child() };
      case 'rareTerm':
        return {
          kind,
          field: this.field(spec, here),
          maxCount: this.count(spec, 'maxCount', 1, Number.MAX_SAFE_INTEGER, here),
          buckets: this.count(spec, 'numberOfBuckets', MAX_AGGREGATION_BUCKETS, MAX_AGGREGATION_BUCKETS, here),
          child: child(),
        };
      case 'cardinality':
        if (childRaw !== undefined) throw bad('cardinality takes no child aggregation', here);
        return { kind, field: this.field(spec, here) };
      case 'filter': {
        if (typeof spec.query !== 'string') throw bad("'query' must be a query string", here);
        const q = compileInventoryQuery(spec.query, this.now);
        if (!q.ok) throw { ...q.problem, message: `aggregation${here}: ${q.problem.message}` } satisfies Problem;
        return { kind, query: spec.query, keys: new Set(this.engine.matching(q.value).map((e) => e.key)), child: child() };
      }
      case 'nested': {
        const path = typeof spec.path === 'string' ? spec.path.trim().toLowerCase() : '';
        const root = this.cat.nestedRoots.find((r) => r.toLowerCase() === path);
        if (!root) throw bad(`'path' must be one of ${this.cat.nestedRoots.join(', ')}`, here);
        return { kind, path: root, child: child() };
      }
      case 'reverseNested':
        return { kind, child: child() };
    }
  }
}

function valuesIn(cat: FieldCatalogue, unit: Unit, field: FieldDef): Set<string> {
  let node: unknown = unit.entry.doc;
  let path = field.docPath;
  const root = nestedRootOf(cat, path);
  if (unit.element && root === unit.element.root) {
    node = unit.element.node;
    path = path === root ? '' : relativePath(path, root);
  }
  const keys = new Set<string>();
  for (const leaf of path === '' ? [] : valuesOf(node, path)) {
    const t = typedValue(field.type, leaf);
    if (t !== undefined) keys.add(keyString(field.type, t));
  }
  return keys;
}

function distinctEntries(units: readonly Unit[]): Unit[] {
  const seen = new Set<string>();
  const out: Unit[] = [];
  for (const u of units) {
    if (seen.has(u.entry.key)) continue;
    seen.add(u.entry.key);
    out.push({ entry: u.entry });
  }
  return out;
}

function evaluate(cat: FieldCatalogue, node: AggNode, units: readonly Unit[]): Record<string, unknown> {
  const sub = (child: AggNode | undefined, within: readonly Unit[]) => (child ? { aggregation: evaluate(cat, child, within) } : {});
  switch (node.kind) {
    case 'term':
    case 'rareTerm': {
      const groups = new Map<string, Unit[]>();
      let total = 0;
      for (const u of units) {
        const keys = valuesIn(cat, u, node.field);
        if (keys.size > 0) total++;
        for (const k of keys) {
          const g = groups.get(k);
          if (g) g.push(u);
          else groups.set(k, [u]);
        }
      }
      let all = [...groups].map(([key, g]) => ({ key, count: g.length }));
      if (node.kind === 'term') all.sort(compareBuckets);
      else all = all.filter((b) => b.count <= node.maxCount).sort((a, b) => a.count - b.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const shown = all.slice(0, node.buckets);
      const buckets = shown.map((b) => ({ key: b.key, count: b.count, ...sub(node.child, groups.get(b.key)!) }));
      if (node.kind === 'rareTerm') return { rareTerm: { field: node.field.path, maxCount: node.maxCount, buckets } };
      const counted = all.reduce((s, b) => s + b.count, 0);
      const inShown = shown.reduce((s, b) => s + b.count, 0);
      return { term: { field: node.field.path, total, totalOmitted: counted - inShown, buckets } };
    }
    case 'cardinality': {
      const keys = new Set<string>();
      for (const u of units) for (const k of valuesIn(cat, u, node.field)) keys.add(k);
      return { cardinality: { field: node.field.path, value: keys.size } };
    }
    case 'filter': {
      const kept = units.filter((u) => node.keys.has(u.entry.key));
      return { filter: { query: node.query, count: kept.length, ...sub(node.child, kept) } };
    }
    case 'nested': {
      const elements: Unit[] = [];
      for (const u of distinctEntries(units)) {
        for (const el of elementsOf(u.entry.doc, node.path)) elements.push({ entry: u.entry, element: { root: node.path, node: el } });
      }
      return { nested: { path: node.path, count: elements.length, ...sub(node.child, elements) } };
    }
    case 'reverseNested': {
      const assets = distinctEntries(units);
      return { reverseNested: { count: assets.length, ...sub(node.child, assets) } };
    }
  }
}

export interface InventoryAggregateResult {
  totalHits: number;
  queryDurationMillis: number;
  aggregation: Record<string, unknown> | null;
}

export async function aggregateInventory(ctx: AsmContext, callerWorkspace: string, input: InventoryAggregateInput): Promise<Result<InventoryAggregateResult>> {
  const started = performance.now();
  const workspace = workspacesOf(callerWorkspace, input.workspaces);
  if (!workspace.ok) return workspace;
  if (input.query !== undefined && input.query !== null && typeof input.query !== 'string') return fail('invalid_request', 'query must be a string or null');
  const query = compileInventoryQuery(input.query ?? '', ctx.now());
  if (!query.ok) return query;
  const engine = await inventoryEngine(ctx, workspace.value, false);
  const cat = inventoryCatalogue();
  let tree: AggNode | undefined;
  if (input.aggregation !== undefined && input.aggregation !== null) {
    try {
      tree = new Checker(cat, engine, ctx.now()).node(input.aggregation, '', 1);
    } catch (e) {
      if (e instanceof Error) throw e;
      return { ok: false, problem: e as Problem };
    }
  }
  const matched = engine.matching(query.value);
  return ok({
    totalHits: matched.length,
    queryDurationMillis: Math.round(performance.now() - started),
    aggregation: tree ? evaluate(cat, tree, matched.map((entry) => ({ entry }))) : null,
  });
}
