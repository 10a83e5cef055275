// Starts merge-worker.ts on a worker thread: worker threads do not inherit tsx's loader hooks,
// so they are registered here before the TypeScript module is imported.
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
await import(workerData.module);
