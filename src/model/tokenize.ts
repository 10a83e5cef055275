/**
 * Tokens of a text value: lower-cased runs of letters and digits. Used for indexing text fields,
 * for `field: value` token matches and for bare full-text terms, so all three agree.
 */
const TOKEN = /[\p{L}\p{N}]+/gu;

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}
