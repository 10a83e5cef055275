/**
 * The embedded engine over many documents: an index made of parts, each an EmbeddedEngine of
 * at most `partDocuments` documents per index with its own segments (docs/ARCHITECTURE.md,
 * "Engine parts"). A new document goes to the newest part; once that part is full it is
 * checkpointed and reopened from its segments (a restart's memory instead of a load's) and a
 * new part is started, so a load of any size holds one part's build in memory at a time. A
 * document is replaced in the part that holds it. Queries run on every part and are combined
 * (merge-parts.ts); with one part, which is every index up to `partDocuments`, they go straight
 * to it.
 */
import type { IndexName } from '../../model/field-def.ts';
import { catalogueFor } from '../../model/field-catalogue.ts';
import type { AggregateRequest, AggregateResult, Doc, SearchEngine, SearchRequest, SearchResult } from '../search-engine.ts';
import type { EngineCatalogues } from '../reference/reference-engine.ts';
import { EmbeddedEngine, EngineUnavailableError, type EmbeddedEngineOptions } from './embedded-engine.ts';
import { readManifest } from './engine-directory.ts';
import { mergePages, mergePartGroups, type RemoteGroups } from './merge-parts.ts';
import { PartedDirectory, partDir, type PartsHost } from './parted-directory.ts';
import { checked as checkedReply, QueryThread, QueryThreadError, type ThreadPart, type ThreadReply } from './query-thread.ts';
import type { DocPage } from './search-page.ts';
import { CorruptSegmentError } from './segment-codec.ts';
import { keptQuery } from './evaluate.ts';
import { stampNumber, tableOf, TOO_MANY, WholeCounts, type RemoteTable, type WholeTable } from './whole-counts.ts';

/**
 * Documents per index in one part. Loading a part builds its dictionaries and postings in the
 * JavaScript heap: about 2.3 GB at 1M hosts, where node's default heap limit here is 4.1 GB, and
 * 5.5-5.8 GB resident at the load's peak (docs/BENCHMARK.md). 1.1M keeps a load within that
 * limit whatever the index's size, and the 1M-host benchmark corpus (1.05M documents) in one part.
 */
export const DEFAULT_PART_DOCUMENTS = 1_100_000;

export interface PartedEngineOptions extends EmbeddedEngineOptions {
  /** Documents (per index, tombstones included) a part takes before new documents go to a new part. */
  readonly partDocuments?: number;
  /**
   * An index of three parts or more searches about half of its parts on a second thread
   * (query-thread.ts): handed over as a restart opens them, and after checkpoints while serving
   * (partsClean). The server turns it on; tests and tools leave it off unless they test it.
   */
  readonly queryThread?: boolean;
}

/** A page of the query thread's parts, as DocPage: its hits' ids and order keys stand in for an index's. */
function threadPage(reply: ThreadReply, sorted: boolean): DocPage {
  const ids = reply.ids as string[];
  return {
    data: { ids, orderKeys: reply.orderKeys as string[] },
    docs: ids.map((_, i) => i),
    values: sorted ? (reply.values as (string | number | null)[][]) : undefined,
    total: reply.total as number,
    more: reply.more as boolean,
  };
}

export class PartedEngine implements SearchEngine, PartsHost {
  readonly name = 'embedded';
  parts: EmbeddedEngine[];
  readonly persistence: PartedDirectory | undefined;
  private readonly capacity: number;
  /** Parts serving from segments they were reopened from, unchanged since: a reopen() skips them. */
  readonly reopened = new Set<EmbeddedEngine>();
  private thread: QueryThread | undefined;
  /** Parts the query thread searches, by their key there: parts unchanged since it opened them. */
  private readonly delegated = new Map<EmbeddedEngine, number>();
  /**
   * The thread's 'open' request and the segments it was given per part; `polled` when this thread
   * goes on serving meanwhile and looks for the reply at each query (partsClean).
   */
  private handover: { seq: number; segments: Map<number, string>; polled: boolean } | undefined;
  /** Set when the thread failed other than on damage: no thread is started again. */
  private threadGaveUp = false;
  /** Parts the thread could not open, with the segments it was given: not handed again until they change. */
  private readonly refused = new Map<number, string>();
  /** Parts written since the last partsClean(): not handed to the thread then. */
  private readonly writtenSince = new Set<EmbeddedEngine>();
  /** Counts of whole-corpus aggregations merged over the parts (whole-counts.ts). */
  private readonly whole = new WholeCounts();

