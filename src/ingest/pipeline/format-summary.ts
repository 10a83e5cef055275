import type { IngestSummary } from './pipeline.ts';

/** The end-of-run report, one fact per line. */
export function formatSummary(s: IngestSummary): string {
  const lines = [
    `${s.dryRun ? 'dry run (nothing written): ' : ''}${s.records} records read (${s.hostObservations} host observations, ${s.certificateObservations} certificates)`,
    `hosts: ${s.hosts.created} created, ${s.hosts.updated} updated, ${s.hosts.unchanged} unchanged${s.hosts.historyUpdated ? `, ${s.hosts.historyUpdated} late observations added to history` : ''}`,
    `services: ${s.services.added} added, ${s.services.changed} changed, ${s.services.removed} removed`,
    `certificates: ${s.certificates.new} new, ${s.certificates.seenAgain} seen again`,
    `rejected: ${s.rejected.count}`,
  ];
  return lines.join('\n') + '\n';
}
