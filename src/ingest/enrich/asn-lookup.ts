/**
 * IP → autonomous system from the bundled @ip-location-db/asn CSVs (RouteViews + RIR data).
 * The tables load once, on first use, into typed arrays searched by bisection.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { isoTime } from '../../lib/time.ts';
import { mtimeOf, packageNear, type EnrichSource } from './enrich-source.ts';
import { bigIntToIpv6, compareWords, formatIpv4, parseIpv4, parseIpv6, wordsToBigInt } from './ip-words.ts';

export interface AutonomousSystem {
  asn: number;
  /** The data has only the registered organisation, so name and description carry the same text. */
  name: string;
  description: string;
  /** The largest CIDR block that contains the address and lies inside the announced range. */
  bgp_prefix: string;
  country_code?: string;
}

export interface AsnRange {
  readonly start: string;
  readonly end: string;
  readonly asn: number;
  readonly name: string;
}

export interface SourceInfo {
  readonly package: string;
  readonly version: string;
  /** When the data was built (from the package version or the database metadata). */
  readonly builtAt?: string;
  readonly rows?: number;
  readonly loadMs?: number;
}

interface V4Table {
  starts: Uint32Array;
  ends: Uint32Array;
  asns: Uint32Array;
  names: Uint32Array;
}

interface V6Table {
  starts: Uint32Array;
  ends: Uint32Array;
  asns: Uint32Array;
  names: Uint32Array;
}

/** `2.3.2026061719` → 2026-06-17T19:00:00Z (ip-location-db encodes the build hour in its version). */
export function versionBuildTime(version: string): string | undefined {
  const m = version.match(/(\d{4})(\d{2})(\d{2})(\d{2})$/);
  if (!m) return undefined;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]));
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/** A decimal field without allocating a substring. */
function digitsAt(text: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 10 + (text.charCodeAt(i) - 48);
  return v;
}

function unquote(s: string): string {
  return s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1).replace(/""/g, '"') : s;
}

/** Start/end of a CSV row in any of the @ip-location-db shapes (text or decimal, v4 or v6). */
function rowBounds(start: string, end: string, v6Hint: boolean): { v6: boolean; lo: bigint; hi: bigint } | undefined {
  const one = (t: string): { v6: boolean; value: bigint } | undefined => {
    if (/^\d+$/.test(t)) return { v6: v6Hint, value: BigInt(t) };
    const v4 = parseIpv4(t);
    if (v4 >= 0) return { v6: false, value: BigInt(v4) };
    const w = parseIpv6(t);
    return w ? { v6: true, value: wordsToBigInt(w) } : undefined;
  };
  const a = one(start.trim());
  const b = one(end.trim());
  if (!a || !b || a.v6 !== b.v6 || a.value > b.value) return undefined;
  if (!a.v6 && b.value > 0xffffffffn) return undefined;
  return { v6: a.v6, lo: a.value, hi: b.value };
}

function bigIntToWords(v: bigint, out: Uint32Array, at: number): void {
  for (let k = 3; k >= 0; k--) {
    out[at + k] = Number(v & 0xffffffffn);
    v >>= 32n;
  }
}

export class AsnLookup {
  private readonly dir: string;
  /** A single operator CSV (both families in one file) instead of the package's folder. */
  private readonly file?: string;
  private loadedAt = '';
  private v4?: V4Table;
  private v6?: V6Table;
  private names: string[] = [];
  private nameIndex = new Map<string, number>();
  private loadedMs = 0;
  private byAsn?: Map<number, number[]>;
  private countryOf?: (ip: string) => string | undefined;
  /**
   * The country of each range start looked up so far: a range's many addresses share it, and a
   * geo database lookup (address parsing, tree walk, record decoding) per host was a visible
   * share of ingest.
   */
  private readonly rangeCountries = new Map<string, string | undefined>();
  /**
   * Results by the first address of the block lookupV4 finds around an address: every address of
   * a block has the same answer, so the two address texts and the country lookup are made once
   * per block, whether or not its range is one block (most of the data's ranges are not). Ranges
   * do not overlap and the block is the largest around the address, so no two blocks share a
   * first address. Callers get copies.
   */
  private readonly blockResults = new Map<number, AutonomousSystem>();
  private versionText = '';

