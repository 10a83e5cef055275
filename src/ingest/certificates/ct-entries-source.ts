import type { Readable } from 'node:stream';
import type { IngestRecord, IngestSource } from '../observation.ts';
import { ctEntryRecord } from '../ct/ct-entry.ts';
import { jsonEntries } from './json-entries.ts';

/**
 * RFC 6962 `get-entries` answers: `{"entries":[{"leaf_input": "...", "extra_data": "..."}]}`.
 *
 * A log's answer does not say which log or which indexes it covers, so the file may wrap it:
 * `{"log": "https://ct.example/2025h1/", "start": 1000, "entries": [...]}`, with both members
 * before `entries` (members after it come too late to apply). Without them the log is
 * `unknown` and indexes count from 0. Entry N of the file (from 0) has index `start + N` and
 * position `entry N`.
 */
export const ctEntriesSource: IngestSource = {
  format: 'ct-entries',
  sniff(head: Buffer): boolean {
    const text = head.toString('latin1');
    return /^\s*\{/.test(text) && /"entries"\s*:\s*\[/.test(text) && text.includes('"leaf_input"');
  },
  async *read(input: Readable): AsyncGenerator<IngestRecord> {
    let log = 'unknown';
    let start = 0;
    for await (const ev of jsonEntries(input as AsyncIterable<Buffer>)) {
      switch (ev.kind) {
        case 'member':
          if (ev.key === 'log' && typeof ev.value === 'string' && ev.value) log = ev.value;
          if (ev.key === 'start' && Number.isSafeInteger(ev.value) && (ev.value as number) >= 0) start = ev.value as number;
          break;
        case 'entry':
          yield ctEntryRecord(ev.value, { log, index: start + ev.index, position: `entry ${ev.index}` });
          break;
        case 'bad-entry':
          yield { kind: 'rejected', position: `entry ${ev.index}`, reason: ev.error };
          break;
        case 'error':
          yield { kind: 'rejected', position: 'end of input', reason: ev.error };
          break;
      }
    }
  },
};
