/**
 * zgrab2 JSON lines: `{"ip", "domain"?, "data": {"<scan name>": {"status", "protocol", "result",
 * "timestamp", "error"?}}}`, one module result per scan name. Each line becomes one host
 * observation (plus one of the named virtual host when `domain` was given).
 */
import type { Readable } from 'node:stream';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { isIP } from 'node:net';
import { parseIp } from '../../lib/ip.ts';
import { isoTime } from '../../lib/time.ts';
import { parseUtcTime } from '../pipeline/parse-utc-time.ts';
import type { HostObservation, IngestRecord, IngestSource, ServiceObservation, SoftwareObservation, TlsObservation } from '../observation.ts';
import { mapHttpResult } from './http-result.ts';
import { moduleInfo } from './modules.ts';
import { LineSplitter, isObject, jsonHead, mentionsKey, obj, str, validPort, type Line } from './read-lines.ts';
import { mapSshResult } from './ssh-result.ts';
import { handshakeTls } from './tls-handshake.ts';

export interface Zgrab2Options {
  /** Port of a scan name that does not carry one (`{"web": 8080}`); consulted before protocol defaults. */
  readonly modulePorts?: Readonly<Record<string, number>>;
}

const OPEN_STATUSES = new Set(['success']);
const MISMATCH_STATUSES = new Set(['protocol-error', 'application-error', 'unknown-error']);
const NOTHING_KNOWN = new Set(['connection-timeout', 'io-timeout']);
export const ZGRAB2_STATUSES = ['success', 'connection-refused', 'connection-timeout', 'io-timeout', 'protocol-error', 'application-error', 'unknown-error'] as const;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

type ModuleOutcome =
  | { readonly kind: 'service'; readonly service: ServiceObservation }
  | { readonly kind: 'skip' }
  | { readonly kind: 'rejected'; readonly reason: string };

function portOf(name: string, protocol: string, mod: Record<string, unknown>, result: Record<string, unknown>, linePort: unknown, urlPort: number | undefined, options: Zgrab2Options): number | undefined {
  const explicit = validPort(mod.port) ?? validPort(result.port) ?? validPort(linePort);
  if (explicit) return explicit;
  const configured = options.modulePorts?.[name];
  if (configured !== undefined) return validPort(configured);
  const suffix = /(?:^|[-_.])(\d{1,5})$/.exec(name) ?? /^[a-z]+(\d{2,5})$/i.exec(name);
  if (suffix) {
    const p = validPort(suffix[1]);
    if (p) return p;
  }
  if (urlPort) return urlPort;
  return moduleInfo(protocol).port;
}