  /** `dir`: folder of the CSVs (default: the installed @ip-location-db/asn package). */
  constructor(options: { dir?: string; file?: string; countryOf?: (ip: string) => string | undefined } = {}) {
    this.file = options.file;
    this.dir = options.file ? dirname(options.file) : (options.dir ?? dirname(createRequire(import.meta.url).resolve('@ip-location-db/asn/package.json')));
    this.countryOf = options.countryOf;
  }

  /** A folder laid out like the @ip-location-db/asn package, or one CSV file in its row shape. */
  static at(path: string, countryOf?: (ip: string) => string | undefined): AsnLookup {
    const isDir = existsSync(path) && statSync(path).isDirectory();
    return new AsnLookup({ ...(isDir ? { dir: path } : { file: path }), countryOf });
  }

  /** Supplies the AS country (looked up at the start of the announced range). */
  setCountrySource(countryOf: (ip: string) => string | undefined): void {
    this.countryOf = countryOf;
    this.rangeCountries.clear();
    this.blockResults.clear();
  }

  /** Interns the raw CSV field (quoted, latin1-read UTF-8); decoding happens once per distinct name. */
  private intern(rawField: string): number {
    let i = this.nameIndex.get(rawField);
    if (i === undefined) {
      i = this.names.length;
      const text = unquote(rawField);
      this.names.push(/[^\x00-\x7f]/.test(text) ? Buffer.from(text, 'latin1').toString('utf8') : text);
      this.nameIndex.set(rawField, i);
    }
    return i;
  }

  /** Loads both tables now (otherwise the first lookup does). Idempotent. */
  load(): this {
    if (this.v4 && this.v6) return this;
    const t0 = performance.now();
    if (this.file) {
      const both = this.loadRows([this.file]);
      this.v4 = both.v4;
      this.v6 = both.v6;
    } else {
      const has = (name: string) => existsSync(join(this.dir, name));
      // The decimal IPv4 and text IPv6 files load fastest; a folder may hold the other shapes only.
      this.v4 = has('asn-ipv4-num.csv') || !has('asn-ipv4.csv') ? this.loadV4() : this.loadRows([join(this.dir, 'asn-ipv4.csv')]).v4;
      this.v6 = has('asn-ipv6.csv') || !has('asn-ipv6-num.csv') ? this.loadV6() : this.loadRows([join(this.dir, 'asn-ipv6-num.csv')]).v6;
    }
    this.versionText = (this.file ? undefined : packageNear(this.dir, true)?.version) ?? '';
    this.nameIndex.clear();
    this.loadedMs = performance.now() - t0;
    this.loadedAt = isoTime(Date.now());
    return this;
  }

