/**
 * A small streaming XML tokenizer for what nmap and masscan write: elements, attributes (with
 * entity decoding), text, comments, processing instructions and a DOCTYPE without an internal
 * subset (CDATA is accepted too). It works on bytes, so every event carries the byte offset of
 * its `<` in the input, and it keeps only the unfinished tail of the input in memory.
 *
 * Malformed markup is reported as an `error` event and tokenizing continues after it; a close
 * tag that does not match is reported and the stack is repaired (closes are synthesised for
 * elements it implicitly ends), so consumers always see balanced open/close events.
 */

export type XmlEvent =
  | { readonly type: 'open'; readonly name: string; readonly attrs: Readonly<Record<string, string>>; readonly offset: number }
  | { readonly type: 'close'; readonly name: string; readonly offset: number }
  | { readonly type: 'text'; readonly text: string; readonly offset: number }
  | { readonly type: 'error'; readonly message: string; readonly offset: number };

export interface XmlStreamOptions {
  /** A single tag, comment or text run larger than this is malformed input, not something to buffer. */
  readonly maxTokenBytes?: number;
  /**
   * Elements that never nest (nmap's `<host>`): one opening while another is still open means
   * the earlier one was cut short, so it is closed (with an error) and the new one starts clean.
   */
  readonly nonNesting?: ReadonlySet<string>;
}

const LT = 0x3c;
const GT = 0x3e;
const QUOT = 0x22;
const APOS = 0x27;

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;
const ATTR = /\s*([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

const NAMED_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five predefined entities and numeric references; unknown entities stay as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z]+);/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

type Tag =
  | { ok: true; kind: 'open'; name: string; attrs: Record<string, string>; selfClosing: boolean }
  | { ok: true; kind: 'close'; name: string }
  | { ok: false; message: string };

function parseTag(raw: string): Tag {
  // raw is the text between `<` and `>`.
  if (raw[0] === '/') {
    const name = raw.slice(1).trim();
    if (!NAME.test(name) || NAME.exec(name)?.[0] !== name) return { ok: false, message: `malformed close tag </${name}>` };
    return { ok: true, kind: 'close', name };
  }
  const m = NAME.exec(raw);
  if (!m) return { ok: false, message: `malformed tag <${raw.slice(0, 40)}>` };
  const name = m[0];
  let body = raw.slice(name.length);
  let selfClosing = false;
  if (body.endsWith('/')) {
    selfClosing = true;
    body = body.slice(0, -1);
  }
  const attrs: Record<string, string> = Object.create(null) as Record<string, string>;
  ATTR.lastIndex = 0;
  let at = 0;
  while (at < body.length) {
    if (/^\s*$/.test(body.slice(at))) break;
    ATTR.lastIndex = at;
    const a = ATTR.exec(body);
    if (!a) return { ok: false, message: `malformed attributes in <${name}>` };
    if (a[1] in attrs) return { ok: false, message: `duplicate attribute ${a[1]} in <${name}>` };
    attrs[a[1]] = decodeEntities(a[2] ?? a[3] ?? '');
    at = ATTR.lastIndex;
  }
  return { ok: true, kind: 'open', name, attrs, selfClosing };
}

/** Index of the `>` ending the tag that starts at `from` (a `<`), skipping quoted values; -1 if not in `buf`. */
function tagEnd(buf: Buffer, from: number): number {
  let quote = 0;
  for (let i = from + 1; i < buf.length; i++) {
    const c = buf[i];
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === QUOT || c === APOS) quote = c;
    else if (c === GT) return i;
    else if (c === LT) return -2; // a new tag starts before this one ended
  }
  return -1;
}

