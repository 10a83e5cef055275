/**
 * The correctness gate: every baseline must give Periscope's count, first-page ids and top
 * buckets. A disagreement is reported, never hidden: it means a baseline's SQL (or an engine) is
 * wrong, and its timings would compare different work.
 */
import type { Bucket, SearchAnswer } from './query-mix.ts';

export interface Mismatch {
  readonly kind: 'query' | 'aggregation';
  readonly name: string;
  readonly engine: string;
  readonly detail: string;
}

export function compareSearch(name: string, engine: string, ref: SearchAnswer, got: SearchAnswer): Mismatch[] {
  const out: Mismatch[] = [];
  if (ref.count !== got.count) out.push({ kind: 'query', name, engine, detail: `count ${got.count}, periscope ${ref.count}` });
  const n = Math.max(ref.ids.length, got.ids.length);
  for (let i = 0; i < n; i++) {
    if (ref.ids[i] !== got.ids[i]) {
      out.push({ kind: 'query', name, engine, detail: `id #${i + 1} is ${got.ids[i] ?? '(none)'}, periscope ${ref.ids[i] ?? '(none)'}` });
      break;
    }
  }
  return out;
}

export function compareBuckets(name: string, engine: string, ref: readonly Bucket[], got: readonly Bucket[]): Mismatch[] {
  const n = Math.max(ref.length, got.length);
  for (let i = 0; i < n; i++) {
    const a = ref[i];
    const b = got[i];
    if (a?.key !== b?.key || a?.count !== b?.count) {
      const show = (x: Bucket | undefined) => (x ? `${x.key}=${x.count}` : '(none)');
      return [{ kind: 'aggregation', name, engine, detail: `bucket #${i + 1} is ${show(b)}, periscope ${show(a)} (${got.length} vs ${ref.length} buckets)` }];
    }
  }
  return [];
}
