/**
 * Child process of crash-rerun.test.ts: ingests a deterministic stream of records into the data
 * directory given as argv[2], printing a line after every batch, `done` at the end.
 */
import { DEFAULTS } from '../../../src/main/config.ts';
import { openRuntime } from '../../../src/main/runtime.ts';
import { runIngest } from '../../../src/ingest/pipeline/index.ts';
import type { IngestRecord } from '../../../src/ingest/observation.ts';
import { fixtureDer } from './helpers.ts';

export const RECORDS = 3000;
export const BATCH = 100;

export async function* crashRecords(): AsyncGenerator<IngestRecord> {
  const leaf = fixtureDer('leaf.pem');
  const inter = fixtureDer('intermediate.pem');
  const root = fixtureDer('root.pem');
  const base = Date.parse('2026-01-01T00:00:00Z');
  for (let i = 0; i < RECORDS; i++) {
    const h = (i * 7919) % 400;
    // Every 37th record is a day late: it lands in history, not in the current view.
    const at = new Date(base + i * 60_000 - (i % 37 === 0 ? 86_400_000 : 0)).toISOString();
    const ports = [80, 443, 22, 8080, 25];
    const port = ports[(i + h) % ports.length];
    const services = [
      {
        port,
        transport: 'TCP' as const,
        state: (i % 11 === 0 ? 'closed' : 'open') as 'open' | 'closed',
        banner: `banner ${i % 5}`,
        ...(port === 443 ? { tls: { chain: i % 2 ? [leaf, inter] : [root] } } : {}),
      },
      { port: 10_000 + (h % 3), transport: 'UDP' as const, state: 'open' as const },
    ];
    if (i % 97 === 0) yield { kind: 'rejected', position: `line ${i + 1}`, reason: 'synthetic bad record' };
    else yield { kind: 'host', position: `line ${i + 1}`, host: { ip: `198.51.100.${h % 250}`, name: h >= 250 ? `v${h}.example.test` : undefined, observedAt: at, source: 'test', services } };
  }
}

if (process.argv[2]) {
  const rt = await openRuntime({ ...DEFAULTS, dataDir: process.argv[2], logLevel: 'silent' });
  let batches = 0;
  await runIngest(crashRecords(), {
    indexer: { put: (index, items) => rt.store.documents.putMany(index, items) },
    store: rt.store,
    enricher: { enrich: () => undefined },
    now: () => new Date('2026-02-01T00:00:00Z'),
    batchSize: BATCH,
    onProgress: () => process.stdout.write(`batch ${++batches}\n`),
  });
  await rt.close();
  process.stdout.write('done\n');
}
