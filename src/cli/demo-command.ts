import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../main/config.ts';
import { openRuntime } from '../main/runtime.ts';
import { loadDemo } from '../main/load-demo.ts';
import { generateDemo } from '../ingest/demo/index.ts';
import { EXIT } from './exit-codes.ts';

/**
 * `periscope demo`: loads the demo dataset into the store, or with --out writes it as
 * Censys-format JSON lines (hosts.jsonl with current versions, certificates.jsonl) for `import`.
 */
export async function demoCommand(config: Config, opts: { hosts: number; certificates: number; seed?: number; out?: string }): Promise<number> {
  if (opts.out) {
    const data = generateDemo({ hosts: opts.hosts, certificates: opts.certificates, ...(opts.seed !== undefined ? { seed: opts.seed } : {}) });
    mkdirSync(opts.out, { recursive: true });
    writeFileSync(join(opts.out, 'certificates.jsonl'), data.certificates.map((c) => JSON.stringify(c.doc)).join('\n') + '\n');
    writeFileSync(join(opts.out, 'hosts.jsonl'), data.hosts.map((h) => JSON.stringify(h.versions[h.versions.length - 1].doc)).join('\n') + '\n');
    process.stdout.write(`wrote ${data.hosts.length} hosts and ${data.certificates.length} certificates to ${opts.out}\n`);
    return EXIT.ok;
  }
  const rt = await openRuntime(config);
  try {
    const counts = await loadDemo(rt.indexer, opts);
    await rt.store.settings.set('demo.loaded', JSON.stringify({ ...counts, at: new Date().toISOString() }));
    process.stdout.write(`demo: ${counts.hosts} hosts (${counts.versions} versions) and ${counts.certificates} certificates loaded\n`);
    return EXIT.ok;
  } finally {
    await rt.close();
  }
}
