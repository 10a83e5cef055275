/**
 * The persistence of a PartedEngine: every part keeps its own segments in its own directory
 * (engine-directory.ts), part 0 in the engine directory itself and part k in `part-NNNN/` under
 * it; one journal, part 0's, names every id written (docs/ARCHITECTURE.md, "Engine parts").
 *
 * Why it stays consistent:
 * - A checkpoint writes parts 1.. first and part 0 last, and only that checkpoint of part 0 drops
 *   journals (sealing part 0 keeps them): every id a journal names is in some part's segments
 *   before the journal goes.
 * - A new part is made whole before it takes a document: an empty part is checkpointed under a
 *   temporary name (`part-NNNN.new`) and renamed into place, so `part-NNNN` always has a manifest.
 *   Its documents come later, after part 0's last checkpoint, and part 0's journal names them. A
 *   kill within that first checkpoint leaves only the temporary directory, which held nothing and
 *   is removed at the next start; a `part-NNNN` without a manifest is damage, and the store is
 *   loaded again.
 * - A document is in one part only: a write of an id replaces it in the newest part holding it and
 *   removes it from any other (a copy left in an older part by a removal and a write again, whose
 *   parts were saved in the other order before a kill, goes when the journal replays the id).
 * - A process that shares the directory with a live owner (EngineDirectory.shared) never makes
 *   parts: its new documents go to the newest part it opened, whatever its size.
 * - A load of the whole store (first start, damage, a long tail) seals parts as it goes, which
 *   writes their segments before the load is done: `INCOMPLETE` is written first and removed by
 *   the checkpoint that ends the load, and a start that finds it loads the store again.
 */
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexName } from '../../model/field-def.ts';
import type { CheckpointInfo, EnginePersistence, OpenResult } from '../search-engine.ts';
import type { EmbeddedEngine } from './embedded-engine.ts';
import type { EngineDirectory } from './engine-directory.ts';
import { fsyncDir, writeFileAtomic } from './engine-directory.ts';

/** Present while a load of the whole store into the parts has not reached its checkpoint. */
export const INCOMPLETE_FILE = 'parts-incomplete';

const PART_DIR = /^part-(\d{4,})$/;
/** A part being made: its first, empty checkpoint is written here and the directory renamed into place. */
const NEW_PART_DIR = /^part-\d{4,}\.new$/;

/** Part k's directory: part 0 is the engine directory itself (so directories written before parts existed open as one part). */
export function partDir(dir: string, k: number): string {
  return k === 0 ? dir : join(dir, `part-${String(k).padStart(4, '0')}`);
}

/** The numbers of the part directories on disk under engine directory `dir` (part 0 aside), ascending. */
export function partNumbers(dir: string): number[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => PART_DIR.exec(name))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

/** Removes the directories of parts whose making a kill interrupted (they never held a document). */
function removeUnfinished(dir: string): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) if (NEW_PART_DIR.test(name)) rmSync(join(dir, name), { recursive: true, force: true });
}

/** What the directory needs of its engine: the parts, and making new ones (`at`: in that directory instead of part k's). */
export interface PartsHost {
  parts: EmbeddedEngine[];
  readonly reopened: Set<EmbeddedEngine>;
  newPart(k: number, at?: string): EmbeddedEngine;
  /** Called by open() with the numbers of the parts on disk (part 0 aside) before they are opened. */
  partsFound?(numbers: readonly number[]): void;
  /** Called by open() once every part is open. */
  partsOpened?(): void;
  /** Called when the parts opened are dropped: back to part 0 alone (damage, a load of the whole store), or closed. */
  partsDropped?(): void;
  /** Called after a checkpoint or a reopen of the parts: parts may be clean (their segments exactly) again. */
  partsClean?(): void;
}

function dirOf(part: EmbeddedEngine): EngineDirectory {
  const p = part.persistence;
  if (!p) throw new Error('a part of a persistent engine has no directory');
  return p;
}

export class PartedDirectory implements EnginePersistence {
  constructor(
    readonly dir: string,
    private readonly host: PartsHost,
  ) {
    // Damage in part 0 empties it: the other parts go too, so the reload starts from nothing.
    this.first.onCorrupt(() => this.startOver(false));
  }

  /** Part 0's directory: it holds the journal. */
  private get first(): EngineDirectory {
    return dirOf(this.host.parts[0]);
  }

  journal(index: IndexName, ids: readonly string[]): void {
    this.first.journal(index, ids);
  }

  journalDurably(index: IndexName, ids: readonly string[]): Promise<void> | undefined {
    return this.first.journalDurably(index, ids);
  }

  storeOnly(): void {
    this.first.storeOnly();
  }

  journalUnknown(): void {
    this.first.journalUnknown();
  }

  applied(index: IndexName, ids: readonly string[]): void {
    this.first.applied(index, ids);
  }

  get pending(): number {
    return this.first.pending;
  }

  get opened(): boolean {
    return this.first.opened;
  }

  get broken(): Error | undefined {
    for (const p of this.host.parts) if (p.persistence?.broken) return p.persistence.broken;
    return undefined;
  }

