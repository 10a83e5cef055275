/**
 * Comment and tag ids are database integers shown as decimal strings. Anything that is not such a
 * string (letters, signs, leading zeros, too many digits) cannot name a row, so it is "not found"
 * rather than a query error. Fifteen digits keep the value exact as a JS number.
 */
export function parseIntId(value: string): number | undefined {
  return /^(0|[1-9][0-9]{0,14})$/.test(value) ? Number(value) : undefined;
}
