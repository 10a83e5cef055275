/**
 * Splits a stream of JSON text into top-level objects without parsing the whole input: masscan
 * `-oJ` (an array, one record per line, commas before or after records, maybe no closing `]`,
 * maybe an old `{"finished": 1}` record) and `-oD` (one object per line) both come through here.
 * Text at the top level that is not `[`, `]`, `,` or an object is reported and skipped to the
 * end of its line.
 */
import { StringDecoder } from 'node:string_decoder';

export type JsonChunk =
  | { readonly kind: 'object'; readonly line: number; readonly value: unknown }
  | { readonly kind: 'error'; readonly line: number; readonly reason: string };

function parseLenient(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    // masscan versions differ on where they put commas; a trailing one inside a record is the usual slip.
    const fixed = text.replace(/,(\s*[}\]])/g, '$1');
    if (fixed !== text) {
      try {
        return { ok: true, value: JSON.parse(fixed) };
      } catch {
        /* fall through to the original error */
      }
    }
    return { ok: false, error: (e as Error).message };
  }
}

export async function* jsonObjects(input: AsyncIterable<Buffer | string>, maxObjectChars = 16 * 1024 * 1024): AsyncGenerator<JsonChunk> {
  const decoder = new StringDecoder('utf8');
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let skippingLine = false;
  let startLine = 0;
  let parts: string[] = [];
  let partsLength = 0;

  function* feed(text: string): Generator<JsonChunk> {
    let objStart = depth > 0 ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) line++;
      if (skippingLine) {
        if (c === 10) skippingLine = false;
        continue;
      }
      if (depth === 0) {
        if (c === 0x7b) {
          depth = 1;
          objStart = i;
          startLine = line;
          inString = false;
          escaped = false;
        } else if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x5b && c !== 0x5d && c !== 0x2c) {
          yield { kind: 'error', line, reason: `unexpected "${text[i]}" between records` };
          skippingLine = true;
        }
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
        continue;
      }
      if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) {
          parts.push(text.slice(objStart, i + 1));
          const whole = parts.join('');
          parts = [];
          partsLength = 0;
          objStart = -1;
          const parsed = parseLenient(whole);
          if (parsed.ok) yield { kind: 'object', line: startLine, value: parsed.value };
          else yield { kind: 'error', line: startLine, reason: `invalid JSON: ${parsed.error}` };
        }
      }
    }
    if (depth > 0 && objStart >= 0) {
      const rest = text.slice(objStart);
      parts.push(rest);
      partsLength += rest.length;
      if (partsLength > maxObjectChars) {
        yield { kind: 'error', line: startLine, reason: `record larger than ${maxObjectChars} characters` };
        parts = [];
        partsLength = 0;
        depth = 0;
        skippingLine = true;
      }
    }
  }

  for await (const chunk of input) {
    yield* feed(typeof chunk === 'string' ? chunk : decoder.write(chunk));
  }
  yield* feed(decoder.end());
  if (depth > 0) yield { kind: 'error', line: startLine, reason: 'input ended inside a record' };
}
