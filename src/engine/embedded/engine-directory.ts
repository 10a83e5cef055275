/**
 * The embedded engine on disk (`<data-dir>/engine/`): one immutable segment file per index and
 * checkpoint, a manifest naming the live segments, and per-process journals of the ids written
 * to the store since. A checkpoint writes each segment to a temporary file, fsyncs and renames
 * it, then replaces the manifest the same way; only then are older segments and the journals
 * the new segments cover deleted, so a kill at any moment leaves either the old or the new
 * state, never a half-written one. Layout and guarantees: docs/ARCHITECTURE.md, "Engine segments".
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlink,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FieldCatalogue, IndexName } from '../../model/field-def.ts';
import type { CheckpointInfo, EnginePersistence, OpenResult } from '../search-engine.ts';
import type { EngineCatalogues } from '../reference/reference-engine.ts';
import type { IndexData } from './index-data.ts';
import { CorruptSegmentError, SEGMENT_FORMAT_VERSION, SegmentReader, SegmentWriter } from './segment-codec.ts';
import { writerAlive } from './process-identity.ts';

export const MANIFEST_FILE = 'manifest.json';
/** Holds the pid of the process that opened the directory and may checkpoint it. */
export const OWNER_FILE = 'owner.pid';
const INDEXES: readonly IndexName[] = ['hosts', 'certificates'];

/**
 * Changes whenever the same documents would be indexed differently: the full-text fields and
 * nested roots of the catalogues, and INDEXING_VERSION (bump it when the indexing code changes
 * what it records, e.g. the tokenizer). Segments of another fingerprint are rebuilt.
 */
const INDEXING_VERSION = 1;

export function indexingFingerprint(catalogues: EngineCatalogues): string {
  const describe = (c: FieldCatalogue) => ({
    roots: [...c.nestedRoots],
    fulltext: c
      .all()
      .filter((f) => f.fullText && (f.type === 'text' || f.type === 'keyword'))
      .map((f) => `${f.docPath}:${f.type}`)
      .sort(),
  });
  const text = JSON.stringify({ v: INDEXING_VERSION, hosts: describe(catalogues.hosts), certificates: describe(catalogues.certificates) });
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

export interface SegmentFile {
  readonly file: string;
  readonly formatVersion: number;
  readonly bytes: number;
  readonly crc32: number;
  readonly documents: number;
}

/** A full segment and (manifest 2+) the delta segments applied on top of it, oldest first. */
export interface SegmentEntry extends SegmentFile {
  readonly deltas?: readonly SegmentFile[];
}

/** 1: one full segment per index. 2: a full segment plus deltas (format 4+). */
export const MANIFEST_VERSION = 2;

/**
 * A merge starts once an index's deltas add up to this share of its full segment's bytes (the
 * deltas are then rewritten into one full segment off the event loop, see merge-worker.ts).
 */
export const MERGE_SHARE = 0.25;
/** Or once there are this many deltas (each costs a block read per slot it touched at first use). */
export const MERGE_DELTAS = 24;
/** A chain this long (merges keep failing or never finish) is merged by the next checkpoint itself. */
export const MAX_DELTAS = 64;

export interface Manifest {
  readonly manifestVersion: 1 | 2;
  readonly generation: number;
  readonly fingerprint: string;
  readonly createdAt: string;
  readonly segments: Record<IndexName, SegmentEntry>;
}

interface JournalFile {
  readonly name: string;
  readonly pid: number;
  /** When the journal was created (its name holds Date.now() * 1000 plus a sequence number). */
  readonly createdMs: number;
}

function parseJournalName(name: string): JournalFile | undefined {
  const m = /^journal-(\d+)-(\d+)\.log$/.exec(name);
  return m ? { name, pid: Number(m[1]), createdMs: Math.floor(Number(m[2]) / 1000) } : undefined;
}

/** Claimed by the one process that replaces a dead owner's owner.pid (see takeOwnership). */
const TAKEOVER_FILE = `${OWNER_FILE}.takeover`;
/** A takeover lasts microseconds: a claim older than this was left by a process that died in it. */
const TAKEOVER_STALE_MS = 30_000;

/** Links `from` as `to` unless `to` exists (false then): atomic, so only one of several processes succeeds. */
function linkIfAbsent(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** The pid in an owner or claim file and when it was written (its mtime), or undefined when it is gone. */
function readPidFile(file: string): { pid: number; writtenMs: number; text: string } | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    return { pid: Number(text.trim()), writtenMs: statSync(file).mtimeMs, text };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `data` to `file` atomically: temporary file, fsync, rename, fsync of the directory. */
export function writeFileAtomic(dir: string, file: string, data: string): void {
  const tmp = join(dir, `${file}.tmp`);
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dir, file));
  fsyncDir(dir);
}

