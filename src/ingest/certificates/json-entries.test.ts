import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonEntries, type JsonEntriesEvent } from './json-entries.ts';

async function events(chunks: Buffer[]): Promise<JsonEntriesEvent[]> {
  const out: JsonEntriesEvent[] = [];
  for await (const e of jsonEntries((async function* () { yield* chunks; })())) out.push(e);
  return out;
}

function split(buf: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let prev = 0;
  for (const p of points) {
    parts.push(buf.subarray(prev, p));
    prev = p;
  }
  parts.push(buf.subarray(prev));
  return parts;
}

// Strings with the characters that matter to the scanner: quotes, backslashes, braces, brackets, commas, non-ASCII.
const tricky = fc.string({ unit: fc.constantFrom('a', '"', '\\', '{', '}', '[', ']', ',', ':', ' ', 'é', '😀', '\n'), maxLength: 12 });
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    tricky,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(tricky, tie('v'), { maxKeys: 3 }),
  ),
})).v;

test('entries and members come out the same for any chunking and content', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        before: fc.dictionary(tricky.filter((k) => k !== 'entries'), value, { maxKeys: 3 }),
        entries: fc.array(fc.dictionary(tricky, value, { maxKeys: 4 }), { maxLength: 6 }),
        after: fc.dictionary(tricky.filter((k) => k !== 'entries'), value, { maxKeys: 2 }),
      }),
      fc.boolean(),
      fc.array(fc.nat(), { maxLength: 8 }),
      async ({ before, entries, after }, pretty, cuts) => {
        const doc = { ...before, entries, ...after };
        const text = JSON.stringify(doc, null, pretty ? 2 : undefined);
        const got = await events(split(Buffer.from(text, 'utf8'), cuts));
        const expected: JsonEntriesEvent[] = [];
        let i = 0;
        for (const [key, v] of Object.entries(JSON.parse(text) as Record<string, unknown>)) {
          if (key === 'entries') for (const e of v as unknown[]) expected.push({ kind: 'entry', index: i++, value: e });
          else expected.push({ kind: 'member', key, value: v });
        }
        assert.deepEqual(got, expected);
      },
    ),
    { numRuns: 300 },
  );
});

test('a document without entries, or not an object, is an error event', async () => {
  assert.deepEqual(await events([Buffer.from('{"a":1}')]), [{ kind: 'member', key: 'a', value: 1 }, { kind: 'error', error: 'no "entries" array' }]);
  assert.deepEqual(await events([Buffer.from('[1]')]), [{ kind: 'error', error: 'input is not a JSON object' }]);
  assert.deepEqual(await events([Buffer.from('{"entries": {}}')]), [{ kind: 'error', error: '"entries" is not an array' }]);
  assert.deepEqual(await events([]), [{ kind: 'error', error: 'empty input' }]);
});
