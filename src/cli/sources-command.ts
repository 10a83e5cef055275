/**
 * `periscope sources [--json]`: the enrichment sources the configured files give (ASN, country,
 * city, cloud tables and range files), with version, build date and load time, so an operator can
 * tell how old the data is before an ingest. Range files in the folder that were not recognised
 * are listed on stderr with the reason.
 */
import type { Config } from '../main/config.ts';
import { Enricher, formatSources, sourceJson } from '../ingest/enrich/index.ts';
import { EXIT } from './exit-codes.ts';

export async function sourcesCommand(
  config: Config,
  flags: { json?: boolean },
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const enricher = Enricher.fromFiles(config.enrich);
  const sources = enricher.sources();
  const skipped = enricher.cloudRanges?.skipped() ?? [];
  if (flags.json) {
    out.write(JSON.stringify({ sources: sources.map(sourceJson), skipped }, null, 2) + '\n');
  } else {
    out.write(formatSources(sources));
    for (const s of skipped) err.write(`${s.path}: skipped: ${s.reason}\n`);
  }
  return EXIT.ok;
}