/**
 * Reads the ids a journal names; a torn last line (the writer was killed mid-append) is ignored.
 * Returns false when the journal holds a write it could not name (`["*"]`): only a reload of the
 * whole store is then right.
 */
export function readJournal(file: string, into: Map<IndexName, Set<string>>): boolean {
  const text = readFileSync(file, 'utf8');
  let named = true;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      continue;
    }
    if (Array.isArray(rec) && rec[0] === '*') named = false;
    if (!Array.isArray(rec) || (rec[0] !== 'hosts' && rec[0] !== 'certificates') || !Array.isArray(rec[1])) continue;
    let set = into.get(rec[0]);
    if (!set) into.set(rec[0], (set = new Set()));
    for (const id of rec[1]) if (typeof id === 'string') set.add(id);
  }
  return named;
}

/**
 * Checks a segment file and loads it into an empty IndexData; throws CorruptSegmentError when
 * it cannot be trusted. Returns the file descriptor left open for blocks not decoded yet.
 */
export function restoreSegment(data: IndexData, file: string, expect?: { formatVersion: number; crc32: number; file: string }, delta = false): number | undefined {
  const r = SegmentReader.open(file);
  try {
    if (expect && (r.header.version !== expect.formatVersion || r.header.crc !== expect.crc32)) {
      throw new CorruptSegmentError(`${expect.file} is not the segment the manifest lists`);
    }
    if (r.header.version > SEGMENT_FORMAT_VERSION || r.header.version < 1) {
      throw new CorruptSegmentError(`${file}: format version ${r.header.version} is not one this program reads`);
    }
    // Each structure decodes the layouts of every version up to the current one.
    if (delta) data.restoreDelta(r);
    else data.restore(r);
    if (!r.atEnd) throw new CorruptSegmentError(`${file}: bytes left after the index`);
  } catch (err) {
    const fd = r.close();
    if (fd !== undefined) closeSync(fd);
    throw err;
  }
  return r.close();
}

/**
 * Loads a full segment and its deltas (a manifest entry) into an empty IndexData; returns the
 * descriptors left open for blocks not decoded yet. Throws CorruptSegmentError as restoreSegment.
 */
export function restoreChain(data: IndexData, dir: string, entry: SegmentEntry, fds: number[]): void {
  const fd = restoreSegment(data, join(dir, entry.file), entry);
  if (fd !== undefined) fds.push(fd);
  for (const d of entry.deltas ?? []) {
    const dfd = restoreSegment(data, join(dir, d.file), d, true);
    if (dfd !== undefined) fds.push(dfd);
  }
}

/** The manifest of engine directory `dir`; CorruptSegmentError when there is none or it cannot be read. */
export function readManifest(dir: string): Manifest {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file)) throw new CorruptSegmentError('no segments yet');
  let m: Manifest;
  try {
    m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch {
    throw new CorruptSegmentError('manifest is not valid JSON');
  }
  if (m.manifestVersion !== 1 && m.manifestVersion !== 2) throw new CorruptSegmentError(`unknown manifest version ${String(m.manifestVersion)}`);
  return m;
}

/** Writes one segment file (`fill` writes its body) as `<file>.tmp`, fsynced, then renamed; the caller fsyncs the directory. */
export function writeSegmentFile(dir: string, file: string, fill: (w: SegmentWriter) => void): { bytes: number; crc: number } {
  const tmp = join(dir, `${file}.tmp`);
  const fd = openSync(tmp, 'w');
  let info: { bytes: number; crc: number };
  try {
    const w = new SegmentWriter(fd);
    fill(w);
    info = w.finish();
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dir, file));
  return info;
}

/** A merge running on a worker thread: the chain it rewrites and the file it writes. */
interface RunningMerge {
  readonly index: IndexName;
  readonly base: string;
  readonly deltas: readonly string[];
  readonly file: string;
  readonly worker: Worker;
  readonly done: Promise<void>;
  /** Shared with the worker: bytes, CRC and documents at [1..3], and at byte 40 an int32 flag, 1 once the segment is written (2 on failure). */
  readonly state: Float64Array;
  readonly settle: (result: { bytes: number; crc: number; documents: number } | undefined, failure?: string) => void;
}