  constructor(private readonly catalogues: EngineCatalogues, private readonly options: PartedEngineOptions = {}) {
    const capacity = options.partDocuments ?? DEFAULT_PART_DOCUMENTS;
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`partDocuments must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
    this.parts = [this.newPart(0)];
    this.persistence = options.dir === undefined ? undefined : new PartedDirectory(options.dir, this);
  }

  newPart(k: number, at?: string): EmbeddedEngine {
    const { partDocuments: _, dir, ...rest } = this.options;
    return new EmbeddedEngine(this.catalogues, { ...rest, ...(dir === undefined ? {} : { dir: at ?? partDir(dir, k) }) });
  }

  /** The newest part, or a new one when it is full (the full one sealed first; never in a process sharing the directory). */
  private partForNew(index: IndexName): EmbeddedEngine {
    const last = this.parts[this.parts.length - 1];
    if (last.idCount(index) < this.capacity || this.persistence?.shared) return last;
    this.persistence?.seal(last);
    const k = this.parts.length;
    const part = this.newPart(k);
    this.persistence?.opening(part, k);
    this.parts.push(part);
    return part;
  }

  /**
   * A full collection in the query thread, when node runs with --expose-gc (the benchmark's, after
   * the first queries built their structures and left their garbage, as it collects its own).
   */
  collectThreadGarbage(): void {
    if (this.thread && !this.thread.dead) this.thread.call({ type: 'collect' });
  }

  /** Whether parts are being handed to the query thread and no query has taken them over yet (tests). */
  get handingOver(): boolean {
    return this.handover !== undefined;
  }

  /** The numbers of the parts the query thread searches (tests, the benchmark). */
  get threadParts(): number[] {
    return [...this.delegated.values()].sort((a, b) => a - b);
  }

  /** Whether an index of `parts` parts gets a query thread. */
  private threadWanted(parts: number): boolean {
    if (!this.options.queryThread || this.options.dir === undefined || parts < 3 || this.threadGaveUp) return false;
    // The thread builds the standard catalogues: an engine over others searches alone.
    return this.catalogues.hosts === catalogueFor('hosts') && this.catalogues.certificates === catalogueFor('certificates');
  }

  /**
   * The parts the thread should search, of an index of `parts` parts: about half, from parts
   * 1..parts-2. Part 0 (its journal is replayed after opening) and the newest part (it takes new
   * documents) stay on this thread.
   */
  private static threadShare(parts: number): number[] {
    return Array.from({ length: Math.min(Math.floor(parts / 2), parts - 2) }, (_, i) => i + 1);
  }

  /** Sends the thread `handed` (started if there is none) to open; `polled`: this thread does not wait for it. */
  private handOver(handed: readonly ThreadPart[], polled: boolean): void {
    if (!this.thread || this.thread.dead) {
      const { partDocuments: _, dir: __, queryThread: ___, ...options } = this.options;
      this.thread = new QueryThread(options);
    }
    const seq = this.thread.post({ type: 'open', parts: handed }, polled);
    this.handover = { seq, segments: new Map(handed.map((p) => [p.key, JSON.stringify(p.segments)])), polled };
  }

  /**
   * Before the parts are opened: hands about half of them to a query thread, which opens them
   * meanwhile.
   */
  partsFound(numbers: readonly number[]): void {
    const { dir } = this.options;
    if (dir === undefined || !this.threadWanted(numbers.length + 1)) return;
    const handed: ThreadPart[] = [];
    for (const k of PartedEngine.threadShare(numbers.length + 1)) {
      if (!numbers.includes(k)) break;
      try {
        handed.push({ key: k, dir: partDir(dir, k), segments: readManifest(partDir(dir, k)).segments });
      } catch {
        // This thread's open() reports it.
      }
    }
    if (handed.length > 0) this.handOver(handed, false);
  }

  /** Every part is open: the parts the thread opened from the segments this thread opened are searched there. */
  partsOpened(): void {
    const thread = this.thread;
    const handover = this.handover;
    if (!thread || !handover || handover.polled) return;
    this.takeOver(() => thread.wait(handover.seq));
  }

  /**
   * The parts the thread opened (`reply` to the pending handover's 'open'; none when it failed or
   * never came) are searched there if they are still what it was given; the others are dropped
   * there.
   */
  private takeOver(reply: () => ThreadReply): void {
    const handover = this.handover!;
    this.handover = undefined;
    let opened: readonly number[] = [];
    try {
      opened = checkedReply(reply()).opened as number[];
    } catch {
      // Nothing is handed over: every part is searched here.
    }
    for (const [k, segments] of handover.segments) if (!opened.includes(k)) this.refused.set(k, segments);
    for (const k of opened) {
      const part = this.parts[k];
      const segments = part?.persistence?.cleanSegments;
      if (segments && JSON.stringify(segments) === handover.segments.get(k)) this.delegated.set(part, k);
      else this.undelegate(k);
    }
    if (this.delegated.size === 0) void this.stopThread();
  }

  /**
   * After a checkpoint or a reopen, parts are clean again (their state is their segments): the
   * thread is given those of its share it does not hold, so that an index loaded by this process
   * (no restart) and parts given back by writes are searched there again. The thread opens them
   * while this thread goes on serving (searching them itself); the first query after that takes
   * them over (split), and the thread then warms them, as after a restart. This thread's own
   * copies are reopened from their segments first, which drops what queries built in them here.
   */
  partsClean(): void {
    const written = new Set(this.writtenSince);
    this.writtenSince.clear();
    const { dir } = this.options;
    this.checkThread();
    if (dir === undefined || this.handover || !this.threadWanted(this.parts.length)) return;
    const held = new Set(this.delegated.values());
    const handed: ThreadPart[] = [];
    for (const k of PartedEngine.threadShare(this.parts.length)) {
      const part = this.parts[k];
      // Under a steady ingest, a part written since the last checkpoint will likely be written
      // again before long: handing it over would cost an open and a warm-up each time.
      if (held.has(k) || written.has(part)) continue;
      // Reopened, it serves from its segments with no merge running (the thread opens those).
      if (!this.reopened.has(part) && part.persistence?.reopen()) this.reopened.add(part);
      const segments = this.reopened.has(part) ? part.persistence?.cleanSegments : undefined;
      if (segments && this.refused.get(k) !== JSON.stringify(segments)) handed.push({ key: k, dir: partDir(dir, k), segments });
    }
    if (handed.length > 0) this.handOver(handed, true);
  }

  /** A handover this thread did not wait for: taken over once the thread has opened its parts, which it then warms. */
  private pollHandover(): void {
    const handover = this.handover;
    if (!handover?.polled || !this.thread) return;
    let reply: ThreadReply | undefined;
    try {
      reply = this.thread.poll(handover.seq);
    } catch (err) {
      this.threadFailed(err, []);
      return;
    }
    if (!reply) return;
    this.takeOver(() => reply);
    if (this.delegated.size === 0) return;
    try {
      // What a server's warm-up does after a restart (warm()), for the parts just taken.
      this.thread.post({ type: 'warm' });
    } catch {
      // Its parts are warmed when searched.
    }
  }

  partsDropped(): void {
    this.whole.clear();
    this.writtenSince.clear();
    this.refused.clear();
    void this.stopThread();
  }

  /**
   * A thread that ended by itself (its exit seen by the event loop, or flagged in the signal)
   * fails as any failure does: its parts are searched here and no thread is started again.
   */
  private checkThread(): void {
    if (this.thread?.dead && (this.delegated.size > 0 || this.handover)) this.threadFailed(new QueryThreadError(this.thread.dead), []);
  }

  /** Settles once the thread has ended. */
  private stopThread(): Promise<void> | undefined {
    this.delegated.clear();
    this.handover = undefined;
    const stopped = this.thread?.stop();
    this.thread = undefined;
    return stopped;
  }

  /** The part changes: searched here from now on, and dropped by the thread. */
  private undelegate(part: EmbeddedEngine | number): void {
    let key: number | undefined;
    if (typeof part === 'number') key = part;
    else {
      key = this.delegated.get(part);
      if (key === undefined) return;
      this.delegated.delete(part);
    }
    try {
      this.thread?.post({ type: 'drop', key });
    } catch {
      // A dead thread holds nothing.
    }
  }

  /**
   * Replaces the document in the newest part holding it, else adds it to the newest part, and
   * removes it from every other part: an id is in one part only, even after a kill left a copy in
   * an older part (see parted-directory.ts).
   */
  upsert(index: IndexName, id: string, doc: Doc): void {
    if (this.parts.length === 1 && this.parts[0].idCount(index) < this.capacity) {
      this.reopened.delete(this.parts[0]);
      this.parts[0].upsert(index, id, doc);
      return;
    }
    let target: EmbeddedEngine | undefined;
    for (let k = this.parts.length - 1; k >= 0; k--) {
      const part = this.parts[k];
      if (!part.has(index, id)) continue;
      if (target === undefined) target = part;
      else this.removeFrom(part, index, id);
    }
    target ??= this.partForNew(index);
    this.reopened.delete(target);
    this.writtenSince.add(target);
    if (this.delegated.size > 0) this.undelegate(target);
    target.upsert(index, id, doc);
  }

  remove(index: IndexName, id: string): void {
    for (const part of this.parts) if (part.has(index, id)) this.removeFrom(part, index, id);
  }

  private removeFrom(part: EmbeddedEngine, index: IndexName, id: string): void {
    this.reopened.delete(part);
    this.writtenSince.add(part);
    if (this.delegated.size > 0) this.undelegate(part);
    part.remove(index, id);
  }

  size(index: IndexName): number {
    let n = 0;
    for (const p of this.parts) n += p.size(index);
    return n;
  }

  /** The parts searched here, and the thread's keys of the others (none without a thread). */
  private split(): { here: EmbeddedEngine[]; there: EmbeddedEngine[]; keys: number[] } {
    this.checkThread();
    if (this.handover?.polled) this.pollHandover();
    if (this.delegated.size === 0 || !this.thread || this.thread.dead) return { here: this.parts, there: [], keys: [] };
    const here: EmbeddedEngine[] = [];
    const there: EmbeddedEngine[] = [];
    const keys: number[] = [];
    for (const p of this.parts) {
      const key = this.delegated.get(p);
      if (key === undefined) here.push(p);
      else {
        there.push(p);
        keys.push(key);
      }
    }
    return { here, there, keys };
  }

  /**
   * The thread failed: damage in one of its parts is damage here (the index is rebuilt, as when
   * this thread meets it); anything else stops the thread, and its parts are searched here.
   */
  private threadFailed(err: unknown, there: readonly EmbeddedEngine[]): void {
    if (err instanceof QueryThreadError && err.corrupt && there.length > 0) {
      const damaged = new CorruptSegmentError(err.message);
      there[0].persistence?.corrupted(damaged);
      throw new EngineUnavailableError(`the search index is being rebuilt from the store (${damaged.message})`);
    }
    // A thread that failed once would likely fail again: this process searches alone from now on.
    this.threadGaveUp = true;
    void this.stopThread();
  }

  search(index: IndexName, request: SearchRequest): SearchResult {
    if (this.parts.length === 1) return this.parts[0].search(index, request);
    const { here, there, keys } = this.split();
    const thread = this.thread;
    let seq: number | undefined;
    if (there.length > 0) {
      try {
        seq = thread!.post({ type: 'search', index, parts: keys, request });
      } catch (err) {
        // Not sent (the request could not be copied, the thread is gone): all searched here.
        this.threadFailed(err, there);
      }
    }
    const pages = here.map((p) => p.searchDocs(index, request));
    let page: DocPage | undefined;
    if (seq !== undefined) {
      try {
        page = threadPage(checkedReply(thread!.wait(seq)), (request.sort?.length ?? 0) > 0);
      } catch (err) {
        this.threadFailed(err, there);
      }
    }
    if (page) pages.push(page);
    else for (const p of there) pages.push(p.searchDocs(index, request));
    return mergePages(pages, request);
  }

  aggregate(index: IndexName, request: AggregateRequest): AggregateResult {
    if (this.parts.length === 1) return this.parts[0].aggregate(index, request);
    const whole = this.wholeAnswer(index, request);
    if (whole) return whole;
    const { here, there, keys } = this.split();
    if (there.length > 0) {
      const thread = this.thread!;
      try {
        const among = this.parts.length;
        const seq = thread.post({ type: 'groups', index, parts: keys, among, request });
        const local = here.map((p) => p.partGroups(index, request, among));
        const r = checkedReply(thread.wait(seq));
        let asked: { seq: number; keys: readonly string[] } | undefined;
        const remote: RemoteGroups = {
          total: r.total as number,
          counted: r.counted as number,
          parts: r.parts as number,
          best: r.best as (string | number)[],
          ask: (threshold, given) => {
            asked = { seq: thread.post({ type: 'counts', threshold, keys: given }), keys: given };
          },
          answer: () => {
            const c = checkedReply(thread.wait(asked!.seq));
            const all = [...asked!.keys, ...(c.candidates as string[])];
            const sums = c.sums as number[];
            return new Map(all.map((key, i) => [key, sums[i]]));
          },
        };
        return mergePartGroups(local, request.numBuckets, remote);
      } catch (err) {
        // A part searched here failed: as without the thread. Anything else is the thread's.
        if (err instanceof EngineUnavailableError || err instanceof CorruptSegmentError) throw err;
        this.threadFailed(err, there);
      }
    }
    return mergePartGroups(
      this.parts.map((p) => p.partGroups(index, request, this.parts.length)),
      request.numBuckets,
    );
  }

  /**
   * An aggregation of the whole corpus (`*`, or `not name: *`) from counts merged over the parts
   * and kept while they hold the same documents (whole-counts.ts); undefined when it is not one,
   * or has no table yet: merged as any other.
   */
  private wholeAnswer(index: IndexName, request: AggregateRequest): AggregateResult | undefined {
    const kept = keptQuery(this.catalogues[index], request.query);
    // A part being rebuilt answers nothing: the usual path says so.
    if (!kept || this.parts.some((p) => p.persistence?.broken)) return undefined;
    // Numbers only: a stamp holding parts or their data would keep replaced ones alive.
    const stamp: number[] = [];
    for (const p of this.parts) {
      const [data, ids, live] = p.contentStamp(index);
      stamp.push(stampNumber(p), stampNumber(data), ids, live);
    }
    const key = JSON.stringify([index, kept.without ?? null, request.field]);
    const answer = this.whole.answer(key, stamp, request.numBuckets, () => this.wholeTable(index, request));
    // What any query does first (split): a dead thread is noticed, a handover's reply taken.
    if (answer) {
      this.checkThread();
      if (this.handover?.polled) this.pollHandover();
    }
    return answer;
  }

  /** Every group's count summed over the parts, the query thread's with this thread's. */
  private wholeTable(index: IndexName, request: AggregateRequest): WholeTable | typeof TOO_MANY | undefined {
    const { here, there, keys } = this.split();
    const all = { ...request, numBuckets: 0 };
    let seq: number | undefined;
    if (there.length > 0) {
      try {
        seq = this.thread!.post({ type: 'whole', index, parts: keys, request: all });
      } catch {
        return undefined;
      }
    }
    const groups = here.map((p) => p.partGroups(index, all, 1));
    let remote: RemoteTable | undefined;
    if (seq !== undefined) {
      let r: ThreadReply;
      try {
        r = checkedReply(this.thread!.wait(seq));
      } catch (err) {
        this.threadFailed(err, there);
        return undefined;
      }
      if (r.tooMany === true) return TOO_MANY;
      remote = r as unknown as RemoteTable;
    }
    return tableOf(groups, remote) ?? TOO_MANY;
  }

  async warm(signal: AbortSignal): Promise<void> {
    const { here, there } = this.split();
    if (there.length > 0) {
      try {
        this.thread!.post({ type: 'warm' });
      } catch {
        // Its parts are warmed when searched.
      }
    }
    // Parts being handed over are warmed by the thread once it holds them (pollHandover): warmed
    // here, they would keep structures this thread no longer needs.
    const handing = new Set([...(this.handover?.polled ? this.handover.segments.keys() : [])].map((k) => this.parts[k]));
    for (const p of here) {
      if (signal.aborted) return;
      if (!handing.has(p)) await p.warm(signal);
    }
  }

  /** A clean close: parts 1.. first, each written whole if it changed, then part 0 (whose checkpoint drops the journals). */
  async close(): Promise<void> {
    await this.stopThread();
    for (let k = this.parts.length - 1; k >= 0; k--) await this.parts[k].close();
  }
}
