/**
 * Worker of corpus-stream.ts: generates the demo corpus (the same lines corpus-file.ts writes)
 * and posts them in batches, at most IN_FLIGHT batches ahead of the reader.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { demoStream } from '../src/ingest/demo/index.ts';
import { certificatesFor } from './corpus-file.ts';

const { hosts, seed, batchSize, shared, inFlight } = workerData as { hosts: number; seed: number; batchSize: number; shared: SharedArrayBuffer; inFlight: number };
const pending = new Int32Array(shared);

function send(lines: string[]): void {
  for (;;) {
    const now = Atomics.load(pending, 0);
    if (now < inFlight) break;
    Atomics.wait(pending, 0, now, 1000);
  }
  Atomics.add(pending, 0, 1);
  parentPort!.postMessage(lines.join('\n'));
}

const demo = demoStream({ hosts, certificates: certificatesFor(hosts), seed });
let lines: string[] = [];
for (const host of demo.hosts) {
  const last = host.versions[host.versions.length - 1];
  if (!last) continue;
  lines.push(JSON.stringify({ id: host.id, doc: last.doc }));
  if (lines.length >= batchSize) {
    send(lines);
    lines = [];
  }
}
if (lines.length > 0) send(lines);
parentPort!.postMessage(null);
