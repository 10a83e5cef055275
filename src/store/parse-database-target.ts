import { join, resolve } from 'node:path';

export type StoreOptions =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string };

/**
 * Chooses the database from a setting (`--database`, `PERISCOPE_DATABASE`):
 * - unset or empty: the embedded SQLite file `<dataDir>/periscope.db`;
 * - `postgres://...` or `postgresql://...`: PostgreSQL, the URL used as given;
 * - `sqlite:PATH` or a plain path: a SQLite file at PATH (relative to the working directory).
 * Any other `scheme://` is a configuration mistake worth stopping for, so it throws.
 */
export function parseDatabaseTarget(value: string | undefined, dataDir: string): StoreOptions {
  const v = value?.trim() ?? '';
  if (v === '') return { kind: 'sqlite', file: join(dataDir, 'periscope.db') };
  if (/^postgres(ql)?:\/\//i.test(v)) return { kind: 'postgres', url: v };
  const sqlite = /^sqlite:(?:\/\/)?(.+)$/i.exec(v);
  if (sqlite) return { kind: 'sqlite', file: resolve(sqlite[1]) };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) {
    throw new Error(`unsupported database ${JSON.stringify(v)}: use a postgres:// URL or a SQLite file path`);
  }
  return { kind: 'sqlite', file: resolve(v) };
}
