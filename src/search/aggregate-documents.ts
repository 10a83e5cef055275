import type { IndexName } from '../model/field-def.ts';
import type { Result } from '../lib/problem.ts';
import { fail, ok } from '../lib/problem.ts';
import type { SearchContext } from './search-context.ts';
import { compile, type VirtualHosts } from './compile.ts';

export interface AggregateParams {
  readonly q?: string;
  readonly field: string;
  readonly numBuckets?: number;
  readonly virtualHosts?: VirtualHosts;
}

export interface AggregateReport {
  query: string;
  field: string;
  total: number;
  total_omitted: number;
  potential_deviation: number;
  duration: number;
  duration_ms: number;
  buckets: { key: string; count: number }[];
}

export const MAX_BUCKETS = 1000;

export function aggregateDocuments(ctx: SearchContext, index: IndexName, params: AggregateParams): Result<AggregateReport> {
  const started = performance.now();
  const numBuckets = params.numBuckets ?? 50;
  if (!Number.isInteger(numBuckets) || numBuckets < 1) return fail('invalid_request', 'num_buckets must be a positive integer');
  if (numBuckets > MAX_BUCKETS) return fail('too_many_buckets', `Reports allow for a maximum of ${MAX_BUCKETS} buckets.`);
  const catalogue = ctx.catalogues[index];
  const def = params.field ? catalogue.get(params.field) : undefined;
  if (!def || !def.aggregatable) {
    const s = def ? undefined : catalogue.suggest(params.field ?? '');
    const why = def ? ` '${def.path}' holds free text and cannot be aggregated.` : '';
    return fail('invalid_field', `Invalid field: '${params.field ?? ''}'.${why}${s ? ` Did you mean '${s}'?` : ''}`, s ? { suggestion: s } : {});
  }
  const query = compile(ctx, index, params.q, params.virtualHosts ?? 'EXCLUDE');
  if (!query.ok) return query;
  const r = ctx.engine.aggregate(index, { query: query.value, field: def.path, numBuckets });
  const duration = Math.round(performance.now() - started);
  return ok({
    query: params.q ?? '',
    field: def.path,
    total: r.total,
    total_omitted: r.totalOmitted,
    // One node counts exactly: there is no shard-merge error to report.
    potential_deviation: 0,
    duration,
    duration_ms: duration,
    buckets: r.buckets.map((b) => ({ key: b.key, count: b.count })),
  });
}
