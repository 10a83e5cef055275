import type { Readable } from 'node:stream';
import { isoTime } from '../../lib/time.ts';
import { pemToDer } from '../x509/index.ts';
import type { IngestRecord, TlsObservation } from '../observation.ts';
import { arr, isObject, str } from '../zgrab2/read-lines.ts';
import { readLines } from '../../lib/read-lines.ts';
import { tlsVersionName } from '../zgrab2/tls-handshake.ts';
import { normalIp, stampMs } from '../zgrab2/zgrab2-source.ts';

/** Normal text of `text` when it is an IP address. */
export function asIp(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  return normalIp(bare);
}

/** A DNS host name (not an IP, no scheme or port). */
export function asHostName(text: string | undefined): string | undefined {
  if (!text) return undefined;
  let t = text.trim().toLowerCase();
  const scheme = t.indexOf('://');
  if (scheme >= 0) t = t.slice(scheme + 3);
  t = t.split(/[/?#]/, 1)[0];
  if (t.startsWith('[')) return undefined;
  t = t.replace(/:\d+$/, '').replace(/\.$/, '');
  // A numeric last label is a mistyped address (`300.1.1.1`), never a name.
  if (t === '' || asIp(t) || /(^|\.)\d+$/.test(t)) return undefined;
  return /^[a-z0-9_*]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(t) ? t : undefined;
}

/** RFC 3339 time from the tools' Go timestamps (nanoseconds, zone offsets), else `now`. */
export function observedAt(v: unknown, now: Date): string {
  return isoTime(stampMs(v) ?? now);
}

/** DERs of a PEM string or a list of PEM strings / objects carrying `certificate`. */
export function pemDers(...values: unknown[]): { ders: Uint8Array[]; errors: string[] } {
  const ders: Uint8Array[] = [];
  const errors: string[] = [];
  const take = (v: unknown): void => {
    const text = typeof v === 'string' ? v : isObject(v) ? str(v.certificate) : undefined;
    if (!text) return;
    const r = pemToDer(text);
    if (r.ok) ders.push(...r.ders);
    else errors.push(r.error);
  };
  for (const v of values) {
    if (Array.isArray(v)) for (const x of v) take(x);
    else take(v);
  }
  return { ders, errors };
}

/** TLS metadata as httpx (`tls` object) and tlsx (top level) print it. */
export function pdTls(t: Record<string, unknown>, chain: Uint8Array[]): TlsObservation {
  const version = str(t.tls_version) ?? str(t.version);
  const cipher = str(t.cipher);
  const ja3s = str(t.ja3s_hash) ?? str(t.ja3s);
  return {
    chain,
    ...(version ? { versionSelected: tlsVersionName(version) } : {}),
    ...(cipher ? { cipherSelected: cipher } : {}),
    ...(ja3s ? { ja3s } : {}),
  };
}

/** The non-empty strings of a JSON array. */
export function strings(v: unknown): string[] {
  return arr(v).filter((x): x is string => typeof x === 'string' && x !== '');
}

/**
 * Reads JSON lines, handing each parsed object to `map`; bad JSON and non-objects are rejected
 * with their line.
 */
export async function* readJsonRecords(
  input: Readable,
  map: (value: Record<string, unknown>, position: string) => IngestRecord[],
): AsyncGenerator<IngestRecord> {
  for await (const line of readLines(input)) {
    const position = `line ${line.number}`;
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch (e) {
      yield { kind: 'rejected', position, reason: `invalid JSON: ${(e as Error).message}` };
      continue;
    }
    if (!isObject(value)) {
      yield { kind: 'rejected', position, reason: 'not a JSON object' };
      continue;
    }
    yield* map(value, position);
  }
}

