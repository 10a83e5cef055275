import { createReadStream, existsSync, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { IndexName } from '../model/field-def.ts';
import type { Config } from '../main/config.ts';
import { openRuntime } from '../main/runtime.ts';
import { importJsonl, type ImportReport } from '../ingest/censys-jsonl/import-jsonl.ts';
import { EXIT } from './exit-codes.ts';
import { startProgress } from './progress.ts';

export class UsageError extends Error {}

function open(file: string): { stream: Readable; size?: number } {
  if (file === '-') return { stream: process.stdin };
  if (!existsSync(file)) throw new UsageError(`${file}: no such file`);
  const size = statSync(file).size;
  const raw = createReadStream(file);
  return { stream: file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw, size };
}

/** `periscope import --index hosts|certificates FILE|-` */
export async function importCommand(config: Config, index: string, file: string): Promise<number> {
  if (index !== 'hosts' && index !== 'certificates') throw new UsageError(`--index must be hosts or certificates, got '${index}'`);
  const input = open(file);
  const rt = await openRuntime(config, { storeOnly: true });
  try {
    const progress = startProgress(`import ${index}`, 0);
    // This command never opens the engine's segments: indexing would fill an engine dropped at
    // exit. The ids are journaled instead, and a server re-reads them from the store when it opens.
    const p = rt.engine.persistence;
    const report: ImportReport = await importJsonl(rt.indexer, index as IndexName, input.stream, {
      onProgress: (r) => progress.update(r.read, r.read),
      storeOnly: p !== undefined && !p.opened,
    });
    progress.stop();
    for (const r of report.rejected.slice(0, 1000)) process.stderr.write(`${file}:${r.line}: rejected: ${r.reason}\n`);
    if (report.rejected.length > 1000) process.stderr.write(`… and ${report.rejected.length - 1000} more rejected lines\n`);
    process.stdout.write(
      `${index}: ${report.read} read, ${report.created} created, ${report.updated} updated, ${report.unchanged} unchanged, ${report.rejected.length} rejected\n`,
    );
    if (report.created + report.updated > 0) {
      process.stdout.write('A running server picks these up when it restarts.\n');
    }
    return report.rejected.length > 0 ? EXIT.partial : EXIT.ok;
  } finally {
    await rt.close();
  }
}
