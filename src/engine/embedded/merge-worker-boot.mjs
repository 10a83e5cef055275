// Starts merge-worker.ts (or the query thread, query-thread-worker.ts) on a worker thread: worker
// threads do not inherit tsx's loader hooks, so they are registered here before the TypeScript
// module is imported.
import { workerData } from 'node:worker_threads';

// A query thread's main thread may be blocked waiting for a reply (query-thread.ts), where the
// worker's exit event cannot reach it: a thread that ends, or fails to start, says so where the
// wait looks (slot 1 of its signal), and wakes it.
const signal = workerData.signal;
const ended = () => {
  if (!(signal instanceof Int32Array) || signal.length < 2) return;
  Atomics.store(signal, 1, 1);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
};
process.on('exit', ended);
try {
  const { register } = await import('tsx/esm/api');
  register();
  await import(workerData.module);
} catch (err) {
  ended();
  throw err;
}