  /** Any @ip-location-db ASN CSV shape, rows in any order (operator files need not be sorted). */
  private loadRows(paths: string[]): { v4: V4Table; v6: V6Table } {
    const r4: { lo: number; hi: number; asn: number; name: number }[] = [];
    const r6: { lo: bigint; hi: bigint; asn: number; name: number }[] = [];
    for (const path of paths) {
      const v6Hint = /ipv6/i.test(basename(path));
      for (const line of readFileSync(path, 'latin1').split('\n')) {
        const c1 = line.indexOf(',');
        const c2 = line.indexOf(',', c1 + 1);
        const c3 = line.indexOf(',', c2 + 1);
        if (c1 < 0 || c2 < 0 || c3 < 0) continue;
        const b = rowBounds(line.slice(0, c1), line.slice(c1 + 1, c2), v6Hint);
        const asn = Number(line.slice(c2 + 1, c3));
        if (!b || !Number.isInteger(asn) || asn < 0) continue;
        const name = this.intern(line.slice(c3 + 1).replace(/\r$/, ''));
        if (b.v6) r6.push({ lo: b.lo, hi: b.hi, asn, name });
        else r4.push({ lo: Number(b.lo), hi: Number(b.hi), asn, name });
      }
    }
    r4.sort((a, b) => a.lo - b.lo);
    r6.sort((a, b) => (a.lo < b.lo ? -1 : a.lo > b.lo ? 1 : 0));
    const v4: V4Table = {
      starts: Uint32Array.from(r4, (r) => r.lo),
      ends: Uint32Array.from(r4, (r) => r.hi),
      asns: Uint32Array.from(r4, (r) => r.asn),
      names: Uint32Array.from(r4, (r) => r.name),
    };
    const v6: V6Table = { starts: new Uint32Array(r6.length * 4), ends: new Uint32Array(r6.length * 4), asns: new Uint32Array(r6.length), names: new Uint32Array(r6.length) };
    r6.forEach((r, i) => {
      bigIntToWords(r.lo, v6.starts, i * 4);
      bigIntToWords(r.hi, v6.ends, i * 4);
      v6.asns[i] = r.asn;
      v6.names[i] = r.name;
    });
    return { v4, v6 };
  }

  private loadV4(): V4Table {
    const text = readFileSync(join(this.dir, 'asn-ipv4-num.csv'), 'latin1');
    const cap = Math.ceil(text.length / 20);
    let starts = new Uint32Array(cap);
    let ends = new Uint32Array(cap);
    let asns = new Uint32Array(cap);
    let names = new Uint32Array(cap);
    let n = 0;
    let pos = 0;
    while (pos < text.length) {
      let eol = text.indexOf('\n', pos);
      if (eol < 0) eol = text.length;
      const c1 = text.indexOf(',', pos);
      const c2 = text.indexOf(',', c1 + 1);
      const c3 = text.indexOf(',', c2 + 1);
      if (c1 > 0 && c3 > 0 && c3 < eol) {
        if (n === starts.length) {
          const grow = (a: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> => {
            const b = new Uint32Array(a.length * 2);
            b.set(a);
            return b;
          };
          starts = grow(starts);
          ends = grow(ends);
          asns = grow(asns);
          names = grow(names);
        }
        starts[n] = digitsAt(text, pos, c1);
        ends[n] = digitsAt(text, c1 + 1, c2);
        asns[n] = digitsAt(text, c2 + 1, c3);
        const raw = text.slice(c3 + 1, text.charCodeAt(eol - 1) === 13 ? eol - 1 : eol);
        names[n] = this.intern(raw);
        n++;
      }
      pos = eol + 1;
    }
    const table = { starts: starts.subarray(0, n), ends: ends.subarray(0, n), asns: asns.subarray(0, n), names: names.subarray(0, n) };
    for (let i = 1; i < n; i++) {
      if (table.starts[i] < table.starts[i - 1]) throw new Error('asn-ipv4-num.csv is not sorted by range start');
    }
    return table;
  }

  private loadV6(): V6Table {
    const text = readFileSync(join(this.dir, 'asn-ipv6.csv'), 'latin1');
    const lines = text.split('\n');
    const starts = new Uint32Array(lines.length * 4);
    const ends = new Uint32Array(lines.length * 4);
    const asns = new Uint32Array(lines.length);
    const names = new Uint32Array(lines.length);
    let n = 0;
    for (const line of lines) {
      const c1 = line.indexOf(',');
      const c2 = line.indexOf(',', c1 + 1);
      const c3 = line.indexOf(',', c2 + 1);
      if (c1 < 0 || c3 < 0) continue;
      if (!parseIpv6(line.slice(0, c1), starts, n * 4) || !parseIpv6(line.slice(c1 + 1, c2), ends, n * 4)) continue;
      asns[n] = Number(line.slice(c2 + 1, c3));
      const raw = line.slice(c3 + 1).replace(/\r$/, '');
      names[n] = this.intern(raw);
      n++;
    }
    const table = { starts: starts.subarray(0, n * 4), ends: ends.subarray(0, n * 4), asns: asns.subarray(0, n), names: names.subarray(0, n) };
    for (let i = 1; i < n; i++) {
      if (compareWords(table.starts, i * 4, table.starts, (i - 1) * 4) < 0) throw new Error('asn-ipv6.csv is not sorted by range start');
    }
    return table;
  }

  /** The AS announcing `ip`, or undefined (private, reserved or unannounced space, or not an IP). */
  lookup(ip: string): AutonomousSystem | undefined {
    this.load();
    const text = ip.trim();
    let v4 = parseIpv4(text);
    if (v4 < 0 && text.includes(':')) {
      const w = parseIpv6(text);
      if (!w) return undefined;
      if (w[0] === 0 && w[1] === 0 && w[2] === 0xffff) v4 = w[3];
      else return this.lookupV6(w);
    }
    if (v4 < 0) return undefined;
    return this.lookupV4(v4);
  }

  private lookupV4(x: number): AutonomousSystem | undefined {
    const t = this.v4!;
    let lo = 0;
    let hi = t.starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (t.starts[mid] <= x) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0 || t.ends[found] < x) return undefined;
    const start = t.starts[found];
    const end = t.ends[found];
    // The largest aligned block around x inside the range: every address in it gets the same
    // answer (the range itself when it is one block). Blocks around x nest, so they are grown
    // from the address itself until the next one leaves the range; in integers, as a floating
    // modulo per candidate size (33 of them) was most of a lookup.
    let bits = 0;
    let block = x;
    while (bits < 32) {
      const next = bits === 31 ? 0 : x - (x & ((2 << bits) - 1));
      if (next < start || next + 2 ** (bits + 1) - 1 > end) break;
      block = next;
      bits++;
    }
    const prefix = 32 - bits;
    const known = this.blockResults.get(block);
    if (known) return { ...known };
    const out = this.result(t.asns[found], t.names[found], `${formatIpv4(block)}/${prefix}`, formatIpv4(start));
    if (this.blockResults.size >= 100_000) this.blockResults.clear();
    this.blockResults.set(block, { ...out });
    return out;
  }

