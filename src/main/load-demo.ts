/**
 * Loads the deterministic demo dataset into the store and engine, with progress. Certificates go
 * first so hosts index the certificates they present; hosts stream in batches (the whole set is
 * never held in memory), each host's versions oldest first so the newest becomes current.
 */
import { demoStream } from '../ingest/demo/index.ts';
import type { Indexer, PutItem } from '../search/indexer.ts';
import { startProgress } from '../cli/progress.ts';

export interface DemoCounts {
  hosts: number;
  certificates: number;
  versions: number;
}

const BATCH = 2000;

export async function loadDemo(indexer: Indexer, options: { hosts: number; certificates: number; seed?: number; quiet?: boolean }): Promise<DemoCounts> {
  const demo = demoStream({ hosts: options.hosts, certificates: options.certificates, ...(options.seed !== undefined ? { seed: options.seed } : {}) });
  // Virtual hosts come on top of the requested hosts, so the total can only be estimated.
  let total = demo.certificates.length + options.hosts;
  const progress = options.quiet ? undefined : startProgress('demo: loading', total);
  const certItems: PutItem[] = demo.certificates.map((c) => ({
    id: String(c.doc.fingerprint_sha256),
    doc: c.doc,
    observedAt: typeof c.doc.added_at === 'string' ? c.doc.added_at : demo.now,
  }));
  for (let i = 0; i < certItems.length; i += BATCH) {
    await indexer.put('certificates', certItems.slice(i, i + BATCH));
    progress?.update(Math.min(i + BATCH, certItems.length));
  }
  const counts: DemoCounts = { hosts: 0, certificates: certItems.length, versions: 0 };
  let batch: PutItem[] = [];
  const flush = async () => {
    await indexer.put('hosts', batch);
    batch = [];
    const done = certItems.length + counts.hosts;
    total = Math.max(total, done);
    progress?.update(done, total);
  };
  for (const host of demo.hosts) {
    counts.hosts++;
    for (const v of host.versions) batch.push({ id: host.id, doc: v.doc, observedAt: v.observedAt });
    counts.versions += host.versions.length;
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  progress?.stop(`${counts.hosts} host documents (${counts.versions} versions), ${counts.certificates} certificates`);
  return counts;
}
