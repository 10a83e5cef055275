/**
 * A merge on a worker thread (EngineDirectory.merge): opens an index's full segment and its
 * deltas from the files the manifest lists, into an IndexData of its own, and writes them as one
 * full segment (`<file>.tmp`, fsync, rename). The engine's state is never shared: the files are
 * immutable, and the merged segment holds exactly what the chain held, so deltas written while
 * the merge ran still apply on top of it. Blocks no delta touched are copied without decoding.
 */
import { closeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { FieldCatalogue, IndexName } from '../../model/field-def.ts';
import { restoreChain, writeSegmentFile, type SegmentEntry } from './engine-directory.ts';
import { IndexData } from './index-data.ts';

interface MergeJob {
  readonly dir: string;
  readonly index: IndexName;
  readonly roots: readonly string[];
  readonly entry: SegmentEntry;
  readonly file: string;
  /** Shared with EngineDirectory.merge: the result, for a main thread whose event loop is busy. */
  readonly state: Float64Array;
}

const job = workerData as MergeJob;
const fds: number[] = [];
try {
  // Restoring and writing need the nested roots only (slot flags are read from the segments).
  const catalogue = { nestedRoots: job.roots, all: () => [] } as unknown as FieldCatalogue;
  const data = new IndexData(job.index, catalogue);
  restoreChain(data, job.dir, job.entry, fds);
  const info = writeSegmentFile(job.dir, job.file, (w) => data.write(w, true));
  job.state[1] = info.bytes;
  job.state[2] = info.crc;
  job.state[3] = data.docs.liveCount;
  Atomics.store(new Int32Array(job.state.buffer, 40, 1), 0, 1);
  parentPort!.postMessage({ ok: true, bytes: info.bytes, crc: info.crc, documents: data.docs.liveCount });
} catch (err) {
  Atomics.store(new Int32Array(job.state.buffer, 40, 1), 0, 2);
  parentPort!.postMessage({ ok: false, error: (err as Error).message });
} finally {
  for (const fd of fds) closeSync(fd);
}