  open(): OpenResult {
    const started = performance.now();
    const incomplete = existsSync(join(this.dir, INCOMPLETE_FILE));
    const first = this.first.open();
    if (!first.loaded) {
      this.startOver(true);
      return first;
    }
    if (incomplete) {
      this.startOver(true);
      return { loaded: false, reason: 'an earlier load of the whole store into the index did not finish' };
    }
    if (!this.first.shared) removeUnfinished(this.dir);
    const numbers = partNumbers(this.dir);
    // The query thread opens its parts while this thread opens every part (query-thread.ts).
    if (!this.first.shared) this.host.partsFound?.(numbers);
    for (let i = 0; i < numbers.length; i++) {
      const k = numbers[i];
      let reason: string | undefined;
      if (k !== i + 1) reason = `part ${i + 1} is missing`;
      else {
        const part = this.host.newPart(k);
        this.watch(part);
        this.host.parts.push(part);
        try {
          const r = part.persistence!.open();
          if (!r.loaded) reason = `part ${k}: ${r.reason}`;
        } catch (err) {
          reason = `part ${k}: ${(err as Error).message}`;
        }
      }
      if (reason !== undefined) {
        this.startOver(true);
        return { loaded: false, reason };
      }
      // Parts other than the first journal nothing: opened, they hold what their segments say.
      dirOf(this.host.parts[this.host.parts.length - 1]).dirty = false;
    }
    let documents = 0;
    for (const part of this.host.parts) documents += part.size('hosts') + part.size('certificates');
    this.host.partsOpened?.();
    return { loaded: true, tail: first.tail, documents, ms: performance.now() - started };
  }

  /** Another live process owns the directory: this one never makes parts (see above). */
  get shared(): boolean {
    return this.first.shared;
  }

  /**
   * A part made while the engine is open: its directory is made whole (an empty checkpoint under
   * a temporary name, renamed into place) and then opened, so that it has a manifest from the start.
   */
  opening(part: EmbeddedEngine, k: number): void {
    this.watch(part);
    if (!this.opened) return;
    const p = dirOf(part);
    const temp = `${p.dir}.new`;
    rmSync(temp, { recursive: true, force: true });
    // Nothing opened uses part k's directory (open() and startOver() remove what they do not open).
    rmSync(p.dir, { recursive: true, force: true });
    const scratch = dirOf(this.host.newPart(k, temp));
    scratch.open();
    scratch.checkpoint();
    scratch.close();
    renameSync(temp, p.dir);
    fsyncDir(this.dir);
    const r = p.open();
    if (!r.loaded) throw new Error(`part ${k} could not be opened just after it was made: ${r.reason}`);
  }

  /** Damage met in a part other than the first is handled as damage in the first. */
  private watch(part: EmbeddedEngine): void {
    dirOf(part).onCorrupt((err) => {
      this.startOver(false);
      this.first.corrupted(err);
    });
  }

  /**
   * A full part: checkpointed, keeping every journal (other parts may not hold what they name
   * yet), and served from its segments from now on. Also while the store is reloaded after damage
   * (INCOMPLETE is there meanwhile), except part 0, which writes nothing until the reload is done.
   */
  seal(part: EmbeddedEngine): void {
    const p = dirOf(part);
    if (!this.opened || !p.opened || p.shared) return;
    // Whole: a delta over the empty segment written when the part was made would start a merge,
    // and a part being merged is not reopened.
    p.checkpoint(true, true);
    if (p.reopen()) this.host.reopened.add(part);
  }

  /**
   * Back to part 0 alone, for a load of the whole store: INCOMPLETE first, then every other part
   * forgotten and its directory removed (a part left on disk would be opened next time).
   */
  private startOver(resetFirst: boolean): void {
    this.host.partsDropped?.();
    if (existsSync(this.dir) && !this.first.shared) {
      writeFileAtomic(this.dir, INCOMPLETE_FILE, 'a load of the whole store into the index has not reached its checkpoint\n');
    }
    for (const part of this.host.parts.slice(1)) {
      const p = dirOf(part);
      p.reset();
      p.close();
      if (!p.shared) rmSync(p.dir, { recursive: true, force: true });
    }
    // Parts on disk that were never opened (open() stops at the first it cannot trust).
    if (!this.first.shared) {
      for (const k of partNumbers(this.dir)) rmSync(partDir(this.dir, k), { recursive: true, force: true });
      removeUnfinished(this.dir);
    }
    if (resetFirst) this.first.reset();
    this.host.parts = [this.host.parts[0]];
    this.host.reopened.clear();
  }

  reset(): void {
    this.startOver(true);
  }

  /**
   * Parts 1.. first, part 0 (and its journals) last; then, when nothing is broken, the load
   * this may end is complete.
   */
  checkpoint(full = false): CheckpointInfo {
    const started = performance.now();
    let bytes = 0;
    for (let k = this.host.parts.length - 1; k >= 1; k--) {
      const p = dirOf(this.host.parts[k]);
      if (p.dirty || full) bytes += p.checkpoint(full).bytes;
    }
    const info = this.first.checkpoint(full);
    this.complete();
    this.host.partsClean?.();
    return { generation: info.generation, bytes: bytes + info.bytes, ms: performance.now() - started };
  }

  private complete(): void {
    const file = join(this.dir, INCOMPLETE_FILE);
    if (this.broken || this.first.shared || !this.first.opened || !existsSync(file)) return;
    rmSync(file, { force: true });
    fsyncDir(this.dir);
  }

  onCorrupt(listener: (err: Error) => void): void {
    this.first.onCorrupt(listener);
  }

  journaledSinceBroken(): ReadonlyMap<IndexName, readonly string[]> {
    return this.first.journaledSinceBroken();
  }

  rebuilt(): void {
    for (const part of this.host.parts) dirOf(part).rebuilt();
  }

  reopen(): boolean {
    let all = true;
    for (const part of this.host.parts) {
      if (this.host.reopened.has(part)) continue;
      if (dirOf(part).reopen()) this.host.reopened.add(part);
      else all = false;
    }
    this.host.partsClean?.();
    return all;
  }

  /** Closes every part's files and journal without a checkpoint (the engine's close() checkpoints). */
  close(): void {
    this.host.partsDropped?.();
    for (const part of this.host.parts) dirOf(part).close();
  }
}