export class EngineDirectory implements EnginePersistence {
  private manifest: Manifest | undefined;
  private journalFd: number | undefined;
  private journalName: string | undefined;
  private journalSeq = 0;
  /** Journals whose ids the engine state holds: deleted after the next checkpoint. */
  private covered = new Set<string>();
  /** Set by storeOnly(): the journal only names ids. */
  private writesOnly = false;
  /** Ids journaled here and not yet applied to the engine (carried into the next journal). */
  private readonly unapplied: Record<IndexName, Map<string, number>> = { hosts: new Map(), certificates: new Map() };
  pending = 0;
  opened = false;
  /** Segment files with blocks still on disk. */
  private readonly segmentFds: number[] = [];
  /**
   * Another live process owns the directory (two servers on one data directory): this one
   * opens the segments and journals its writes, but never checkpoints.
   */
  shared = false;
  private owner = false;
  /** Set by the engine on every change; a checkpoint at close is skipped when nothing changed. */
  dirty = false;
  /** Set when a damaged block was met: the engine was emptied and waits for a rebuild from the store. */
  broken: Error | undefined;
  /** Ids journaled since the engine was emptied (the rebuild's scan may have read them before their write). */
  private sinceBroken: Record<IndexName, Set<string>> | undefined;
  private readonly corruptListeners: ((err: Error) => void)[] = [];

