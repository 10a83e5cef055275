/**
 * Timestamp parsing and formatting with a memory of the last few values: a record's time is
 * parsed and formatted several times on its way (validation, grouping, merging), and a scan's
 * records often share one (masscan, nmap).
 *
 * A few entries compared in turn, not Maps: zgrab2's times are all distinct, and Maps of
 * thousands of them, each inserted once and cleared when full, cost more than the parses they
 * spared (docs/BENCHMARK.md, ingest round 12).
 */
import { isoTime } from '../../lib/time.ts';
import { parseUtcTime } from './parse-utc-time.ts';

const SIZE = 4;
/** Parsed texts and their times (undefined: not a time), the next slot to fill. */
const texts: (string | undefined)[] = new Array(SIZE).fill(undefined);
const times: (number | undefined)[] = new Array(SIZE).fill(undefined);
let nextParsed = 0;
/** Formatted times and their texts. */
const msKeys = new Float64Array(SIZE).fill(Number.NaN);
const msTexts: string[] = new Array(SIZE).fill('');
let nextFormatted = 0;

function rememberParsed(text: string, ms: number | undefined): void {
  texts[nextParsed] = text;
  times[nextParsed] = ms;
  nextParsed = (nextParsed + 1) % SIZE;
}

/** parseTimestamp (by parseUtcTime), remembered. */
export function parseTimeCached(text: string): number | undefined {
  for (let i = 0; i < SIZE; i++) if (texts[i] === text) return times[i];
  const ms = parseUtcTime(text);
  rememberParsed(text, ms);
  return ms;
}

/**
 * isoTime of epoch milliseconds, remembered both ways: a reader that writes its observation time
 * with it (zgrab2) spares the pipeline parsing that text back.
 */
export function isoTimeCached(ms: number): string {
  for (let i = 0; i < SIZE; i++) if (msKeys[i] === ms) return msTexts[i]!;
  const text = isoTime(ms);
  msKeys[nextFormatted] = ms;
  msTexts[nextFormatted] = text;
  nextFormatted = (nextFormatted + 1) % SIZE;
  // Years 0-9999 only: outside them the text has another form, left to parseUtcTime.
  if (text.length === 24) rememberParsed(text, ms);
  return text;
}
