/**
 * Configuration: flags, then environment, then an optional JSON config file, then defaults —
 * the first that sets a value wins.
 */
import { readFileSync, existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_PART_DOCUMENTS } from '../engine/embedded/parted-engine.ts';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** A postgres:// URL, or undefined for the embedded SQLite store in dataDir. */
  database?: string;
  rateLimit: { requests: number; windowSeconds: number };
  bodyLimit: number;
  logLevel: string;
  demo: { enabled: boolean; hosts: number; certificates: number };
  /** Operator-supplied enrichment files; each absent one means the bundled data (none for city and cloud ranges). */
  enrich: { asnDb?: string; countryDb?: string; cityDb?: string; cloudRangesDir?: string };
  /**
   * The search index: documents per part (docs/ARCHITECTURE.md, "Engine parts"), and whether an
   * index of three parts or more searches about half of them on a second thread ("Query thread";
   * on unless set to false).
   */
  engine: { partDocuments: number; queryThread?: boolean };
}

export const DEFAULTS: Config = {
  host: '127.0.0.1',
  port: 8080,
  dataDir: './data',
  rateLimit: { requests: 1200, windowSeconds: 60 },
  bodyLimit: 1024 * 1024,
  logLevel: 'warn',
  demo: { enabled: true, hosts: 20_000, certificates: 5_000 },
  enrich: {},
  engine: { partDocuments: DEFAULT_PART_DOCUMENTS, queryThread: true },
};

export class ConfigError extends Error {}

/** `1200/60` → 1200 requests per 60 s; `0` disables. */
export function parseRateLimit(text: string): { requests: number; windowSeconds: number } {
  const m = /^\s*(\d+)\s*(?:\/\s*(\d+)\s*s?)?\s*$/.exec(text);
  if (!m) throw new ConfigError(`invalid rate limit '${text}': expected REQUESTS/SECONDS, e.g. 1200/60, or 0 to disable`);
  const windowSeconds = m[2] ? Number(m[2]) : 60;
  if (windowSeconds < 1) throw new ConfigError(`invalid rate limit '${text}': the window must be at least 1 second`);
  return { requests: Number(m[1]), windowSeconds };
}

/** A boolean from the config file; anything else there is an error. */
function fileBoolean(name: string, value: unknown): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

