/**
 * CPE names: the 2.2 URI form (`cpe:/a:nginx:nginx:1.18.0`) that nmap prints becomes the 2.3
 * formatted string (`cpe:2.3:a:nginx:nginx:1.18.0:*:*:*:*:*:*:*`) Censys stores.
 */

/** The eleven attributes of a CPE 2.3 name, in order; `*` when any. */
export interface CpeParts {
  part: string;
  vendor: string;
  product: string;
  version: string;
  update: string;
  edition: string;
  language: string;
  sw_edition: string;
  target_sw: string;
  target_hw: string;
  other: string;
}

const ORDER: readonly (keyof CpeParts)[] = [
  'part', 'vendor', 'product', 'version', 'update', 'edition', 'language', 'sw_edition', 'target_sw', 'target_hw', 'other',
];

function unescape23(v: string): string {
  return v.replace(/\\(.)/g, '$1');
}

/** 2.3 formatted-string quoting: everything but letters, digits, `_`, `-` and `.` is escaped. */
function escape23(v: string): string {
  if (v === '*' || v === '-' || v === '') return v === '' ? '*' : v;
  return v.replace(/[^A-Za-z0-9_.\-]/g, (c) => `\\${c}`);
}

function decode22(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** Splits on `:` not preceded by a backslash. */
function splitColons(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      cur += c + s[i + 1];
      i++;
    } else if (c === ':') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** Parses a 2.2 URI or a 2.3 formatted string; undefined when it is neither. Values are unescaped. */
export function parseCpe(text: string): CpeParts | undefined {
  const t = text.trim();
  const parts: Record<string, string> = {};
  if (/^cpe:2\.3:/i.test(t)) {
    const fields = splitColons(t.slice(8));
    if (fields.length < 1 || !/^[aoh*]$/.test(fields[0])) return undefined;
    ORDER.forEach((k, i) => (parts[k] = fields[i] === undefined || fields[i] === '' ? '*' : unescape23(fields[i])));
    return parts as unknown as CpeParts;
  }
  if (/^cpe:\//i.test(t)) {
    const fields = t.slice(5).split(':');
    if (!/^[aoh]?$/.test(fields[0])) return undefined;
    const [part, vendor, product, version, update, edition, language] = fields.map((f) => decode22(f));
    ORDER.forEach((k) => (parts[k] = '*'));
    Object.assign(parts, { part: part || '*', vendor: vendor || '*', product: product || '*', version: version || '*', update: update || '*', language: language || '*' });
    // 2.2 packs the extended attributes into edition as `~edition~sw_edition~target_sw~target_hw~other`.
    if (edition?.startsWith('~')) {
      const [, ed, swEd, tsw, thw, other] = edition.split('~');
      Object.assign(parts, { edition: ed || '*', sw_edition: swEd || '*', target_sw: tsw || '*', target_hw: thw || '*', other: other || '*' });
    } else parts.edition = edition || '*';
    return parts as unknown as CpeParts;
  }
  return undefined;
}

export function formatCpe23(parts: Partial<CpeParts>): string {
  return `cpe:2.3:${ORDER.map((k) => escape23(parts[k] ?? '*')).join(':')}`;
}

/** A 2.3 formatted string from either form; undefined when the text is not a CPE. */
export function toCpe23(text: string): string | undefined {
  const p = parseCpe(text);
  return p ? formatCpe23(p) : undefined;
}