function startsWith(buf: Buffer, at: number, text: string): boolean {
  if (at + text.length > buf.length) return false;
  for (let i = 0; i < text.length; i++) if (buf[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** Tokenizes a byte stream (a Readable or any async iterable of chunks). */
export async function* xmlEvents(input: AsyncIterable<Buffer | string>, options: XmlStreamOptions = {}): AsyncGenerator<XmlEvent> {
  const maxToken = options.maxTokenBytes ?? 16 * 1024 * 1024;
  const stack: string[] = [];
  let buf: Buffer = Buffer.alloc(0);
  let base = 0; // absolute offset of buf[0]
  let pos = 0;
  let rootClosed = false;

  function* closeTag(name: string, offset: number): Generator<XmlEvent> {
    if (stack.length > 0 && stack[stack.length - 1] === name) {
      stack.pop();
      if (stack.length === 0) rootClosed = true;
      yield { type: 'close', name, offset };
      return;
    }
    const at = stack.lastIndexOf(name);
    const open = stack[stack.length - 1];
    yield { type: 'error', message: open ? `</${name}> found where </${open}> was expected` : `</${name}> closes nothing`, offset };
    if (at < 0) return;
    while (stack.length > at) yield { type: 'close', name: stack.pop() as string, offset };
    if (stack.length === 0) rootClosed = true;
  }

  function* step(eof: boolean): Generator<XmlEvent> {
    while (pos < buf.length) {
      const start = base + pos;
      if (buf[pos] !== LT) {
        let next = buf.indexOf(LT, pos);
        if (next < 0) {
          if (!eof && buf.length - pos <= maxToken) return;
          next = buf.length;
        }
        const text = buf.toString('utf8', pos, next);
        pos = next;
        if (stack.length > 0) yield { type: 'text', text: decodeEntities(text), offset: start };
        else if (text.trim() !== '') yield { type: 'error', message: 'text outside the root element', offset: start };
        continue;
      }
      // `<!` needs up to 9 bytes to tell a comment, CDATA and a declaration apart; others need 2.
      const avail = buf.length - pos;
      if (!eof && (avail < 2 || (buf[pos + 1] === 0x21 && avail < 9))) return;
      let endMarker: string | undefined;
      if (startsWith(buf, pos, '<!--')) endMarker = '-->';
      else if (startsWith(buf, pos, '<![CDATA[')) endMarker = ']]>';
      else if (startsWith(buf, pos, '<?')) endMarker = '?>';
      else if (startsWith(buf, pos, '<!')) endMarker = '>';
      if (endMarker !== undefined) {
        const end = buf.indexOf(endMarker, pos + 2);
        if (end < 0) {
          if (!eof && buf.length - pos <= maxToken) return;
          yield { type: 'error', message: 'unterminated markup declaration or comment', offset: start };
          pos = buf.length;
          return;
        }
        if (endMarker === ']]>') {
          if (stack.length > 0) yield { type: 'text', text: buf.toString('utf8', pos + 9, end), offset: start };
          else yield { type: 'error', message: 'CDATA outside the root element', offset: start };
        }
        pos = end + endMarker.length;
        continue;
      }
      const end = tagEnd(buf, pos);
      if (end === -1 && !eof && buf.length - pos <= maxToken) return;
      if (end < 0) {
        yield { type: 'error', message: end === -2 ? 'tag not closed before the next tag' : 'unterminated tag', offset: start };
        const next = buf.indexOf(LT, pos + 1);
        pos = next < 0 ? buf.length : next;
        continue;
      }
      const tag = parseTag(buf.toString('utf8', pos + 1, end));
      pos = end + 1;
      if (!tag.ok) {
        yield { type: 'error', message: tag.message, offset: start };
        continue;
      }
      if (tag.kind === 'close') {
        yield* closeTag(tag.name, start);
        continue;
      }
      if (options.nonNesting?.has(tag.name) && stack.includes(tag.name)) {
        yield { type: 'error', message: `<${tag.name}> opened inside an unfinished <${tag.name}>`, offset: start };
        const at = stack.lastIndexOf(tag.name);
        while (stack.length > at) yield { type: 'close', name: stack.pop() as string, offset: start };
      }
      if (stack.length === 0 && rootClosed) {
        yield { type: 'error', message: `<${tag.name}> after the root element`, offset: start };
      }
      yield { type: 'open', name: tag.name, attrs: tag.attrs, offset: start };
      if (!tag.selfClosing) stack.push(tag.name);
      else {
        if (stack.length === 0) rootClosed = true;
        yield { type: 'close', name: tag.name, offset: start };
      }
    }
  }

  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    buf = pos < buf.length ? Buffer.concat([buf.subarray(pos), bytes]) : bytes;
    base += pos;
    pos = 0;
    yield* step(false);
  }
  yield* step(true);
  const endOffset = base + buf.length;
  if (stack.length > 0) {
    yield { type: 'error', message: `input ended inside <${stack[stack.length - 1]}>`, offset: endOffset };
    while (stack.length > 0) yield { type: 'close', name: stack.pop() as string, offset: endOffset };
  }
}
