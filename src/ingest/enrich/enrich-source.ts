/**
 * What each enrichment source is and how old its data is, so operators can tell what enriched
 * their hosts and when to point at newer files.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface EnrichSource {
  /** `asn`, `country`, `city`, `cloud-asn` or `cloud-ranges`. */
  readonly name: string;
  /** The file or folder read (`(built in)` for tables that are code). */
  readonly path: string;
  /** The npm package the data came from, when it came from one. */
  readonly package?: string;
  /** Package version, else the file's own version marker, else its file name. */
  readonly version: string;
  /** When the data was built, as far as the source tells. */
  readonly builtAt?: string;
  /** Where builtAt came from: `package version`, `mmdb build_epoch`, `createDate`, `file mtime`, … */
  readonly builtFrom?: string;
  readonly loadedAt: string;
  readonly loadMs: number;
  readonly rows?: number;
  /** For range files: the cloud provider they describe. */
  readonly provider?: string;
  /** For range files: the detected shape. */
  readonly format?: string;
}

/** The package.json next to `file` (or inside it, for a folder), when there is one. */
export function packageNear(path: string, isDir = false): { name: string; version: string } | undefined {
  try {
    const pkg = JSON.parse(readFileSync(join(isDir ? path : dirname(path), 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    if (typeof pkg.name === 'string' && typeof pkg.version === 'string') return { name: pkg.name, version: pkg.version };
  } catch {
    // An operator's file has no package around it.
  }
  return undefined;
}

export function mtimeOf(path: string): string | undefined {
  try {
    return statSync(path).mtime.toISOString();
  } catch {
    return undefined;
  }
}

export function fileLabel(path: string): string {
  return basename(path);
}

/** The wire shape (snake_case, as the admin API and `periscope sources --json` print it). */
export function sourceJson(s: EnrichSource): Record<string, unknown> {
  const out: Record<string, unknown> = { name: s.name };
  if (s.provider) out.provider = s.provider;
  if (s.format) out.format = s.format;
  out.path = s.path;
  if (s.package) out.package = s.package;
  out.version = s.version;
  out.built_at = s.builtAt ?? null;
  out.built_from = s.builtFrom ?? null;
  out.loaded_at = s.loadedAt;
  out.load_ms = s.loadMs;
  if (s.rows !== undefined) out.rows = s.rows;
  return out;
}

/** Settings key where each ingest run records the sources that enriched it. */
export const ENRICH_SOURCES_SETTING = 'enrich.sources';

/** Records `sources` as the ones used by the ingest run finishing at `at`. */
export async function recordEnrichSources(
  settings: { set(key: string, value: string): Promise<void> },
  sources: readonly EnrichSource[],
  at: Date = new Date(),
): Promise<void> {
  await settings.set(ENRICH_SOURCES_SETTING, JSON.stringify({ recordedAt: at.toISOString(), sources }));
}

/** One line per source for terminals: `asn  @ip-location-db/asn 2.3.… built 2026-06-17 (package version)  path`. */
export function formatSources(sources: readonly EnrichSource[]): string {
  const rows = sources.map((s) => [
    s.name + (s.provider ? ` (${s.provider})` : ''),
    s.package ? `${s.package} ${s.version}` : s.version,
    s.builtAt ? `built ${s.builtAt.slice(0, 10)}${s.builtFrom ? ` (${s.builtFrom})` : ''}` : 'build date unknown',
    s.path,
  ]);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i < 3 ? c.padEnd(widths[i]) : c)).join('  ') + '\n').join('');
}