  constructor(
    readonly dir: string,
    private readonly fingerprint: string,
    private readonly data: Record<IndexName, IndexData>,
    private readonly fresh: (index: IndexName) => IndexData,
  ) {}

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true });
  }

  private appendJournal(index: IndexName, ids: readonly string[], sync = true): void {
    this.appendRecord(JSON.stringify([index, ids]), sync);
  }

  /** Appends a record, on disk when this returns unless `sync` is false (journalDurably syncs it). */
  private appendRecord(line: string, sync = true): void {
    if (this.journalFd === undefined) {
      this.ensureDir();
      this.journalName = `journal-${process.pid}-${Date.now() * 1000 + (this.journalSeq++ % 1000)}.log`;
      this.journalFd = openSync(join(this.dir, this.journalName), 'a');
      this.unknownInCurrent = false;
    }
    writeSync(this.journalFd, line + '\n');
    if (sync) fsyncSync(this.journalFd);
  }

  /** journalDurably's records on disk, in call order. */
  private durable: Promise<void> = Promise.resolve();

  /**
   * This process writes the store and never opens the engine (CLI commands): its journal only
   * names ids, for the server to re-read. The bookkeeping of ids not yet applied to an engine is
   * skipped: a long ingest held every id it wrote in it (a million strings at 1M hosts, which the
   * garbage collector walked again and again) for a checkpoint that never comes.
   */
  storeOnly(): void {
    if (this.opened) throw new Error('storeOnly() after open(): this process serves the engine');
    this.writesOnly = true;
  }

  journal(index: IndexName, ids: readonly string[], sync = true): void {
    if (ids.length === 0) return;
    this.appendJournal(index, ids, sync);
    if (this.writesOnly) return;
    if (this.sinceBroken) for (const id of ids) this.sinceBroken[index].add(id);
    const m = this.unapplied[index];
    for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
    this.pending += ids.length;
  }

  /**
   * journal(), with the record written at once and synced to disk off this thread: the promise
   * resolves once it is on disk, and the promises of successive calls resolve in call order.
   * Syncing the journal waits for the file system to write the data written before it, the
   * store's WAL included: on ingest's thread it blocked 8 µs per record (ingest round 10). A
   * second descriptor is synced, so a checkpoint may close or retire the journal meanwhile.
   *
   * Only in a process that writes the store and never opens the engine (storeOnly: `ingest`,
   * `import`); elsewhere this is journal() and returns undefined. A store write that waits for the
   * sync starts only when this thread next turns its event loop, and a thread that indexes each
   * batch while the store writes the next (Indexer.putAll) turned it too late: the benchmark's
   * load of 100,000 hosts took 38-41 s instead of 34-38.
   */
  journalDurably(index: IndexName, ids: readonly string[]): Promise<void> | undefined {
    if (!this.writesOnly) {
      this.journal(index, ids);
      return undefined;
    }
    if (ids.length === 0) return this.durable;
    this.journal(index, ids, false);
    // Opened now: a checkpoint may retire the journal's name before the sync runs.
    const fd = openSync(join(this.dir, this.journalName!), 'r');
    const synced = new Promise<void>((resolve, reject) => {
      fsync(fd, (err) => {
        try {
          closeSync(fd);
        } catch {
          // Synced or not, the descriptor is gone; the sync's own outcome is what counts.
        }
        if (err) reject(err);
        else resolve();
      });
    });
    const done = Promise.all([this.durable, synced]).then(() => undefined);
    this.durable = done.catch(() => undefined);
    return done;
  }

  /** A write whose documents are unknown (a store method the journal does not understand). */
  journalUnknown(): void {
    this.unknownSeen = true;
    if (!this.unknownInCurrent) {
      this.appendRecord('["*"]');
      this.unknownInCurrent = true;
    }
  }

  /** This process made a write the journal could not name (carried into every later journal). */
  private unknownSeen = false;
  private unknownInCurrent = false;

  applied(index: IndexName, ids: readonly string[]): void {
    const m = this.unapplied[index];
    for (const id of ids) {
      const n = m.get(id);
      if (n === undefined) continue;
      if (n <= 1) m.delete(id);
      else m.set(id, n - 1);
    }
  }

  readManifest(): Manifest {
    return readManifest(this.dir);
  }

  /**
   * The segments the engine's state is exactly (opened from them and unchanged since), so that
   * another thread opening them holds the same documents; undefined otherwise.
   */
  get cleanSegments(): Record<IndexName, SegmentEntry> | undefined {
    return this.opened && !this.dirty && !this.broken && !this.shared && this.manifest ? this.manifest.segments : undefined;
  }

  open(): OpenResult {
    if (this.opened) throw new Error('engine directory opened twice');
    if (this.writesOnly) throw new Error('open() in a store-only process');
    for (const index of INDEXES) if (this.data[index].docs.idCount !== 0) throw new Error('open() needs an empty engine');
    this.opened = true;
    this.dirty = true;
    const started = performance.now();
    this.claim();
    // Journals present now: their ids are replayed (loaded) or read by the rebuild.
    const tail = new Map<IndexName, Set<string>>();
    const journals = existsSync(this.dir) ? readdirSync(this.dir).map(parseJournalName).filter((j) => j !== undefined) : [];
    let unnamed = false;
    for (const j of journals) {
      if (!readJournal(join(this.dir, j.name), tail)) unnamed = true;
      const own = j.name === this.journalName;
      // A journal of a process still running may grow: it is replayed again at the next start.
      // One whose pid now belongs to a process started after it was created is a dead one's.
      if (own || j.pid === process.pid || !writerAlive(j.pid, j.createdMs)) this.covered.add(j.name);
    }
    try {
      if (unnamed) throw new CorruptSegmentError('a journal holds a write it could not name: the store is reloaded');
      const m = this.readManifest();
      if (m.fingerprint !== this.fingerprint) throw new CorruptSegmentError('the catalogue or the indexing code changed since the segments were written');
      for (const index of INDEXES) {
        const entry = m.segments[index];
        if (!entry) throw new CorruptSegmentError(`manifest lists no ${index} segment`);
        restoreChain(this.data[index], this.dir, entry, this.segmentFds);
      }
      this.manifest = m;
      // The next checkpoint may append a delta to these segments (a process that does not own
      // the directory never checkpoints: it records nothing).
      for (const index of INDEXES) {
        this.data[index].markSaved();
        if (this.shared) this.data[index].forgetChanges();
      }
    } catch (err) {
      for (const index of INDEXES) this.data[index] = this.fresh(index);
      for (const fd of this.segmentFds.splice(0)) closeSync(fd);
      if (err instanceof CorruptSegmentError || (err as NodeJS.ErrnoException).code === 'ENOENT') {
        return { loaded: false, reason: (err as Error).message };
      }
      return { loaded: false, reason: `segments unreadable: ${(err as Error).message}` };
    }
    const out = new Map<IndexName, readonly string[]>();
    for (const [index, ids] of tail) out.set(index, [...ids]);
    const documents = INDEXES.reduce((n, i) => n + this.data[i].docs.liveCount, 0);
    return { loaded: true, tail: out, documents, ms: performance.now() - started };
  }

  /**
   * Swaps the in-memory index for the segments just written, when nothing changed since the
   * checkpoint: what loading built (every value's dictionary entry, postings, views) is dropped,
   * and the engine serves from the segments as after a restart, decoding a block when a query
   * first needs it. After a load of the whole store this takes resident memory from the load's
   * to a restart's. Returns false, changing nothing, when there is nothing to swap in: no
   * checkpoint of this process, a change since, a merge running, damage.
   */
  reopen(): boolean {
    const m = this.manifest;
    if (!m || this.dirty || this.shared || this.broken || this.merges.size > 0) return false;
    const fds: number[] = [];
    const next = {} as Record<IndexName, IndexData>;
    try {
      for (const index of INDEXES) {
        next[index] = this.fresh(index);
        restoreChain(next[index], this.dir, m.segments[index], fds);
      }
    } catch {
      // The segments were written a moment ago; if they cannot be read back, keep serving
      // from memory (the next start checks them again).
      for (const fd of fds) closeSync(fd);
      return false;
    }
    for (const index of INDEXES) {
      this.data[index] = next[index];
      this.data[index].markSaved();
    }
    for (const fd of this.segmentFds.splice(0, this.segmentFds.length, ...fds)) closeSync(fd);
    return true;
  }

  /** Empties the engine after open() (the caller reloads the whole store instead of a large tail). */
  reset(): void {
    for (const index of INDEXES) this.data[index] = this.fresh(index);
    for (const fd of this.segmentFds.splice(0)) closeSync(fd);
  }

  /** Takes ownership of the directory unless a live process holds it. */
  private claim(): void {
    this.ensureDir();
    const file = join(this.dir, OWNER_FILE);
    // The pid is written to a file of its own, then linked as owner.pid (which fails if it
    // exists): owner.pid never exists empty. Created empty and then written, a process starting
    // at the same moment read it empty, took it for a dead owner's and removed it: two owners
    // checkpointing one directory, each listing only its own writes.
    const mine = join(this.dir, `${OWNER_FILE}.${process.pid}.tmp`);
    writeFileSync(mine, String(process.pid));
    try {
      this.takeOwnership(file, mine);
    } finally {
      rmSync(mine, { force: true });
    }
  }

  /**
   * Links `mine` as owner.pid, or finds a live owner (this process then shares the directory).
   * A dead owner's file is replaced by one process only: whoever links the takeover claim
   * first removes it (checking it is still the dead owner's) and links its own; the others find
   * the claim held, or the new owner, and share. Removing the file without the claim, two
   * processes finding the same dead owner could remove each other's fresh file and both own it.
   */
  private takeOwnership(file: string, mine: string): void {
    const claim = join(this.dir, TAKEOVER_FILE);
    for (let attempt = 0; attempt < 4; attempt++) {
      if (linkIfAbsent(mine, file)) {
        this.owner = true;
        return;
      }
      const owner = readPidFile(file);
      if (!owner) continue;
      // A file with this process's pid is a dead predecessor's (or this process opened the
      // directory again): either way it is replaced, as a dead owner's is.
      if (owner.pid !== process.pid && writerAlive(owner.pid, owner.writtenMs)) {
        this.shared = true;
        return;
      }
      if (!linkIfAbsent(mine, claim)) {
        const taker = readPidFile(claim);
        if (taker && writerAlive(taker.pid, taker.writtenMs) && Date.now() - taker.writtenMs < TAKEOVER_STALE_MS) {
          // Another process is taking over at this moment.
          this.shared = true;
          return;
        }
        // Left by a process that died while taking over.
        if (taker) rmSync(claim, { force: true });
        continue;
      }
      try {
        if (readPidFile(file)?.text === owner.text) rmSync(file, { force: true });
        if (linkIfAbsent(mine, file)) {
          this.owner = true;
          return;
        }
      } finally {
        rmSync(claim, { force: true });
      }
    }
    this.shared = true;
  }

  onCorrupt(listener: (err: Error) => void): void {
    this.corruptListeners.push(listener);
  }

  /**
   * A block failed its checksum while being decoded: the segments cannot be trusted. The
   * manifest is removed (a restart rebuilds from the store), the engine is emptied, queries
   * fail until rebuilt() is called, and the listeners (the Indexer) rebuild from the store.
   */
  corrupted(err: Error): void {
    if (this.broken) return;
    this.broken = err;
    this.sinceBroken = { hosts: new Set(), certificates: new Set() };
    rmSync(join(this.dir, MANIFEST_FILE), { force: true });
    this.manifest = undefined;
    for (const index of INDEXES) this.data[index] = this.fresh(index);
    for (const fd of this.segmentFds.splice(0)) closeSync(fd);
    for (const l of this.corruptListeners) l(err);
  }

  /**
   * The ids journaled since the engine was emptied, for the rebuild to refresh last. They count as
   * not applied until the caller says so (applied()): a checkpoint made before their refresh (a
   * write past the threshold meanwhile) carries them into the next journal instead of covering a
   * version the reload's scan may have read before their write.
   */
  journaledSinceBroken(): Map<IndexName, string[]> {
    const out = new Map<IndexName, string[]>();
    if (this.sinceBroken) {
      for (const index of INDEXES) {
        const ids = [...this.sinceBroken[index]];
        const m = this.unapplied[index];
        for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
        out.set(index, ids);
      }
    }
    return out;
  }

  /** The rebuild from the store is complete: queries are answered again. */
  rebuilt(): void {
    this.broken = undefined;
    this.sinceBroken = undefined;
  }

  /**
   * With `full`, every index is written whole (a merge on the event loop, as at a clean close).
   * With `keepJournals`, the segments are written and listed but every journal stays, still to be
   * replayed at the next open: a part of a PartedEngine sealed while other parts hold documents
   * its journals name (parted-directory.ts).
   */
  checkpoint(full = false, keepJournals = false): CheckpointInfo {
    try {
      return this.write(full, keepJournals);
    } catch (err) {
      // What the failed checkpoint wrote is not listed: the next one writes the whole index.
      for (const index of INDEXES) this.data[index].forgetChanges();
      // Copying a block checks its checksum: damage found here is handled as in a query.
      if (err instanceof CorruptSegmentError) this.corrupted(err);
      throw err;
    }
  }

  /**
   * Writes what changed since the last checkpoint: per index a delta segment appended to the
   * manifest's chain when the index recorded its changes since (IndexData.deltaReady), else
   * (or with `full`) a full segment replacing the chain. Deltas grown past MERGE_SHARE of their
   * full segment are merged into a new one by a worker thread (merge()).
   */
  private write(full: boolean, keepJournals = false): CheckpointInfo {
    if (!this.opened) throw new Error('checkpoint before open(): the engine does not hold the whole store');
    // Emptied after a damaged block, the engine holds part of the store at most until the
    // Indexer's reload calls rebuilt(): listing that as the segments (a write reaching the
    // threshold, a clean close) would make the next start trust it. Nothing is written; the
    // journals stay, and a start before the reload is done finds no manifest and reloads the store.
    if (this.shared || this.broken) return { generation: this.manifest?.generation ?? 0, bytes: 0, ms: 0 };
    const started = performance.now();
    this.ensureDir();
    this.collectMerges();
    const generation = (this.manifest?.generation ?? 0) + 1;
    // Rotate the journal: what this process journaled so far is covered by the new segments,
    // except ids whose store write has not reached the engine yet, which move to the new journal.
    if (this.journalFd !== undefined && !keepJournals) {
      closeSync(this.journalFd);
      this.covered.add(this.journalName!);
      this.journalFd = undefined;
      this.journalName = undefined;
    }
    if (!keepJournals) {
      for (const index of INDEXES) {
        const ids = [...this.unapplied[index].keys()];
        if (ids.length > 0) this.appendJournal(index, ids);
      }
      if (this.unknownSeen) {
        this.appendRecord('["*"]');
        this.unknownInCurrent = true;
      }
    }
    const segments = {} as Record<IndexName, SegmentEntry>;
    let bytes = 0;
    const stamp = String(generation).padStart(8, '0');
    for (const index of INDEXES) {
      const data = this.data[index];
      const prev = this.manifest?.segments[index];
      // A failed merge, or a chain no merge could shorten, is merged here, on the event loop.
      const merge = this.mergeFailed.has(index) || (prev?.deltas?.length ?? 0) >= MAX_DELTAS;
      // Over an empty segment (a part of a PartedEngine is saved empty when it is made) a delta
      // would be the whole index anyway, and would start a merge at once.
      if (!full && !merge && prev && data.savedDocuments > 0 && data.deltaReady) {
        if (!data.changedSinceSaved.changed) {
          segments[index] = prev;
          continue;
        }
        const file = `${index}-${stamp}.delta.seg`;
        const info = writeSegmentFile(this.dir, file, (w) => data.writeDelta(w));
        const delta: SegmentFile = { file, formatVersion: SEGMENT_FORMAT_VERSION, bytes: info.bytes, crc32: info.crc, documents: data.docs.liveCount };
        segments[index] = { ...prev, documents: data.docs.liveCount, deltas: [...(prev.deltas ?? []), delta] };
        bytes += info.bytes;
        continue;
      }
      const file = `${index}-${stamp}.seg`;
      const info = writeSegmentFile(this.dir, file, (w) => data.write(w));
      segments[index] = { file, formatVersion: SEGMENT_FORMAT_VERSION, bytes: info.bytes, crc32: info.crc, documents: data.docs.liveCount };
      bytes += info.bytes;
    }
    fsyncDir(this.dir);
    this.writeManifest(generation, segments);
    for (const index of INDEXES) this.data[index].markSaved();
    for (const index of INDEXES) if (!segments[index].deltas?.length) this.mergeFailed.delete(index);
    // The new state is durable: older segments, leftovers of killed checkpoints and covered journals go.
    this.removeStale(!keepJournals);
    if (!keepJournals) {
      this.covered = new Set();
      this.pending = 0;
    }
    this.dirty = false;
    for (const index of INDEXES) this.maybeMerge(index);
    return { generation, bytes, ms: performance.now() - started };
  }

  private writeManifest(generation: number, segments: Record<IndexName, SegmentEntry>): void {
    const manifest: Manifest = { manifestVersion: MANIFEST_VERSION, generation, fingerprint: this.fingerprint, createdAt: new Date().toISOString(), segments };
    writeFileAtomic(this.dir, MANIFEST_FILE, JSON.stringify(manifest, null, 2) + '\n');
    this.manifest = manifest;
  }

  /** Deletes segment files the manifest does not list (but not those a running merge writes) and, with `journals`, covered journals. */
  private removeStale(journals = true): void {
    const live = new Set<string>();
    for (const s of Object.values(this.manifest!.segments)) {
      live.add(s.file);
      for (const d of s.deltas ?? []) live.add(d.file);
    }
    for (const m of this.merges.values()) live.add(m.file);
    for (const name of readdirSync(this.dir)) {
      const stale = (name.endsWith('.seg') && !live.has(name)) || (name.endsWith('.seg.tmp') && !live.has(name.slice(0, -4)));
      if (stale) {
        // After a merge, off the event loop: unlinking a large file can take tens of milliseconds.
        if (journals) rmSync(join(this.dir, name), { force: true });
        else unlink(join(this.dir, name), () => {});
      } else if (journals && this.covered.has(name)) rmSync(join(this.dir, name), { force: true });
    }
  }

  /** Indexes whose last merge failed: their next checkpoint writes a full segment instead of a delta. */
  private readonly mergeFailed = new Set<IndexName>();
  /** Merges running on worker threads, per index. */
  private readonly merges = new Map<IndexName, RunningMerge>();
  /** Merges are started by checkpoints (tests turn them off to keep deltas). */
  mergeEnabled = true;

  private maybeMerge(index: IndexName): void {
    const entry = this.manifest?.segments[index];
    if (!this.mergeEnabled || !entry?.deltas?.length || this.merges.has(index)) return;
    const deltaBytes = entry.deltas.reduce((n, d) => n + d.bytes, 0);
    if (deltaBytes < entry.bytes * MERGE_SHARE && entry.deltas.length < MERGE_DELTAS) return;
    this.startMerge(index);
  }

  /**
   * Merges the index's chain now (see startMerge) and resolves when done; the process stays
   * alive for it (merges a checkpoint starts do not hold the process up).
   */
  merge(index: IndexName): Promise<void> {
    this.startMerge(index);
    const running = this.merges.get(index);
    if (!running) return Promise.resolve();
    running.worker.ref();
    return running.done;
  }

  /**
   * Rewrites the index's full segment and deltas into one full segment on a worker thread (it
   * opens the files the manifest lists, so the engine's state is not shared and requests go on),
   * then lists it in the manifest in place of them, keeping the deltas written meanwhile.
   * The merged segment is dropped if the chain was replaced meanwhile (a full checkpoint, a rebuild).
   */
  private startMerge(index: IndexName): void {
    if (this.merges.has(index)) return;
    const entry = this.manifest?.segments[index];
    if (!entry?.deltas?.length || this.shared || this.closedDir) return;
    const file = `${index}-${String(this.manifest!.generation).padStart(8, '0')}.merged.seg`;
    const roots = [...this.data[index].nested.keys()];
    const state = new Float64Array(new SharedArrayBuffer(6 * 8));
    const worker = new Worker(new URL('./merge-worker-boot.mjs', import.meta.url), {
      workerData: { module: new URL('./merge-worker.ts', import.meta.url).href, dir: this.dir, index, roots, entry, file, state },
    });
    const deltas = entry.deltas.map((d) => d.file);
    let settle!: RunningMerge['settle'];
    const done = new Promise<void>((resolve) => {
      let settled = false;
      // The worker's result is handled when it arrives (its loader hooks may keep the thread
      // alive after its work is done, so it is then terminated); an error or an exit without a
      // result abandons the merge.
      settle = (result, failure) => {
        if (settled) return;
        settled = true;
        this.merges.delete(index);
        try {
          if (result) this.mergeDone(index, entry.file, deltas, file, result);
          else {
            this.lastMergeError = failure ?? 'merge worker exited';
            // A chain replaced meanwhile (a full checkpoint deleted the files the worker was to
            // open) needs no merge: only a failure on the chain still listed makes the next checkpoint full.
            if (this.chainListed(index, entry.file, deltas)) this.mergeFailed.add(index);
            rmSync(join(this.dir, file), { force: true });
            rmSync(join(this.dir, `${file}.tmp`), { force: true });
          }
        } catch (err) {
          this.lastMergeError = (err as Error).message;
        }
        void worker.terminate();
        resolve();
      };
      worker.on('message', (m: { ok: true; bytes: number; crc: number; documents: number } | { ok: false; error: string }) => {
        if (m.ok) settle(m);
        else settle(undefined, m.error);
      });
      worker.on('error', (err) => settle(undefined, err.message));
      worker.on('exit', () => settle(undefined));
    });
    // A running merge does not keep the process alive (close() ends it).
    worker.unref();
    this.merges.set(index, { index, base: entry.file, deltas, file, worker, done, state, settle });
  }

  /**
   * Takes the result of merges whose worker finished, also when its message could not arrive
   * yet (a bulk load may run for minutes without the event loop turning): checkpoints call it.
   */
  private collectMerges(): void {
    for (const m of [...this.merges.values()]) {
      const st = Atomics.load(new Int32Array(m.state.buffer, 40, 1), 0);
      if (st === 1) m.settle({ bytes: m.state[1], crc: m.state[2], documents: m.state[3] });
      else if (st === 2) m.settle(undefined, 'merge failed');
    }
  }

  /** Why the last merge failed (the chain stays as it was; the next checkpoint may try again). */
  lastMergeError: string | undefined;

  /** Whether the manifest still lists `base` with `deltas` as the start of its chain. */
  private chainListed(index: IndexName, base: string, deltas: readonly string[]): boolean {
    const current = this.manifest?.segments[index];
    return !!current && current.file === base && deltas.every((d, i) => current.deltas?.[i]?.file === d);
  }

  /** Lists a merged segment in place of the chain it was made from, if that chain is still listed. */
  private mergeDone(index: IndexName, base: string, deltas: readonly string[], file: string, result: { bytes: number; crc: number; documents: number }): void {
    const current = this.manifest?.segments[index];
    if (!current || this.closedDir || !this.chainListed(index, base, deltas)) {
      rmSync(join(this.dir, file), { force: true });
      return;
    }
    fsyncDir(this.dir);
    const merged: SegmentEntry = {
      file,
      formatVersion: SEGMENT_FORMAT_VERSION,
      bytes: result.bytes,
      crc32: result.crc,
      documents: current.documents,
      deltas: current.deltas!.slice(deltas.length),
    };
    this.writeManifest(this.manifest!.generation + 1, { ...this.manifest!.segments, [index]: merged });
    // Journals are only covered by a checkpoint: a merge holds nothing the chain did not.
    this.removeStale(false);
  }

  /** Whether the manifest lists delta segments (a clean close merges them). */
  get hasDeltas(): boolean {
    return INDEXES.some((i) => (this.manifest?.segments[i].deltas?.length ?? 0) > 0);
  }

  /** Waits for running merges (tests, benchmarks). */
  async merged(): Promise<void> {
    await Promise.all([...this.merges.values()].map((m) => m.done));
  }

  private closedDir = false;

  /** Closes the journal (the engine checkpoints first when it holds changes). */
  close(): void {
    this.closedDir = true;
    for (const m of this.merges.values()) void m.worker.terminate();
    if (this.journalFd !== undefined) closeSync(this.journalFd);
    this.journalFd = undefined;
    for (const fd of this.segmentFds.splice(0)) closeSync(fd);
    if (this.owner) rmSync(join(this.dir, OWNER_FILE), { force: true });
    this.owner = false;
  }
}
