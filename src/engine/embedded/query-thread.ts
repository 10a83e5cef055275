/**
 * A second thread that answers queries over some of a PartedEngine's parts while the main thread
 * answers them over the others (docs/ARCHITECTURE.md, "Query thread"). An index of ten parts
 * took 13x one part's time per query on one thread; with two cores, two threads each search half
 * of the parts.
 *
 * The thread opens the parts it is given from their segments, read-only (query-thread-worker.ts).
 * The SearchEngine interface is synchronous, so a query posts its request, searches the main
 * thread's parts meanwhile, then blocks until the answer is there (Atomics.wait on a counter the
 * thread bumps after each reply, and receiveMessageOnPort): no event loop turn, no promise.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { IndexName } from '../../model/field-def.ts';
import type { SegmentEntry } from './engine-directory.ts';
import type { EmbeddedEngineOptions } from './embedded-engine.ts';

/** A part handed to the thread: its directory and the segments its main-thread twin opened. */
export interface ThreadPart {
  readonly key: number;
  readonly dir: string;
  readonly segments: Record<IndexName, SegmentEntry>;
}

export type ThreadRequest =
  | { readonly type: 'open'; readonly seq: number; readonly parts: readonly ThreadPart[] }
  | { readonly type: 'search'; readonly seq: number; readonly index: IndexName; readonly parts: readonly number[]; readonly request: unknown }
  | { readonly type: 'groups'; readonly seq: number; readonly index: IndexName; readonly parts: readonly number[]; readonly among: number; readonly request: unknown }
  | { readonly type: 'counts'; readonly seq: number; readonly threshold: number; readonly keys: readonly string[] }
  | { readonly type: 'whole'; readonly seq: number; readonly index: IndexName; readonly parts: readonly number[]; readonly request: unknown }
  | { readonly type: 'drop'; readonly seq: number; readonly key: number }
  | { readonly type: 'warm'; readonly seq: number }
  | { readonly type: 'collect'; readonly seq: number };

/** A request before post() numbers it. */
export type Unnumbered<T> = T extends unknown ? Omit<T, 'seq'> : never;

/** Every reply names the request it answers; `error` when it failed (`corrupt` when a block failed its checksum). */
export interface ThreadReply {
  readonly seq: number;
  readonly error?: string;
  readonly corrupt?: boolean;
  readonly [field: string]: unknown;
}

/** What the thread is started with (workerData). */
export interface ThreadData {
  readonly module: string;
  readonly port: MessagePort;
  readonly signal: Int32Array;
  readonly options: Omit<EmbeddedEngineOptions, 'dir'>;
}

/**
 * A reply longer than this is taken for a thread that died without replying (a worker that runs
 * out of memory is terminated, and the main thread, blocked, never sees its exit event). A first
 * query over parts of a million documents each builds their structures: minutes at most.
 */
const REPLY_TIMEOUT_MS = 30 * 60_000;

/** Where a thread that ended (or failed to start) says so: a blocked main thread sees no exit event. */
const DEAD_SLOT = 1;

/** How long a wait looks for the reply before it sleeps. */
const SPIN_MS = Number(process.env.PERISCOPE_QUERY_THREAD_SPIN_MS ?? 1);

export class QueryThreadError extends Error {
  constructor(message: string, readonly corrupt = false) {
    super(message);
  }
}

