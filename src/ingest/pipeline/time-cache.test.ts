import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isoTime } from '../../lib/time.ts';
import { parseUtcTime } from './parse-utc-time.ts';
import { isoTimeCached, parseTimeCached } from './time-cache.ts';

test('remembered times answer as parsing and formatting afresh, whatever the order of the calls', () => {
  // A few values, so that calls repeat, interleave and push each other out of the memory.
  const ms = fc.constantFrom(0, 1, 1_700_000_000_000, 1_700_000_000_123, 253402300799999, -62135596800000, 253402300800000);
  const text = fc.constantFrom('2026-11-27T10:00:00Z', '2026-11-27T10:00:00.5Z', '2026-02-30T00:00:00Z', 'not a time', '', '2026-11-27T10:00:00+01:00');
  const call = fc.oneof(ms.map((m) => ({ ms: m })), text.map((t) => ({ text: t })), ms.map((m) => ({ back: m })));
  fc.assert(
    fc.property(fc.array(call, { maxLength: 40 }), (calls) => {
      for (const c of calls) {
        if ('ms' in c) assert.equal(isoTimeCached(c.ms), isoTime(c.ms));
        else if ('text' in c) assert.equal(parseTimeCached(c.text), parseUtcTime(c.text));
        // A text formatted here parses back to its time.
        else assert.equal(parseTimeCached(isoTimeCached(c.back)), parseUtcTime(isoTime(c.back)));
      }
    }),
    { numRuns: 300 },
  );
});
