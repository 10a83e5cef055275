/** Command-line options of `npm run bench`. */
export const ALL_ENGINES = ['periscope', 'duckdb', 'postgres', 'sqlite'] as const;
export type EngineName = (typeof ALL_ENGINES)[number];

export interface BenchOptions {
  readonly hosts: number;
  readonly engines: readonly EngineName[];
  readonly runs: number;
  readonly warmups: number;
  /** Upper bound of timed work per query per engine, in ms (at least 3 runs are always made). */
  readonly budgetMs: number;
  readonly out: string | undefined;
  readonly http: boolean;
  /** Seconds per autocannon scenario in --http mode. */
  readonly duration: number;
  /** `--http --data-dir DIR`: load into DIR and keep it, or serve DIR as loaded by an earlier run. */
  readonly dataDir: string | undefined;
  readonly seed: number;
  readonly postgresUrl: string | undefined;
  readonly yes: boolean;
  /** `--ingest`: time `periscope ingest` on a zgrab2 file of `records` lines (ingest-mode.ts). */
  readonly ingest: boolean;
  readonly records: number;
  readonly ingestStages: boolean;
  /** Lines of the in-process stage timings of `--ingest-stages`. */
  readonly stageSample: number;
  /** `--http --cpu-profile FILE`: a V8 CPU profile of the server's thread during the search scenario. */
  readonly cpuProfile: string | undefined;
  /** `--stream`: the corpus generated on a worker thread as it is read, not written to a file first (Periscope alone). */
  readonly stream: boolean;
  /** Documents per part of Periscope's index (the product's default unless given). */
  readonly partDocuments: number | undefined;
}

export type ParsedOptions = { ok: true; options: BenchOptions } | { ok: false; error: string };

export const USAGE = `usage: npm run bench -- [--hosts N] [--engines periscope,duckdb,postgres,sqlite] [--runs R]
       [--warmups W] [--budget SECONDS] [--out FILE] [--http [--duration SECONDS] [--data-dir DIR] [--cpu-profile FILE]] [--seed S] [--postgres URL] [--part-documents N] [--stream] [--yes]
       npm run bench -- --ingest [--records N] [--ingest-stages [--stage-sample N]] [--seed S] [--out FILE]`;

export function parseOptions(argv: readonly string[]): ParsedOptions {
  const o = { hosts: 1_000_000, engines: [...ALL_ENGINES] as EngineName[], runs: 30, warmups: 3, budgetMs: 20_000, out: undefined as string | undefined, http: false, duration: 10, dataDir: undefined as string | undefined, seed: 1, postgresUrl: undefined as string | undefined, yes: false, ingest: false, records: 1_000_000, ingestStages: false, stageSample: 20_000, cpuProfile: undefined as string | undefined, partDocuments: undefined as number | undefined, stream: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = (): string | undefined => argv[++i];
    const int = (name: string, min: number): number | string => {
      const v = Number(String(value()).replaceAll('_', '').replaceAll(',', ''));
      return Number.isInteger(v) && v >= min ? v : `${name} needs an integer >= ${min}`;
    };
    let r: number | string | undefined;
    switch (flag) {
      case '--hosts': r = int('--hosts', 1); if (typeof r === 'number') o.hosts = r; break;
      case '--runs': r = int('--runs', 1); if (typeof r === 'number') o.runs = r; break;
      case '--warmups': r = int('--warmups', 0); if (typeof r === 'number') o.warmups = r; break;
      case '--budget': r = int('--budget', 1); if (typeof r === 'number') o.budgetMs = r * 1000; break;
      case '--duration': r = int('--duration', 1); if (typeof r === 'number') o.duration = r; break;
      case '--seed': r = int('--seed', 0); if (typeof r === 'number') o.seed = r; break;
      case '--part-documents': r = int('--part-documents', 1); if (typeof r === 'number') o.partDocuments = r; break;
      case '--out': o.out = value(); if (!o.out) r = '--out needs a file'; break;
      case '--postgres': o.postgresUrl = value(); if (!o.postgresUrl) r = '--postgres needs a URL'; break;
      case '--http': o.http = true; break;
      case '--data-dir': o.dataDir = value(); if (!o.dataDir) r = '--data-dir needs a directory'; break;
      case '--cpu-profile': o.cpuProfile = value(); if (!o.cpuProfile) r = '--cpu-profile needs a file'; break;
      case '--yes': o.yes = true; break;
      case '--stream': o.stream = true; break;
      case '--ingest': o.ingest = true; break;
      case '--ingest-stages': o.ingest = true; o.ingestStages = true; break;
      case '--records': r = int('--records', 1); if (typeof r === 'number') o.records = r; break;
      case '--stage-sample': r = int('--stage-sample', 1); if (typeof r === 'number') o.stageSample = r; break;
      case '--engines': {
        const list = String(value() ?? '').split(',').map((s) => s.trim()).filter(Boolean);
        const bad = list.filter((e) => !(ALL_ENGINES as readonly string[]).includes(e));
        if (bad.length > 0 || list.length === 0) r = `unknown engine(s): ${bad.join(', ') || '(none)'}; choose from ${ALL_ENGINES.join(', ')}`;
        else o.engines = list as EngineName[];
        break;
      }
      case '--help': case '-h': return { ok: false, error: USAGE };
      default: return { ok: false, error: `unknown option ${flag}\n${USAGE}` };
    }
    if (typeof r === 'string') return { ok: false, error: r };
  }
  if (o.stream && (o.http || o.ingest || o.engines.length !== 1 || o.engines[0] !== 'periscope')) return { ok: false, error: '--stream is for Periscope alone: add --engines periscope (not with --http or --ingest)' };
  if (!o.engines.includes('periscope')) o.engines.unshift('periscope');
  return { ok: true, options: o };
}
