/**
 * The benchmark corpus (corpus-file.ts) as Indexer put items, each with its document's JSON text,
 * as `periscope import` has a line's: Indexer.putAll hands that text to the store's writer thread
 * instead of serialising the parsed document again on the indexing thread.
 */
import { createReadStream } from 'node:fs';
import { readLines } from '../src/lib/read-lines.ts';
import type { PutItem } from '../src/search/indexer.ts';

const DOC = ',"doc":';

/**
 * Batches of put items; `observedAt` is the document's `last_updated_at`, else `fallback`. A line
 * is `JSON.stringify({ id, doc })`, so the document's text is what follows the first `,"doc":`
 * (a quote inside the id would be escaped) up to the closing brace.
 */
export async function* readCorpusItems(path: string, batchSize: number, fallback: string): AsyncGenerator<PutItem[]> {
  let batch: PutItem[] = [];
  for await (const { text: line } of readLines(createReadStream(path))) {
    const e = JSON.parse(line) as { id: string; doc: Record<string, unknown> };
    const at = line.indexOf(DOC);
    const json = at > 0 && line.endsWith('}') ? line.slice(at + DOC.length, -1) : undefined;
    const observedAt = typeof e.doc.last_updated_at === 'string' ? e.doc.last_updated_at : fallback;
    batch.push(json === undefined ? { id: e.id, doc: e.doc, observedAt } : { id: e.id, doc: e.doc, observedAt, json });
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