export class QueryThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /** [0]: replies posted (bumped after each); [1]: 1 once the thread has ended (DEAD_SLOT). */
  private readonly signal = new Int32Array(new SharedArrayBuffer(8));
  private seq = 0;
  /**
   * Requests whose replies are taken by poll() (a handover the main thread does not wait for),
   * and such replies that came while wait() looked for another: kept, not dropped.
   */
  private readonly polled = new Set<number>();
  private readonly kept = new Map<number, ThreadReply>();
  /** Set when the thread exited or failed to reply: queries go back to the main thread. */
  dead: string | undefined;

  /** `module`: what the thread runs (tests give others). */
  constructor(options: Omit<EmbeddedEngineOptions, 'dir'>, module = new URL('./query-thread-worker.ts', import.meta.url).href) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const data: ThreadData = { module, port: port2, signal: this.signal, options };
    this.worker = new Worker(new URL('./merge-worker-boot.mjs', import.meta.url), { workerData: data, transferList: [port2] });
    // Neither keeps the process alive: the engine's close() stops the thread.
    this.worker.unref();
    this.port.unref();
    // Seen when this thread is not blocked; a blocked wait sees DEAD_SLOT, which the thread's boot
    // sets as it ends (merge-worker-boot.mjs), also when it fails to start.
    this.worker.on('error', (err) => (this.dead ??= err.message));
    this.worker.on('exit', (code) => (this.dead ??= `query thread exited (code ${code})`));
  }

  /** Sends a request; its reply is taken by wait(), or by poll() when `polled`. */
  post(request: Unnumbered<ThreadRequest>, polled = false): number {
    const seq = ++this.seq;
    this.port.postMessage({ ...request, seq });
    if (polled) this.polled.add(seq);
    return seq;
  }

  /** The reply to a request posted `polled`, once it is there; never blocks. */
  poll(seq: number): ThreadReply | undefined {
    if (!this.dead && Atomics.load(this.signal, DEAD_SLOT) === 1) this.dead = 'the query thread ended';
    if (this.dead) throw new QueryThreadError(this.dead);
    for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) this.keep(m.message as ThreadReply);
    const reply = this.kept.get(seq);
    if (reply) {
      this.kept.delete(seq);
      this.polled.delete(seq);
    }
    return reply;
  }

  /** A reply nobody waits for: kept when poll() will ask for it, else dropped. */
  private keep(reply: ThreadReply): void {
    if (this.polled.has(reply.seq)) this.kept.set(reply.seq, reply);
  }

  /** Blocks until the reply to `seq` is there (replies to earlier requests nobody waits for are dropped; polled ones kept). */
  wait(seq: number, timeoutMs = REPLY_TIMEOUT_MS): ThreadReply {
    const deadline = performance.now() + timeoutMs;
    const spinUntil = performance.now() + SPIN_MS;
    let spinning = SPIN_MS > 0;
    for (;;) {
      if (!this.dead && Atomics.load(this.signal, DEAD_SLOT) === 1) this.dead = 'the query thread ended';
      if (this.dead) throw new QueryThreadError(this.dead);
      // Read before looking for a reply: a reply posted after the look bumps it, so the wait returns.
      const seen = Atomics.load(this.signal, 0);
      for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) {
        const reply = m.message as ThreadReply;
        if (reply.seq === seq) return reply;
        this.keep(reply);
      }
      const left = deadline - performance.now();
      if (left <= 0) {
        this.dead = `the query thread did not reply within ${Math.round(timeoutMs / 1000)} s`;
        void this.worker.terminate();
        throw new QueryThreadError(this.dead);
      }
      // A reply usually comes within a fraction of a millisecond: looked for before sleeping,
      // as waking from Atomics.wait costs tens of microseconds.
      if (spinning && Atomics.load(this.signal, 0) === seen && performance.now() < spinUntil) continue;
      spinning = false;
      Atomics.wait(this.signal, 0, seen, Math.min(left, 1000));
    }
  }

  /** post() then wait(), failing on an error reply. */
  call(request: Unnumbered<ThreadRequest>): ThreadReply {
    return checked(this.wait(this.post(request)));
  }

  async stop(): Promise<void> {
    this.dead ??= 'query thread stopped';
    this.port.close();
    await this.worker.terminate();
  }
}

/** The reply, or a QueryThreadError for an error reply. */
export function checked(reply: ThreadReply): ThreadReply {
  if (reply.error !== undefined) throw new QueryThreadError(reply.error, reply.corrupt === true);
  return reply;
}
