/** Shared pieces of the pipeline tests: a temporary runtime and hand-made records. */
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '../../../src/main/config.ts';
import { openRuntime, type Runtime } from '../../../src/main/runtime.ts';
import { pemToDer } from '../../../src/ingest/x509/index.ts';
import type { IngestRecord, HostObservation, ServiceObservation } from '../../../src/ingest/observation.ts';
import type { IngestDeps } from '../../../src/ingest/pipeline/index.ts';
import type { Store } from '../../../src/store/store.ts';

export async function tempRuntime(): Promise<{ rt: Runtime; dir: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'periscope-ingest-'));
  const rt = await openRuntime({ ...DEFAULTS, dataDir: dir, logLevel: 'silent' });
  return {
    rt,
    dir,
    async close() {
      await rt.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const NOW = new Date('2026-02-01T00:00:00Z');

export function deps(rt: Runtime, extra: Partial<IngestDeps> = {}): IngestDeps {
  return { indexer: rt.indexer, store: rt.store, enricher: { enrich: () => undefined }, now: () => NOW, ...extra };
}

export function fixtureDer(name: string): Uint8Array {
  const r = pemToDer(readFileSync(new URL(`../../fixtures/certificates/${name}`, import.meta.url), 'utf8'));
  if (!r.ok) throw new Error(r.error);
  return r.ders[0];
}

export async function* from(records: readonly IngestRecord[]): AsyncGenerator<IngestRecord> {
  yield* records;
}

let line = 0;
export function host(ip: string, at: string, services: ServiceObservation[], extra: Partial<HostObservation> = {}): IngestRecord {
  return { kind: 'host', position: `line ${++line}`, host: { ip, observedAt: at, source: 'test', services, ...extra } };
}

export function open(port: number, extra: Partial<ServiceObservation> = {}): ServiceObservation {
  return { port, transport: 'TCP', state: 'open', ...extra };
}

/** Every stored version of every document, as comparable text. */
export async function dumpStore(store: Store): Promise<string> {
  const out: string[] = [];
  for (const index of ['hosts', 'certificates'] as const) {
    for await (const batch of store.documents.scan(index, 500)) {
      for (const d of batch) {
        for (const v of await store.documents.history(index, d.id)) out.push(`${index} ${v.id} v${v.version} ${v.validFrom} ${JSON.stringify(v.doc)}`);
      }
    }
  }
  return out.sort().join('\n');
}
