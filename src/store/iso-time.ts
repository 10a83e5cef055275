/**
 * Normalises a caller's time to the stored form `YYYY-MM-DDTHH:MM:SS.sssZ`, so that textual order
 * is time order (`...00Z` and `...00.000Z` would otherwise sort apart). An unparseable time is a
 * bug in the caller (inputs are validated at the edges), hence an exception.
 */
export function isoTime(value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`not a valid time: ${JSON.stringify(value)}`);
  return new Date(ms).toISOString();
}

export function nowIso(): string {
  return new Date().toISOString();
}
