/**
 * IP → cloud provider, region and service from the providers' published range files in one
 * folder. Prefixes nest (AWS lists a /16 under AMAZON and /24s of it under EC2 in a region), so
 * the files are flattened once into sorted, non-overlapping segments where the most specific
 * prefix wins; a lookup is then one bisection.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isoTime } from '../../lib/time.ts';
import { parseRangeFile, type CloudRangeEntry } from './cloud-range-file.ts';
import { mtimeOf, type EnrichSource } from './enrich-source.ts';
import { parseIpv4, parseIpv6, wordsToBigInt } from './ip-words.ts';

export interface CloudInfo {
  provider: string;
  region?: string;
  service?: string;
}

interface Interval {
  lo: bigint;
  hi: bigint;
  bits: number;
  priority: number;
  info: CloudInfo;
}

/** Sorted segments of one address family. */
interface SegmentTable {
  los: bigint[];
  his: bigint[];
  infos: CloudInfo[];
}

/** Files larger than this are not range files (Azure's, the largest, is a few MB). */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** `a.b.c.d/n` or `x::/n` → family and inclusive bounds, or undefined. */
export function parseCidr(text: string): { v6: boolean; lo: bigint; hi: bigint; bits: number } | undefined {
  const slash = text.indexOf('/');
  const addr = slash < 0 ? text : text.slice(0, slash);
  const v4 = parseIpv4(addr);
  const v6 = !(v4 >= 0);
  const width = v6 ? 128 : 32;
  const bits = slash < 0 ? width : Number(text.slice(slash + 1));
  if (!Number.isInteger(bits) || bits < 0 || bits > width || (slash >= 0 && !/^\d+$/.test(text.slice(slash + 1)))) return undefined;
  let value: bigint;
  if (!v6) value = BigInt(v4);
  else {
    const w = parseIpv6(addr);
    if (!w) return undefined;
    value = wordsToBigInt(w);
  }
  const host = (1n << BigInt(width - bits)) - 1n;
  const lo = value & ~host & ((1n << BigInt(width)) - 1n);
  return { v6, lo, hi: lo | host, bits };
}

/** The address as a family and a number; IPv4-mapped IPv6 counts as IPv4. */
function addressOf(ip: string): { v6: boolean; value: bigint } | undefined {
  const text = ip.trim();
  const v4 = parseIpv4(text);
  if (v4 >= 0) return { v6: false, value: BigInt(v4) };
  if (!text.includes(':')) return undefined;
  const w = parseIpv6(text);
  if (!w) return undefined;
  if (w[0] === 0 && w[1] === 0 && w[2] === 0xffff) return { v6: false, value: BigInt(w[3]) };
  return { v6: true, value: wordsToBigInt(w) };
}

function sameInfo(a: CloudInfo, b: CloudInfo): boolean {
  return a.provider === b.provider && a.region === b.region && a.service === b.service;
}

/** Nested or disjoint intervals → disjoint segments, the innermost (then highest priority) winning. */
export function flatten(intervals: Interval[]): SegmentTable {
  intervals.sort((a, b) => (a.lo < b.lo ? -1 : a.lo > b.lo ? 1 : a.bits !== b.bits ? a.bits - b.bits : a.priority - b.priority));
  const out: SegmentTable = { los: [], his: [], infos: [] };
  const emit = (lo: bigint, hi: bigint, info: CloudInfo) => {
    if (lo > hi) return;
    const n = out.los.length;
    if (n > 0 && out.his[n - 1] + 1n === lo && sameInfo(out.infos[n - 1], info)) out.his[n - 1] = hi;
    else {
      out.los.push(lo);
      out.his.push(hi);
      out.infos.push(info);
    }
  };
  const stack: Interval[] = [];
  let cursor = 0n;
  for (const iv of intervals) {
    while (stack.length > 0 && stack[stack.length - 1].hi < iv.lo) {
      const top = stack.pop()!;
      emit(cursor, top.hi, top.info);
      cursor = top.hi + 1n;
    }
    if (stack.length > 0) emit(cursor, iv.lo - 1n, stack[stack.length - 1].info);
    cursor = iv.lo;
    stack.push(iv);
  }
  while (stack.length > 0) {
    const top = stack.pop()!;
    emit(cursor, top.hi, top.info);
    cursor = top.hi + 1n;
  }
  return out;
}

