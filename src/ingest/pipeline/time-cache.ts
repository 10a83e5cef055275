/**
 * Timestamp parsing and formatting with a memory of recent values: scans repeat the same few
 * observation times across thousands of hosts and services, and each record would otherwise parse
 * and format them several times (validation, grouping, merging).
 */
import { isoTime } from '../../lib/time.ts';
import { parseUtcTime } from './parse-utc-time.ts';

const MAX = 10_000;
const parsed = new Map<string, number | undefined>();
const formatted = new Map<number, string>();

/** parseTimestamp (by parseUtcTime), remembered. */
export function parseTimeCached(text: string): number | undefined {
  if (parsed.has(text)) return parsed.get(text);
  const ms = parseUtcTime(text);
  if (parsed.size >= MAX) parsed.clear();
  parsed.set(text, ms);
  return ms;
}

/**
 * isoTime of epoch milliseconds, remembered both ways: a reader that writes its observation time
 * with it (zgrab2, whose times are all distinct) spares the pipeline parsing that text back and
 * formatting the time again, once each per record.
 */
export function isoTimeCached(ms: number): string {
  let text = formatted.get(ms);
  if (text === undefined) {
    text = isoTime(ms);
    if (formatted.size >= MAX) formatted.clear();
    formatted.set(ms, text);
    // Years 0-9999 only: outside them the text has another form, left to parseUtcTime.
    if (text.length === 24) {
      if (parsed.size >= MAX) parsed.clear();
      parsed.set(text, ms);
    }
  }
  return text;
}
