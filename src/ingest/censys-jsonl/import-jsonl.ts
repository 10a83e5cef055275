/**
 * `periscope import`: Censys-schema documents, one JSON document per line (the view endpoint's
 * `result`, as Censys exports hold them). Bad lines are reported with their number and reason and
 * skipped; good lines are stored in batches. Importing the same file twice changes nothing,
 * because unchanged documents write no new version.
 */
import { readLines } from '../../lib/read-lines.ts';
import type { Readable } from 'node:stream';
import type { IndexName } from '../../model/field-def.ts';
import type { Indexer, PutItem } from '../../search/indexer.ts';
import { validateDocument } from './validate-document.ts';

export interface ImportReport {
  read: number;
  created: number;
  updated: number;
  unchanged: number;
  rejected: { line: number; reason: string }[];
}

export interface ImportOptions {
  batchSize?: number;
  now?: Date;
  onProgress?: (report: ImportReport) => void;
  /** Longest accepted line in characters; longer lines are rejected, not buffered forever. */
  maxLineLength?: number;
  /** Write the store only (Indexer.putAll's `storeOnly`): for an engine that is not kept. */
  storeOnly?: boolean;
}

export async function importJsonl(indexer: Indexer, index: IndexName, input: Readable, options: ImportOptions = {}): Promise<ImportReport> {
  const batchSize = options.batchSize ?? 1000;
  const maxLine = options.maxLineLength ?? 64 * 1024 * 1024;
  const now = options.now ?? new Date();
  const report: ImportReport = { read: 0, created: 0, updated: 0, unchanged: 0, rejected: [] };
  async function* batches(): AsyncGenerator<PutItem[]> {
    let batch: PutItem[] = [];
    for await (const { number: lineNo, text } of readLines(input)) {
      const line = lineNo === 1 ? text.replace(/^\uFEFF/, '') : text;
      if (line.trim() === '') continue;
      report.read++;
      if (line.length > maxLine) {
        report.rejected.push({ line: lineNo, reason: `line longer than ${maxLine} characters` });
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (e) {
        report.rejected.push({ line: lineNo, reason: `invalid JSON: ${(e as Error).message}` });
        continue;
      }
      const v = validateDocument(index, value, now);
      if (!v.ok) {
        report.rejected.push({ line: lineNo, reason: v.reason });
        continue;
      }
      // The line is the document's text unless validation normalised a field (an id's spelling).
      batch.push(sameFields(v.doc, value as Record<string, unknown>) ? { id: v.id, doc: v.doc, observedAt: v.observedAt, json: line } : { id: v.id, doc: v.doc, observedAt: v.observedAt });
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }
  // Indexer.putAll: the store writes the next batch (on its writer thread) while this one is indexed.
  // The same id twice in one batch: the later line wins, as it would in two batches.
  await indexer.putAll(index, batches(), (_items, results) => {
    for (const r of results) report[r.outcome]++;
    options.onProgress?.(report);
  }, { storeOnly: options.storeOnly });
  return report;
}

/** Whether `doc` has exactly the fields of `value`, with the same values (validateDocument copies it shallowly). */
function sameFields(doc: Record<string, unknown>, value: Record<string, unknown>): boolean {
  const keys = Object.keys(doc);
  if (keys.length !== Object.keys(value).length) return false;
  for (const k of keys) if (!Object.hasOwn(value, k) || doc[k] !== value[k]) return false;
  return true;
}
