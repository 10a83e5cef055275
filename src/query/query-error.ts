/**
 * What is wrong with a query and where: `position` is a 0-based UTF-16 offset into the query
 * text and `length` how many characters the problem covers (0 at the end of the query).
 */
export interface QueryError {
  readonly message: string;
  readonly position: number;
  readonly length: number;
  /** A replacement the user probably meant (a field path for unknown fields). */
  readonly suggestion?: string;
}

export function queryError(message: string, position: number, length: number, suggestion?: string): QueryError {
  return suggestion === undefined ? { message, position, length } : { message, position, length, suggestion };
}

function lowerFirst(message: string): string {
  // Keep acronyms and names as written ("IP", "CIDR"); lower-case only an ordinary first word.
  return /^[A-Z][a-z]/.test(message) ? message[0].toLowerCase() + message.slice(1) : message;
}

/** One line: `Invalid search at position 12: expected a value after ':'`. */
export function formatQueryError(_query: string, error: QueryError): string {
  return `Invalid search at position ${error.position}: ${lowerFirst(error.message)}`;
}

const WINDOW = 60;

/**
 * For terminals: the one-line message, then the query (a window of it when long, control
 * characters shown as spaces) and a caret line under the offending characters.
 */
export function formatQueryErrorWithCaret(query: string, error: QueryError): string {
  const pos = Math.max(0, Math.min(error.position, query.length));
  let from = 0;
  let to = query.length;
  if (query.length > WINDOW * 2) {
    from = Math.max(0, pos - WINDOW);
    to = Math.min(query.length, pos + WINDOW);
  }
  const prefix = from > 0 ? '…' : '';
  const suffix = to < query.length ? '…' : '';
  const shown = prefix + query.slice(from, to).replace(/[\u0000-\u001f\u007f]/g, ' ') + suffix;
  const width = Math.max(1, Math.min(error.length, to - pos));
  const caret = ' '.repeat(prefix.length + pos - from) + '^'.repeat(width);
  return `${formatQueryError(query, error)}\n  ${shown}\n  ${caret}`;
}
