/**
 * The query thread (query-thread.ts): holds the parts the main thread handed over, each opened
 * read-only from the segments the main thread opened, and answers for all of them together:
 * one page of hits merged over its parts, and an aggregation's counts in two steps (see
 * mergePartGroups). It never writes: the main thread stops handing it a part once that part
 * changes, and tells it to drop the part.
 */
import { receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { IndexName } from '../../model/field-def.ts';
import { catalogueFor } from '../../model/field-catalogue.ts';
import type { ResolvedQuery } from '../../query/resolved.ts';
import type { AggregateRequest, SearchRequest } from '../search-engine.ts';
import type { PartGroups } from './aggregate.ts';
import { EmbeddedEngine } from './embedded-engine.ts';
import { candidatesAt, countOver, mergePages } from './merge-parts.ts';
import type { ThreadData, ThreadReply, ThreadRequest } from './query-thread.ts';
import { CorruptSegmentError } from './segment-codec.ts';
import { remoteTable, tableOf } from './whole-counts.ts';

const { port, signal, options } = workerData as ThreadData;
const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
const parts = new Map<number, EmbeddedEngine>();
/** The last 'groups' request's counts, per part, for the 'counts' request that follows it. */
let lastGroups: PartGroups[] = [];

/** The query's field definitions are clones: this thread's own catalogue's are used. */
function bound(q: ResolvedQuery, index: IndexName): ResolvedQuery {
  switch (q.kind) {
    case 'and':
    case 'or':
      return { kind: q.kind, children: q.children.map((c) => bound(c, index)) };
    case 'not':
      return { kind: 'not', child: bound(q.child, index) };
    case 'nested':
      return { kind: 'nested', root: q.root, child: bound(q.child, index) };
    case 'field':
      return { ...q, field: catalogues[index].get(q.field.path) ?? q.field };
    default:
      return q;
  }
}

function partsOf(keys: readonly number[]): EmbeddedEngine[] {
  return keys.map((k) => {
    const p = parts.get(k);
    if (!p) throw new Error(`query thread holds no part ${k}`);
    return p;
  });
}

function answer(m: ThreadRequest): Omit<ThreadReply, 'seq'> | undefined {
  switch (m.type) {
    case 'open': {
      const opened: number[] = [];
      const failed: { key: number; error: string }[] = [];
      for (const p of m.parts) {
        const engine = new EmbeddedEngine(catalogues, options);
        try {
          engine.openSegments(p.dir, p.segments);
          parts.set(p.key, engine);
          opened.push(p.key);
        } catch (err) {
          void engine.close();
          failed.push({ key: p.key, error: (err as Error).message });
        }
      }
      return { opened, failed };
    }
    case 'search': {
      const request = m.request as SearchRequest;
      const r = { ...request, query: bound(request.query, m.index) };
      const result = mergePages(
        partsOf(m.parts).map((p) => p.searchDocs(m.index, r)),
        r,
      );
      return { total: result.total, more: result.more, ids: result.hits.map((h) => h.id), orderKeys: result.hits.map((h) => h.position.orderKey), values: result.hits.map((h) => h.position.values) };
    }
    case 'groups': {
      const request = m.request as AggregateRequest;
      const r = { ...request, query: bound(request.query, m.index) };
      // `among`: every part of the index, so that each part lists the candidates of the whole merge.
      lastGroups = partsOf(m.parts).map((p) => p.partGroups(m.index, r, m.among));
      let total = 0;
      let counted = 0;
      // Each key's counts in its parts' best groups, summed here: the same lower bounds for the
      // merge, in one pair per key (the parts mostly share their best keys) instead of one per
      // part and key, which the main thread copied out of the message and summed itself.
      const bounds = new Map<string, number>();
      for (const g of lastGroups) {
        total += g.total;
        counted += g.counted;
        for (const b of g.best) {
          const key = g.keyOf(b);
          bounds.set(key, (bounds.get(key) ?? 0) + g.counts[b]);
        }
      }
      const best: (string | number)[] = [];
      for (const [key, count] of bounds) best.push(key, count);
      return { total, counted, parts: lastGroups.length, best };
    }
    case 'counts': {
      const candidates = candidatesAt(lastGroups, m.threshold, new Set(m.keys));
      const sums = [...m.keys, ...candidates].map((key) => countOver(lastGroups, key));
      // Its counts are overwritten by the next aggregation anyway; its maps and keys need not wait.
      lastGroups = [];
      return { candidates, sums };
    }
    case 'whole': {
      // Every group's count summed over its parts, for a table of the whole corpus (whole-counts.ts).
      const request = m.request as AggregateRequest;
      const r = { ...request, query: bound(request.query, m.index) };
      lastGroups = [];
      const table = tableOf(partsOf(m.parts).map((p) => p.partGroups(m.index, r, 1)));
      return table ? { ...remoteTable(table) } : { tooMany: true };
    }
    case 'drop': {
      lastGroups = [];
      void parts.get(m.key)?.close();
      parts.delete(m.key);
      return undefined;
    }
    case 'collect': {
      // The benchmark's full collection after its first pass (node --expose-gc), here as in the main thread.
      (globalThis as { gc?: () => void }).gc?.();
      return {};
    }
    case 'warm': {
      void (async () => {
        const never = new AbortController().signal;
        for (const p of [...parts.values()]) await p.warm(never).catch(() => undefined);
      })();
      return undefined;
    }
  }
}

function handle(m: ThreadRequest): void {
  let reply: Omit<ThreadReply, 'seq'> | undefined;
  try {
    reply = answer(m);
  } catch (err) {
    reply = { error: (err as Error).message, corrupt: err instanceof CorruptSegmentError };
  }
  if (reply === undefined) return;
  port.postMessage({ ...reply, seq: m.seq });
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

/**
 * After a reply the thread looks for the next request itself for a moment instead of going back
 * to its event loop: being woken from there took 50-100 µs a query, a tenth of a light query over
 * ten parts. Requests come in bursts (an aggregation's two, a client's pages).
 */
const SPIN_MS = Number(process.env.PERISCOPE_QUERY_THREAD_SPIN_MS ?? 1);

port.on('message', (first: ThreadRequest) => {
  handle(first);
  let until = performance.now() + SPIN_MS;
  while (performance.now() < until) {
    const next = receiveMessageOnPort(port);
    if (!next) continue;
    handle(next.message as ThreadRequest);
    until = performance.now() + SPIN_MS;
  }
});