function find(t: SegmentTable, x: bigint): CloudInfo | undefined {
  let lo = 0;
  let hi = t.los.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (t.los[mid] <= x) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found >= 0 && t.his[found] >= x ? t.infos[found] : undefined;
}

export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

export class CloudRanges {
  private v4: SegmentTable = { los: [], his: [], infos: [] };
  private v6: SegmentTable = { los: [], his: [], infos: [] };
  private files: EnrichSource[] = [];
  private skippedFiles: SkippedFile[] = [];
  private loaded = false;

  /** `dir`: the folder holding the providers' range files (each recognised by its content). */
  constructor(private readonly dir: string) {}

  load(): this {
    if (this.loaded) return this;
    this.loaded = true;
    const v4: Interval[] = [];
    const v6: Interval[] = [];
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => !n.startsWith('.')).sort();
    } catch (e) {
      this.skippedFiles.push({ path: this.dir, reason: `cannot read the folder: ${(e as Error).message}` });
      return this;
    }
    for (const name of names) {
      const path = join(this.dir, name);
      const t0 = performance.now();
      let text: string;
      try {
        const st = statSync(path);
        if (!st.isFile()) continue;
        if (st.size > MAX_FILE_BYTES) {
          this.skippedFiles.push({ path, reason: 'too large for a range file' });
          continue;
        }
        text = readFileSync(path, 'utf8');
      } catch (e) {
        this.skippedFiles.push({ path, reason: (e as Error).message });
        continue;
      }
      const parsed = parseRangeFile(text, name);
      if (!parsed.ok) {
        this.skippedFiles.push({ path, reason: parsed.error });
        continue;
      }
      const file = parsed.value;
      let rows = 0;
      for (const e of file.entries) {
        const iv = this.interval(e, file.provider);
        if (!iv) continue;
        (iv.v6 ? v6 : v4).push(iv.interval);
        rows++;
      }
      const mtime = mtimeOf(path);
      const builtAt = file.builtAt ?? mtime;
      this.files.push({
        name: 'cloud-ranges',
        provider: file.provider,
        format: file.format,
        path,
        version: file.version ?? name,
        ...(builtAt ? { builtAt, builtFrom: file.builtAt ? file.builtFrom : 'file mtime' } : {}),
        loadedAt: isoTime(Date.now()),
        loadMs: Math.round(performance.now() - t0),
        rows,
      });
    }
    this.v4 = flatten(v4);
    this.v6 = flatten(v6);
    return this;
  }

  private interval(e: CloudRangeEntry, provider: string): { v6: boolean; interval: Interval } | undefined {
    const c = parseCidr(e.prefix);
    if (!c) return undefined;
    const info: CloudInfo = { provider };
    if (e.region) info.region = e.region;
    if (e.service) info.service = e.service;
    return { v6: c.v6, interval: { lo: c.lo, hi: c.hi, bits: c.bits, priority: e.priority, info } };
  }

  /** The provider (with region and service when the file names them) whose range holds `ip`. */
  lookup(ip: string): CloudInfo | undefined {
    this.load();
    const a = addressOf(ip);
    if (!a) return undefined;
    const info = find(a.v6 ? this.v6 : this.v4, a.value);
    return info ? { ...info } : undefined;
  }

  /** One source per recognised file. */
  sources(): EnrichSource[] {
    this.load();
    return [...this.files];
  }

  /** Files in the folder that are not range files, with the reason. */
  skipped(): SkippedFile[] {
    this.load();
    return [...this.skippedFiles];
  }

  segmentCount(): { ipv4: number; ipv6: number } {
    this.load();
    return { ipv4: this.v4.los.length, ipv6: this.v6.los.length };
  }
}
