/**
 * What a tag may look like (contract §1.10, 10025–10037): labels without surrounding whitespace,
 * not empty, at most TAG_MAX_LENGTH characters, unique per workspace ignoring case; colours are
 * hex `#rgb`/`#rrggbb` (the client checks the same pattern before sending).
 */
import { fail, ok, type Result } from '../../lib/problem.ts';

export const TAG_MAX_LENGTH = 128;
export const COLOR_MAX_LENGTH = 7;
/** The colour of a tag created without one (the client's documented default). */
export const DEFAULT_TAG_COLOR = '#ffffff';
const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

export interface TagInput {
  readonly name: string;
  /** null: keep the tag's colour (or the default for a new tag). */
  readonly color: string | null;
}

export function checkTagInput(body: unknown): Result<TagInput> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail('invalid_request', 'The body must be an object {"name": "...", "color": "#rrggbb"?}.');
  }
  const { name, color } = body as Record<string, unknown>;
  if (name === undefined || name === null) return fail('invalid_request', "The body needs a tag 'name'.");
  if (typeof name !== 'string') return fail('invalid_request', "The tag 'name' must be a string.");
  if (name === '' ) return fail('invalid_request', 'A tag name must not be empty.', { asmCode: 10026 });
  if (name.trim() !== name) {
    // Whitespace only is still "empty" to a person reading it.
    if (name.trim() === '') return fail('invalid_request', 'A tag name must not be empty or only whitespace.', { asmCode: 10026 });
    return fail('invalid_request', `Tag ${JSON.stringify(name)} has leading or trailing whitespace.`, { asmCode: 10025, details: { offendingTag: name } });
  }
  if ([...name].length > TAG_MAX_LENGTH) {
    return fail('invalid_request', `Tag names are at most ${TAG_MAX_LENGTH} characters.`, { asmCode: 10028, details: { maxLength: TAG_MAX_LENGTH, offendingTag: name } });
  }
  if (color === undefined || color === null || color === '') return ok({ name, color: null });
  if (typeof color !== 'string') return fail('invalid_request', "The tag 'color' must be a string like #4287f5.");
  if (color.trim() !== color) {
    return fail('invalid_request', `Colour ${JSON.stringify(color)} has leading or trailing whitespace.`, { asmCode: 10036, details: { offendingColor: color } });
  }
  if (color.length > COLOR_MAX_LENGTH) {
    return fail('invalid_request', `Colours are at most ${COLOR_MAX_LENGTH} characters (#rrggbb).`, {
      asmCode: 10034,
      details: { maxLength: COLOR_MAX_LENGTH, offendingColor: color },
    });
  }
  if (!HEX_COLOR.test(color)) return fail('invalid_request', `${JSON.stringify(color)} is not a colour like #4287f5 or #48f.`, { asmCode: 10037, details: { color } });
  return ok({ name, color: color.toLowerCase() });
}

/** 10027 when the workspace already has this label in another casing. */
export function checkCasing(name: string, existing: readonly string[]): Result<void> {
  const lower = name.toLowerCase();
  const similar = existing.filter((l) => l !== name && l.toLowerCase() === lower);
  if (existing.includes(name) || similar.length === 0) return ok(undefined);
  return fail('invalid_request', `Tag ${JSON.stringify(name)} differs only in casing from ${similar.map((s) => JSON.stringify(s)).join(', ')}.`, {
    asmCode: 10027,
    details: { label: name, similarLabels: similar },
  });
}