function int(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got '${text}'`);
  return n;
}

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export interface ConfigSources {
  flags: Partial<{
    host: string;
    port: string;
    dataDir: string;
    database: string;
    rateLimit: string;
    logLevel: string;
    demo: boolean;
    config: string;
    asnDb: string;
    countryDb: string;
    cityDb: string;
    cloudRangesDir: string;
  }>;
  env: NodeJS.ProcessEnv;
}

export function loadConfig({ flags, env }: ConfigSources): Config {
  const file = flags.config ?? env.PERISCOPE_CONFIG;
  let fromFile: Partial<Config> & { rateLimit?: unknown } = {};
  if (file) {
    if (!existsSync(file)) throw new ConfigError(`config file ${resolve(file)} does not exist`);
    try {
      fromFile = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new ConfigError(`config file ${resolve(file)} is not valid JSON: ${(e as Error).message}`);
    }
    if (fromFile === null || typeof fromFile !== 'object') throw new ConfigError(`config file ${resolve(file)} must hold a JSON object`);
  }
  const pick = <T>(...values: (T | undefined)[]): T | undefined => values.find((v) => v !== undefined && v !== '');
  const rate = pick<string>(flags.rateLimit, env.PERISCOPE_RATE_LIMIT);
  const fileRate = fromFile.rateLimit as Config['rateLimit'] | string | undefined;
  const demoFile = (fromFile.demo ?? {}) as Partial<Config['demo']>;
  const demoEnv = env.PERISCOPE_DEMO === undefined ? undefined : !/^(0|false|no|off)$/i.test(env.PERISCOPE_DEMO);
  const enrichFile = (fromFile.enrich ?? {}) as Partial<Config['enrich']>;
  const path = (what: string, value: string | undefined, kind: 'file' | 'dir' | 'any'): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new ConfigError(`${what} must be a path`);
    // A missing or mistyped data file would otherwise surface as a crash in the middle of an ingest.
    if (!existsSync(value)) throw new ConfigError(`${what} ${resolve(value)} does not exist`);
    const isDir = statSync(value).isDirectory();
    if (kind === 'file' && isDir) throw new ConfigError(`${what} ${resolve(value)} is a folder; name the database file`);
    if (kind === 'dir' && !isDir) throw new ConfigError(`${what} ${resolve(value)} is not a folder`);
    return value;
  };
  return {
    host: pick(flags.host, env.PERISCOPE_HOST, fromFile.host) ?? DEFAULTS.host,
    port: int('port', pick(flags.port, env.PERISCOPE_PORT, fromFile.port?.toString()), 0, 65535) ?? DEFAULTS.port,
    dataDir: pick(flags.dataDir, env.PERISCOPE_DATA_DIR, fromFile.dataDir) ?? DEFAULTS.dataDir,
    database: pick(flags.database, env.PERISCOPE_DATABASE_URL, fromFile.database),
    rateLimit: rate ? parseRateLimit(rate) : typeof fileRate === 'string' ? parseRateLimit(fileRate) : (fileRate ?? DEFAULTS.rateLimit),
    bodyLimit: int('bodyLimit', pick(env.PERISCOPE_BODY_LIMIT, fromFile.bodyLimit?.toString()), 1024, 1024 ** 3) ?? DEFAULTS.bodyLimit,
    logLevel: pick(flags.logLevel, env.PERISCOPE_LOG_LEVEL, fromFile.logLevel) ?? DEFAULTS.logLevel,
    demo: {
      // commander sets demo=false for --no-demo and true by default, so the flag only counts when false.
      enabled: (flags.demo === false ? false : undefined) ?? demoEnv ?? demoFile.enabled ?? DEFAULTS.demo.enabled,
      hosts: int('demo hosts', pick(env.PERISCOPE_DEMO_HOSTS, demoFile.hosts?.toString()), 0, 100_000_000) ?? DEFAULTS.demo.hosts,
      certificates: int('demo certificates', pick(env.PERISCOPE_DEMO_CERTIFICATES, demoFile.certificates?.toString()), 0, 100_000_000) ?? DEFAULTS.demo.certificates,
    },
    engine: {
      partDocuments:
        int('engine part documents', pick(env.PERISCOPE_ENGINE_PART_DOCUMENTS, fromFile.engine?.partDocuments?.toString()), 1, 2 ** 31) ?? DEFAULTS.engine.partDocuments,
      queryThread: pick(
        env.PERISCOPE_ENGINE_QUERY_THREAD === undefined ? undefined : !/^(0|false|no|off)$/i.test(env.PERISCOPE_ENGINE_QUERY_THREAD),
        // Checked even when the environment decides: a bad file is reported, not ignored.
        fileBoolean('engine.queryThread', fromFile.engine?.queryThread),
        DEFAULTS.engine.queryThread,
      ),
    },
    enrich: dropUndefined({
      asnDb: path('asn db', pick(flags.asnDb, env.PERISCOPE_ASN_DB, enrichFile.asnDb), 'any'),
      countryDb: path('country db', pick(flags.countryDb, env.PERISCOPE_COUNTRY_DB, enrichFile.countryDb), 'file'),
      cityDb: path('city db', pick(flags.cityDb, env.PERISCOPE_CITY_DB, enrichFile.cityDb), 'file'),
      cloudRangesDir: path('cloud ranges dir', pick(flags.cloudRangesDir, env.PERISCOPE_CLOUD_RANGES_DIR, enrichFile.cloudRangesDir), 'dir'),
    }),
  };
}
