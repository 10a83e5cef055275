/** A query thread that ends on its first request (query-thread.test.ts): a crash while a main thread waits. */
import { workerData } from 'node:worker_threads';
import type { ThreadData } from '../../src/engine/embedded/query-thread.ts';

(workerData as ThreadData).port.on('message', () => process.exit(3));
