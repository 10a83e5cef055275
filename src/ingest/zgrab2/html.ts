/** Title and head tags of an HTML body, as Censys reports them (`html_title`, `html_tags`). */

// Only the start of a page is searched: titles and meta tags live in the head, and scanning a
// multi-megabyte body for them would dominate parse cost.
const HEAD_LIMIT = 65_536;

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[e.toLowerCase()] ?? whole;
  });
}

export function htmlTitle(body: string): string | undefined {
  const head = body.length > HEAD_LIMIT ? body.slice(0, HEAD_LIMIT) : body;
  const m = /<title[^>]*>([\s\S]*?)<\/title\s*>/i.exec(head);
  if (!m) return undefined;
  const title = decodeEntities(m[1]).replace(/\s+/g, ' ').trim();
  return title === '' ? undefined : title;
}

/** `<title>…</title>` and `<meta …>` tags, verbatim, at most 32. */
export function htmlTags(body: string): string[] {
  const head = body.length > HEAD_LIMIT ? body.slice(0, HEAD_LIMIT) : body;
  const tags: string[] = [];
  const re = /<title[^>]*>[\s\S]*?<\/title\s*>|<meta\b[^>]*>/gi;
  for (let m = re.exec(head); m && tags.length < 32; m = re.exec(head)) tags.push(m[0]);
  return tags;
}