function mapModule(name: string, mod: Record<string, unknown>, linePort: unknown, options: Zgrab2Options): ModuleOutcome {
  const status = str(mod.status) ?? 'unknown-error';
  if (NOTHING_KNOWN.has(status)) return { kind: 'skip' };
  const protocol = (str(mod.protocol) ?? name).toLowerCase();
  const info = moduleInfo(protocol);
  const result = obj(mod.result) ?? {};
  const http = protocol === 'http' ? mapHttpResult(result) : undefined;
  const port = portOf(name, protocol, mod, result, linePort, http?.urlPort ?? (protocol === 'http' && http?.https ? 443 : undefined), options);
  if (port === undefined) {
    return { kind: 'rejected', reason: `module "${name}" (${protocol}): no port in the result, the scan name or the protocol's defaults` };
  }
  const base = { port, transport: info.transport };
  if (status === 'connection-refused') return { kind: 'service', service: { ...base, state: 'closed' } };

  if (!OPEN_STATUSES.has(status)) {
    // Known failures (protocol/application errors) and statuses this reader does not know: the
    // port answered, but not in the protocol asked for.
    const banner = str(result.banner) ?? str(obj(result.server_id)?.raw);
    const labels = MISMATCH_STATUSES.has(status) ? [] : [`zgrab2-status:${status}`];
    return { kind: 'service', service: { ...base, state: 'open', serviceName: 'UNKNOWN', ...(banner ? { banner } : {}), ...(labels.length ? { labels } : {}) } };
  }

  let serviceName = info.serviceName;
  let extendedServiceName = info.extendedServiceName;
  let banner = str(result.banner);
  let software: SoftwareObservation[] = [];
  let tls: TlsObservation | undefined;
  let protocols: Record<string, unknown>;

  if (protocol === 'http') {
    if (http) {
      protocols = { http: http.http };
      tls = http.tls;
      banner = http.banner;
      software = http.software;
      if (http.https) extendedServiceName = 'HTTPS';
    } else {
      protocols = {};
    }
  } else if (protocol === 'ssh') {
    const ssh = mapSshResult(result);
    protocols = { ssh: ssh.ssh };
    banner = ssh.banner;
    software = ssh.software;
  } else if (protocol === 'tls') {
    tls = handshakeTls(result.handshake_log);
    protocols = {};
  } else if (protocol === 'banner') {
    serviceName = 'UNKNOWN';
    protocols = banner !== undefined ? { banner_grab: { banner } } : {};
  } else {
    protocols = { [protocol]: result };
    // STARTTLS and implicit-TLS modules (ftp, smtp, imap, pop3 ...) log their handshake under `tls`.
    tls = handshakeTls(obj(result.tls)?.handshake_log);
  }

  // Built by assignment: conditional spreads cost more than the rest of the mapping on hot paths.
  const service: Mutable<ServiceObservation> = { port, transport: info.transport, state: 'open' };
  if (serviceName) service.serviceName = serviceName;
  if (extendedServiceName) service.extendedServiceName = extendedServiceName;
  if (banner !== undefined) service.banner = banner;
  if (software.length > 0) service.software = software;
  for (const _ in protocols) {
    service.protocols = protocols;
    break;
  }
  if (tls) service.tls = tls;
  return { kind: 'service', service };
}

/**
 * IP text in normal form, or undefined. IPv4 must be a plain dotted quad (node's check, which also
 * refuses leading zeros that other tools read as octal); IPv6 is compressed and lower-cased.
 */
export function normalIp(text: string): string | undefined {
  const kind = isIP(text);
  if (kind === 4) return text;
  if (kind === 6) return parseIp(text)?.toString();
  return undefined;
}

// Scan output repeats the same timestamps line after line; remembering the last one spares a parse.
let lastStamp = '';
let lastMs: number | undefined;
export function stampMs(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  if (v !== lastStamp) {
    lastStamp = v;
    lastMs = parseUtcTime(v);
  }
  return lastMs;
}

function latestTime(times: number[], now: Date): string {
  return times.length > 0 ? isoTime(Math.max(...times)) : isoTime(now);
}

