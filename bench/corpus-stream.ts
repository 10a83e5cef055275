/**
 * The benchmark corpus generated on a worker thread while it is read, instead of from the file
 * corpus-file.ts writes: at 10,000,000 hosts that file would take ~59 GB beside the index's
 * segments. The lines are the file's, so an engine loads the same documents (and parses them,
 * as from the file). Used by `npm run bench -- --stream` (Periscope alone).
 */
import { Worker } from 'node:worker_threads';
import type { CorpusEntry } from './corpus-file.ts';

const IN_FLIGHT = 64;

export async function* streamCorpus(hosts: number, seed: number, batchSize: number, limit = Infinity): AsyncGenerator<CorpusEntry[]> {
  const shared = new SharedArrayBuffer(4);
  const pending = new Int32Array(shared);
  const worker = new Worker(new URL('../src/engine/embedded/merge-worker-boot.mjs', import.meta.url), {
    workerData: { module: new URL('./corpus-stream-worker.ts', import.meta.url).href, hosts, seed, batchSize, shared, inFlight: IN_FLIGHT },
  });
  const queue: (string | null)[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  worker.on('message', (m: string | null) => {
    queue.push(m);
    wake?.();
  });
  worker.on('error', (e) => {
    failure = e;
    wake?.();
  });
  let done = 0;
  try {
    for (;;) {
      while (queue.length === 0 && !failure) await new Promise<void>((r) => (wake = r));
      if (failure) throw failure;
      const text = queue.shift()!;
      if (text === null) return;
      Atomics.sub(pending, 0, 1);
      Atomics.notify(pending, 0);
      const batch = text.split('\n').map((line) => JSON.parse(line) as CorpusEntry);
      const room = limit - done;
      done += batch.length;
      yield batch.length > room ? batch.slice(0, room) : batch;
      if (done >= limit) return;
    }
  } finally {
    await worker.terminate();
  }
}
