/**
 * What a comment may hold: Markdown text, not empty, at most COMMENT_MAX_LENGTH characters, and no
 * HTML that would run or embed something when a browser renders it (10099). Plain inline HTML
 * (`<b>`, `<br>`) is allowed, as Markdown allows it.
 */
import { fail, ok, type Result } from '../../lib/problem.ts';

export const COMMENT_MAX_LENGTH = 10_000;

const ACTIVE_ELEMENTS = /<\s*\/?\s*(script|style|iframe|frame|frameset|object|embed|applet|form|input|button|textarea|select|link|meta|base|svg|math|template)\b/i;
const EVENT_ATTRIBUTE = /<[^>]*\s(on[a-z]+)\s*=/i;
const SCRIPT_URL = /<[^>]*=\s*["']?\s*(javascript|vbscript|data):/i;
/** Markdown links and images render to the same URLs as the HTML would. */
const SCRIPT_LINK = /\]\(\s*<?\s*(javascript|vbscript|data):/i;

export function checkComment(body: unknown): Result<string> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail('invalid_request', 'The body must be an object {"markdown": "..."}.', { asmCode: 10054 });
  }
  const markdown = (body as Record<string, unknown>).markdown;
  if (typeof markdown !== 'string') return fail('invalid_request', "A comment needs 'markdown' text.", { asmCode: 10054 });
  if (markdown.trim() === '') return fail('invalid_request', 'A comment must not be empty.', { asmCode: 10054 });
  if ([...markdown].length > COMMENT_MAX_LENGTH) {
    return fail('invalid_request', `Comments are at most ${COMMENT_MAX_LENGTH} characters.`, { asmCode: 10054 });
  }
  const active = ACTIVE_ELEMENTS.exec(markdown) ?? EVENT_ATTRIBUTE.exec(markdown) ?? SCRIPT_URL.exec(markdown) ?? SCRIPT_LINK.exec(markdown);
  if (active) return fail('invalid_request', `Comments may not contain active HTML (${active[0].trim()}…).`, { asmCode: 10099 });
  return ok(markdown);
}