/** Maps one parsed zgrab2 line to records (host observations and module-level rejections). */
export function mapZgrab2Line(value: unknown, position: string, now: Date, options: Zgrab2Options = {}): IngestRecord[] {
  if (!isObject(value)) return [{ kind: 'rejected', position, reason: 'not a JSON object' }];
  const ipText = str(value.ip);
  if (!ipText) return [{ kind: 'rejected', position, reason: 'no "ip"' }];
  const ip = normalIp(ipText);
  if (!ip) return [{ kind: 'rejected', position, reason: `invalid ip "${ipText}"` }];
  const data = obj(value.data);
  if (!data) return [{ kind: 'rejected', position, reason: 'no "data" object' }];

  const out: IngestRecord[] = [];
  const services: ServiceObservation[] = [];
  const times: number[] = [];
  for (const [name, mod] of Object.entries(data)) {
    if (!isObject(mod)) {
      out.push({ kind: 'rejected', position, reason: `module "${name}" is not an object` });
      continue;
    }
    const outcome = mapModule(name, mod, value.port, options);
    if (outcome.kind === 'rejected') out.push({ kind: 'rejected', position, reason: outcome.reason });
    if (outcome.kind !== 'service') continue;
    services.push(outcome.service);
    const t = stampMs(mod.timestamp);
    if (t !== undefined) times.push(t);
  }
  if (services.length === 0) return out;
  const topTime = stampMs(value.timestamp);
  if (topTime !== undefined) times.push(topTime);
  const domain = str(value.domain);
  // A distribution named by a Server header or an SSH comment is the best OS evidence a banner scan has.
  const os = services.flatMap((sv) => sv.software ?? []).find((sw) => sw.part === 'o');
  const host: HostObservation = { ip, observedAt: latestTime(times, now), source: 'zgrab2', services, ...(os ? { operatingSystem: os } : {}) };
  const hosts: IngestRecord[] = [{ kind: 'host', position, host: domain ? { ...host, names: [domain] } : host }];
  // With a domain, zgrab2 sent it as Host header and SNI: what it saw belongs to that virtual host.
  if (domain) hosts.push({ kind: 'host', position, host: { ...host, name: domain } });
  return [...hosts, ...out];
}

export function makeZgrab2Source(options: Zgrab2Options = {}): IngestSource {
  return {
    format: 'zgrab2',
    sniff(head: Buffer): boolean {
      const first = jsonHead(head);
      if (!first) return false;
      if (!first.complete) return mentionsKey(first.prefix, 'ip') && mentionsKey(first.prefix, 'data') && /"data"\s*:\s*\{\s*"[^"]+"\s*:\s*\{/.test(first.prefix);
      const data = obj(first.value.ip !== undefined ? first.value.data : undefined);
      if (!data) return false;
      const mods = Object.values(data);
      return mods.length > 0 && mods.every((m) => isObject(m) && 'status' in m);
    },
    read(input: Readable, { now }: { readonly now: Date }): AsyncIterable<IngestRecord> {
      return readZgrab2(input, now, options);
    },
  };
}

/** One line's records (a line that is not JSON is rejected with the parser's message). */
function lineRecords(line: Line, now: Date, options: Zgrab2Options, out: IngestRecord[]): void {
  const position = `line ${line.number}`;
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch (e) {
    out.push({ kind: 'rejected', position, reason: `invalid JSON: ${(e as Error).message}` });
    return;
  }
  for (const r of mapZgrab2Line(value, position, now, options)) out.push(r);
}

function asBuffer(chunk: Buffer | string): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}

/** Input read on the calling thread before parsing moves to a thread of its own. */
const PARSER_THREAD_AFTER_BYTES = 16 * 2 ** 20;
/**
 * Input sent to the parser thread whose records were not consumed yet: bounds memory (a few MB
 * of input and its records) while keeping several of the pipeline's batches ready (about 3,500
 * zgrab2 lines), so that the thread has work while the pipeline merges. The input is read on the
 * pipeline's thread, only while it waits; with less ready (64 chunks of 64 KiB) the thread ran
 * dry while the pipeline merged (docs/BENCHMARK.md, ingest rounds 7 and 8).
 */
const BYTES_IN_FLIGHT = 8 * 2 ** 20;
/** And at most this many chunks, whatever their size. */
const CHUNKS_IN_FLIGHT = 256;

/**
 * zgrab2 lines to records. Parsing and mapping are most of a reader's work, so a long input moves
 * them to a worker thread once `parserThreadAfterBytes` have been read here: this thread then
 * only reads bytes and takes records back (in input order, with the same positions), while the
 * pipeline merges and writes. Short inputs never pay for starting the thread.
 */