  private lookupV6(w: Uint32Array): AutonomousSystem | undefined {
    const t = this.v6!;
    const n = t.asns.length;
    let lo = 0;
    let hi = n - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (compareWords(t.starts, mid * 4, w, 0) <= 0) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0 || compareWords(t.ends, found * 4, w, 0) < 0) return undefined;
    const x = wordsToBigInt(w);
    const start = wordsToBigInt(t.starts, found * 4);
    const end = wordsToBigInt(t.ends, found * 4);
    let prefix = 128;
    for (let p = 0; p <= 128; p++) {
      const size = 1n << BigInt(128 - p);
      const block = (x / size) * size;
      if (block >= start && block + size - 1n <= end) {
        prefix = p;
        break;
      }
    }
    const size = 1n << BigInt(128 - prefix);
    return this.result(t.asns[found], t.names[found], `${bigIntToIpv6((x / size) * size)}/${prefix}`, bigIntToIpv6(start));
  }

  private result(asn: number, nameIdx: number, prefix: string, rangeStart: string): AutonomousSystem {
    const name = this.names[nameIdx];
    let cc: string | undefined;
    if (this.countryOf) {
      if (this.rangeCountries.has(rangeStart)) cc = this.rangeCountries.get(rangeStart);
      else {
        cc = this.countryOf(rangeStart);
        if (this.rangeCountries.size >= 100_000) this.rangeCountries.clear();
        this.rangeCountries.set(rangeStart, cc);
      }
    }
    // Keys in sorted order: documents built in canonical key order are stored without sorting (ingest/pipeline/key-order.ts).
    const out: AutonomousSystem = { asn, bgp_prefix: prefix } as AutonomousSystem;
    if (cc) out.country_code = cc;
    out.description = name;
    out.name = name;
    return out;
  }

  /** Number of IPv4 / IPv6 ranges. */
  counts(): { ipv4: number; ipv6: number } {
    this.load();
    return { ipv4: this.v4!.starts.length, ipv6: this.v6!.asns.length };
  }

  /** IPv4 range i as numbers (for generators that draw addresses from announced space). */
  ipv4Range(i: number): { start: number; end: number; asn: number; name: string } {
    this.load();
    const t = this.v4!;
    return { start: t.starts[i], end: t.ends[i], asn: t.asns[i], name: this.names[t.names[i]] };
  }

  /** IPv6 range i as bigints. */
  ipv6Range(i: number): { start: bigint; end: bigint; asn: number; name: string } {
    this.load();
    const t = this.v6!;
    return { start: wordsToBigInt(t.starts, i * 4), end: wordsToBigInt(t.ends, i * 4), asn: t.asns[i], name: this.names[t.names[i]] };
  }

  /** Indexes of the IPv4 (and IPv6, offset by the IPv4 count) ranges announced by `asn`. */
  rangesOf(asn: number): { ipv4: number[]; ipv6: number[] } {
    this.load();
    if (!this.byAsn) {
      this.byAsn = new Map();
      const add = (k: number, v: number): void => {
        const list = this.byAsn!.get(k);
        if (list) list.push(v);
        else this.byAsn!.set(k, [v]);
      };
      const v4n = this.v4!.asns.length;
      for (let i = 0; i < v4n; i++) add(this.v4!.asns[i], i);
      for (let i = 0; i < this.v6!.asns.length; i++) add(this.v6!.asns[i], v4n + i);
    }
    const all = this.byAsn.get(asn) ?? [];
    const v4n = this.v4!.asns.length;
    return { ipv4: all.filter((i) => i < v4n), ipv6: all.filter((i) => i >= v4n).map((i) => i - v4n) };
  }

  /** IPv4 range i in text form. */
  range(i: number): AsnRange {
    const r = this.ipv4Range(i);
    return { start: formatIpv4(r.start), end: formatIpv4(r.end), asn: r.asn, name: r.name };
  }

  /** What was loaded, from where, and how old it is. */
  source(): EnrichSource {
    this.load();
    const pkg = this.file ? packageNear(this.file) : packageNear(this.dir, true);
    const fromVersion = pkg ? versionBuildTime(pkg.version) : undefined;
    const dataFile = this.file ?? join(this.dir, existsSync(join(this.dir, 'asn-ipv4-num.csv')) ? 'asn-ipv4-num.csv' : 'asn-ipv4.csv');
    const mtime = fromVersion ? undefined : mtimeOf(dataFile);
    return {
      name: 'asn',
      path: this.file ?? this.dir,
      ...(pkg ? { package: pkg.name } : {}),
      version: pkg?.version ?? basename(this.file ?? this.dir),
      ...(fromVersion ? { builtAt: fromVersion, builtFrom: 'package version' } : mtime ? { builtAt: mtime, builtFrom: 'file mtime' } : {}),
      loadedAt: this.loadedAt,
      loadMs: Math.round(this.loadedMs),
      rows: this.v4!.starts.length + this.v6!.asns.length,
    };
  }

  sourceInfo(): SourceInfo {
    this.load();
    const builtAt = versionBuildTime(this.versionText);
    return {
      package: '@ip-location-db/asn',
      version: this.versionText,
      ...(builtAt ? { builtAt } : {}),
      rows: this.v4!.starts.length + this.v6!.asns.length,
      loadMs: Math.round(this.loadedMs),
    };
  }
}
