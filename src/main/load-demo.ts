/**
 * Loads the deterministic demo dataset into the store and engine, with progress. Certificates go
 * first so hosts index the certificates they present; host versions go oldest first so the
 * newest becomes current and the rest is history.
 */
import { generateDemo } from '../ingest/demo/index.ts';
import type { Indexer, PutItem } from '../search/indexer.ts';
import { startProgress } from '../cli/progress.ts';

export interface DemoCounts {
  hosts: number;
  certificates: number;
  versions: number;
}

export async function loadDemo(indexer: Indexer, options: { hosts: number; certificates: number; seed?: number; quiet?: boolean }): Promise<DemoCounts> {
  const started = Date.now();
  const data = generateDemo({ hosts: options.hosts, certificates: options.certificates, ...(options.seed !== undefined ? { seed: options.seed } : {}) });
  if (!options.quiet) process.stderr.write(`demo: generated ${data.hosts.length} host documents and ${data.certificates.length} certificates in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  const certItems: PutItem[] = data.certificates.map((c) => ({
    id: String(c.doc.fingerprint_sha256),
    doc: c.doc,
    observedAt: typeof c.doc.added_at === 'string' ? c.doc.added_at : new Date().toISOString(),
  }));
  const hostItems: PutItem[] = data.hosts.flatMap((h) => h.versions.map((v) => ({ id: h.id, doc: v.doc, observedAt: v.observedAt })));
  const total = certItems.length + hostItems.length;
  const progress = options.quiet ? undefined : startProgress('demo: loading', total);
  let done = 0;
  for (const [index, items] of [['certificates', certItems], ['hosts', hostItems]] as const) {
    for (let i = 0; i < items.length; i += 2000) {
      const chunk = items.slice(i, i + 2000);
      await indexer.put(index, chunk);
      done += chunk.length;
      progress?.update(done);
    }
  }
  progress?.stop();
  return { hosts: data.hosts.length, certificates: certItems.length, versions: hostItems.length };
}