export async function* readZgrab2(input: Readable, now: Date, options: Zgrab2Options = {}, parserThreadAfterBytes = PARSER_THREAD_AFTER_BYTES): AsyncGenerator<IngestRecord> {
  const splitter = new LineSplitter();
  const lines: Line[] = [];
  const records: IngestRecord[] = [];
  const chunks = (input as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  let bytes = 0;
  let starting: Promise<ParserThread | undefined> | undefined;
  let thread: ParserThread | undefined;
  /** The chunk read when the thread turned out to be ready: it goes to the thread. */
  let first: Buffer | undefined;
  try {
    for (;;) {
      const next = await chunks.next();
      if (next.done) break;
      const chunk = asBuffer(next.value);
      // The thread took the splitter's state while this read was awaited.
      if (thread) {
        first = chunk;
        break;
      }
      splitter.push(chunk, lines);
      for (const line of lines) lineRecords(line, now, options, records);
      lines.length = 0;
      yield* records;
      records.length = 0;
      bytes += chunk.length;
      if (bytes >= parserThreadAfterBytes && !starting) {
        // Started in the background; lines are parsed here until it answers.
        starting = ParserThread.start(now, options).then(
          (t) => (thread = t.handOver(splitter)),
          () => undefined,
        );
      }
    }
    if (thread) {
      // The rest of the input is read by a task of its own, so that the thread is kept fed while
      // this generator's consumer is busy (reading only when asked left the thread idle between
      // a consumer's batches, and made the consumer wait for each read).
      const feeding = thread.feed(chunks, first);
      feeding.catch(() => undefined);
      while (!thread.fed || thread.inFlight > 0) yield* await thread.next();
      await feeding;
      return;
    }
    splitter.end(lines);
    for (const line of lines) lineRecords(line, now, options, records);
    yield* records;
  } finally {
    // An unstarted or unused thread is stopped too.
    (thread ?? (await starting))?.stop();
    await chunks.return?.();
  }
}

const PARSER_KIND = 'periscope-zgrab2-parser';

type ParserRequest =
  | { kind: 'start'; nowMs: number; options: Zgrab2Options; number: number; carry?: Uint8Array }
  | { kind: 'chunk'; chunk: Uint8Array }
  | { kind: 'end' };
type ParserReply = { records: IngestRecord[] } | { error: string };

/** The reading thread's side of the parser thread: chunks go out, records come back in order. */
class ParserThread {
  readonly #worker: Worker;
  readonly #replies: ParserReply[] = [];
  #wake: (() => void) | undefined;
  #failed: Error | undefined;
  inFlight = 0;

  private constructor(worker: Worker) {
    this.#worker = worker;
    const notify = () => this.#notify();
    worker.on('message', (m: ParserReply) => {
      this.#replies.push(m);
      notify();
    });
    worker.on('error', (e) => {
      this.#failed = e;
      notify();
    });
    worker.on('exit', (code) => {
      this.#failed ??= new Error(`zgrab2 parser thread exited (code ${code})`);
      notify();
    });
  }

  /** Wakes `next` (a reply or a failure) and `feed` (room, or a failure). */
  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
    this.#roomMade();
  }

  #roomMade(): void {
    const space = this.#space;
    this.#space = undefined;
    space?.();
  }

  static async start(now: Date, options: Zgrab2Options): Promise<ParserThread> {
    // This module runs again in the thread; as TypeScript through tsx, whose loader a new thread
    // does not inherit, a small bootstrap registers it first.
    let boot = `await import(${JSON.stringify(import.meta.url)});`;
    if (import.meta.url.endsWith('.ts')) boot = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}; register(); ${boot}`;
    // A larger young generation than the default: the thread allocates short-lived objects fast.
    const worker = new Worker(new URL('data:text/javascript,' + encodeURIComponent(boot)), { workerData: { kind: PARSER_KIND }, resourceLimits: { maxYoungGenerationSizeMb: 64 } });
    const thread = new ParserThread(worker);
    // Loaded and ready once it answers an empty start.
    thread.#send({ kind: 'start', nowMs: now.getTime(), options, number: 0 });
    await thread.next();
    return thread;
  }

  /** Hands the line state over: the thread goes on exactly where `splitter` stopped. */
  handOver(splitter: LineSplitter): this {
    this.#send({ kind: 'start', nowMs: Number.NaN, options: {}, number: splitter.number, ...(splitter.carry ? { carry: splitter.carry } : {}) });
    splitter.carry = undefined;
    // The start message is answered too (with no records).
    return this;
  }

  /** Input bytes of each message sent and not consumed, oldest first, and their sum. */
  readonly #sizes: number[] = [];
  #bytesOut = 0;

  #send(m: ParserRequest): void {
    this.inFlight++;
    const size = m.kind === 'chunk' ? m.chunk.byteLength : 0;
    this.#sizes.push(size);
    this.#bytesOut += size;
    this.#worker.postMessage(m);
  }

  /** Whether `feed` has sent the whole input (its end included). */
  fed = false;
  #space: (() => void) | undefined;

  /**
   * Sends `chunks` to the thread as they are read, keeping at most BYTES_IN_FLIGHT (and CHUNKS_IN_FLIGHT) unanswered or
   * unconsumed, then the end. A read error fails `next`.
   */
  async feed(chunks: AsyncIterator<Buffer | string>, first?: Buffer): Promise<void> {
    try {
      if (first) this.#send({ kind: 'chunk', chunk: first });
      for (;;) {
        while ((this.inFlight >= CHUNKS_IN_FLIGHT || this.#bytesOut >= BYTES_IN_FLIGHT) && !this.#failed) await new Promise<void>((resolve) => (this.#space = resolve));
        if (this.#failed) return;
        const next = await chunks.next();
        if (next.done) break;
        this.#send({ kind: 'chunk', chunk: asBuffer(next.value) });
      }
      this.#send({ kind: 'end' });
      this.fed = true;
    } catch (e) {
      this.#failed ??= e instanceof Error ? e : new Error(String(e));
      this.#notify();
      throw e;
    }
  }

  /** The records of the oldest unanswered message. */
  async next(): Promise<IngestRecord[]> {
    while (this.#replies.length === 0) {
      if (this.#failed) throw this.#failed;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    const m = this.#replies.shift()!;
    this.inFlight--;
    this.#bytesOut -= this.#sizes.shift() ?? 0;
    this.#roomMade();
    // The input is read on this thread, and its reads complete only when this thread turns its
    // event loop: a consumer with replies at hand would otherwise not read until it ran out, and
    // then wait for the thread to parse what it sent.
    if (!this.fed) await new Promise<void>((resolve) => setImmediate(resolve));
    if ('error' in m) throw new Error(`zgrab2 parser thread: ${m.error}`);
    return m.records;
  }

  stop(): void {
    void this.#worker.terminate();
  }
}

/** The parser thread: the same splitting and mapping as the reading thread, on chunks it is sent. */
function runParserThread(): void {
  let splitter = new LineSplitter();
  let now = new Date();
  let options: Zgrab2Options = {};
  const lines: Line[] = [];
  parentPort!.on('message', (m: ParserRequest) => {
    const records: IngestRecord[] = [];
    try {
      if (m.kind === 'start') {
        if (!Number.isNaN(m.nowMs)) {
          now = new Date(m.nowMs);
          options = m.options;
        }
        splitter = new LineSplitter(m.number, m.carry ? Buffer.from(m.carry) : undefined);
      } else if (m.kind === 'chunk') {
        splitter.push(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength), lines);
      } else {
        splitter.end(lines);
      }
      for (const line of lines) lineRecords(line, now, options, records);
      lines.length = 0;
      parentPort!.postMessage({ records } satisfies ParserReply);
    } catch (e) {
      parentPort!.postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies ParserReply);
    }
  });
}

if (!isMainThread && (workerData as { kind?: unknown } | null)?.kind === PARSER_KIND) runParserThread();

export const zgrab2Source: IngestSource = makeZgrab2Source();

