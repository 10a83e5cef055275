/**
 * A streaming reader for `{"...": ..., "entries": [ {...}, {...} ]}` documents: it yields the
 * top-level scalar members it meets (`log`, `start`) and each element of the `entries` array as
 * soon as the element is complete, so a get-entries dump of any size is read with flat memory.
 * Only the elements are handed to JSON.parse; the scanner tracks strings and nesting itself.
 */
export type JsonEntriesEvent =
  | { readonly kind: 'member'; readonly key: string; readonly value: unknown }
  | { readonly kind: 'entry'; readonly index: number; readonly value: unknown }
  | { readonly kind: 'bad-entry'; readonly index: number; readonly error: string }
  | { readonly kind: 'error'; readonly error: string };

export async function* jsonEntries(chunks: AsyncIterable<string | Buffer>): AsyncGenerator<JsonEntriesEvent> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let stringStart = -1; // offset in `pending` of the current top-level string
  let lastKey: string | undefined;
  let awaitingValue = false;
  let inEntries = false;
  let entriesSeen = false;
  let entryIndex = 0;
  // Text kept from earlier chunks: the element or member value currently being captured.
  let pending = '';
  let captureFrom = -1;
  let captureKind: 'entry' | 'member' | undefined;
  let sawTop = false;

  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    const base = pending.length;
    pending += text;
    const events: JsonEntriesEvent[] = [];
    for (let i = base; i < pending.length; i++) {
      const c = pending.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) {
          inString = false;
          if (depth === 1 && stringStart >= 0 && !awaitingValue) {
            try {
              lastKey = JSON.parse(pending.slice(stringStart, i + 1)) as string;
            } catch {
              lastKey = undefined;
            }
            stringStart = -1;
          }
        }
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (!sawTop) {
        if (c !== 0x7b) {
          yield { kind: 'error', error: 'input is not a JSON object' };
          return;
        }
        sawTop = true;
        depth = 1;
        continue;
      }
      if (depth === 1 && c === 0x3a) {
        awaitingValue = true;
        if (lastKey !== 'entries') {
          captureFrom = i + 1;
          captureKind = 'member';
        }
        continue;
      }
      if (c === 0x22) {
        inString = true;
        if (depth === 1 && !awaitingValue) stringStart = i;
        continue;
      }
      if (c === 0x7b || c === 0x5b) {
        if (depth === 1 && awaitingValue && lastKey === 'entries') {
          if (c !== 0x5b) {
            yield { kind: 'error', error: '"entries" is not an array' };
            return;
          }
          inEntries = true;
          entriesSeen = true;
        } else if (depth === 2 && inEntries && captureKind !== 'entry') {
          captureFrom = i;
          captureKind = 'entry';
        }
        depth++;
        continue;
      }
      if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 2 && captureKind === 'entry') {
          events.push(parseEntry(pending.slice(captureFrom, i + 1), entryIndex++));
          captureKind = undefined;
          captureFrom = -1;
        } else if (depth === 1 && inEntries) {
          inEntries = false;
          awaitingValue = false;
          lastKey = undefined;
        } else if (depth === 0) {
          if (captureKind === 'member') events.push(member(lastKey, pending.slice(captureFrom, i)));
          captureKind = undefined;
          for (const e of events) yield e;
          if (!entriesSeen) yield { kind: 'error', error: 'no "entries" array' };
          return;
        }
        continue;
      }
      if (c === 0x2c) {
        if (depth === 1) {
          if (captureKind === 'member') events.push(member(lastKey, pending.slice(captureFrom, i)));
          captureKind = undefined;
          captureFrom = -1;
          awaitingValue = false;
          lastKey = undefined;
        } else if (depth === 2 && inEntries && captureKind !== 'entry') {
          // A scalar element (`"x"`, `1`) between commas is not an entry object.
          const prev = previousElementText(pending, i);
          if (prev) events.push({ kind: 'bad-entry', index: entryIndex++, error: 'entry is not an object' });
        }
        continue;
      }
    }
    // Keep only what a capture or an open top-level string still needs.
    const keepFrom = Math.min(captureFrom >= 0 ? captureFrom : pending.length, stringStart >= 0 ? stringStart : pending.length);
    if (keepFrom > 0) {
      pending = pending.slice(keepFrom);
      if (captureFrom >= 0) captureFrom -= keepFrom;
      if (stringStart >= 0) stringStart -= keepFrom;
    }
    for (const e of events) yield e;
  }
  yield { kind: 'error', error: sawTop ? `input ends inside the JSON document (after entry ${entryIndex - 1})` : 'empty input' };
}

function parseEntry(text: string, index: number): JsonEntriesEvent {
  try {
    return { kind: 'entry', index, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { kind: 'bad-entry', index, error: `not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function member(key: string | undefined, text: string): JsonEntriesEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  return { kind: 'member', key: key ?? '', value };
}

/** Non-blank text between the previous `[`/`,`/`}` and `at`. */
function previousElementText(s: string, at: number): string {
  let j = at - 1;
  while (j >= 0 && s[j] !== ',' && s[j] !== '[' && s[j] !== '}') j--;
  return s.slice(j + 1, at).trim();
}
