/**
 * The `periscope` command. Each subcommand reads configuration from its flags, then the
 * environment, then an optional config file (see main/config.ts).
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { loadConfig, ConfigError, type ConfigSources } from './config.ts';
import { VERSION } from './version.ts';
import { EXIT } from '../cli/exit-codes.ts';
import { serveCommand } from '../cli/serve-command.ts';
import { importCommand, UsageError } from '../cli/import-command.ts';
import { demoCommand } from '../cli/demo-command.ts';
import { ctSyncCommand } from '../cli/ct-sync-command.ts';
import { ingestCommand } from '../cli/ingest-command.ts';
import { usersCreate, usersDelete, usersList, usersRotate } from '../cli/users-command.ts';
import { sourcesCommand } from '../cli/sources-command.ts';
import { configureEnrichment } from '../ingest/enrich/index.ts';
import { DEFAULT_BATCH_SIZE } from '../ingest/pipeline/pipeline.ts';

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number');
  return n;
}

function storeOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('-d, --data-dir <dir>', 'data directory (default ./data)').env('PERISCOPE_DATA_DIR'))
    .addOption(new Option('--database <url>', 'postgres://… URL to use PostgreSQL instead of SQLite').env('PERISCOPE_DATABASE_URL'))
    .addOption(new Option('-c, --config <file>', 'JSON config file').env('PERISCOPE_CONFIG'));
}

/** Newer enrichment files than the bundled ones (values also come from the environment and config file). */
function enrichOptions(cmd: Command): Command {
  return cmd
    .option('--asn-db <dir|file>', 'ASN data: a folder like @ip-location-db/asn, or one CSV in its row shape (env PERISCOPE_ASN_DB)')
    .option('--country-db <file>', 'country database (.mmdb) (env PERISCOPE_COUNTRY_DB)')
    .option('--city-db <file>', 'city database (.mmdb, GeoLite2-City or ip-location-db city) (env PERISCOPE_CITY_DB)')
    .option('--cloud-ranges-dir <dir>', "folder of cloud providers' published IP range files (env PERISCOPE_CLOUD_RANGES_DIR)");
}

function config(flags: ConfigSources['flags']) {
  const cfg = loadConfig({ flags, env: process.env });
  // Every enricher built in this process (ingest, ct-sync, the admin endpoints) uses these files.
  configureEnrichment(cfg.enrich);
  return cfg;
}

const program = new Command('periscope')
  .description('Self-hosted internet asset search, wire-compatible with the Censys Search API v2')
  .version(VERSION)
  .showHelpAfterError()
  // Set before the subcommands are added so they inherit it: usage errors exit 2, help exits 0.
  .exitOverride((err) => process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage))
  .addHelpText(
    'after',
    '\nExit codes: 0 success, 1 failure, 2 bad command line or configuration, 3 finished with rejected input records.',
  );

storeOptions(
  enrichOptions(program.command('serve'))
    .description('serve the API (creates the store, an admin user and demo data on first start)')
    .addOption(new Option('-H, --host <host>', 'address to listen on (default 127.0.0.1)').env('PERISCOPE_HOST'))
    .addOption(new Option('-p, --port <port>', 'port to listen on (default 8080)').env('PERISCOPE_PORT'))
    .option('--no-demo', 'start empty instead of loading the demo dataset on first start')
    .addOption(new Option('--rate-limit <n/s>', 'requests per user per window, e.g. 1200/60; 0 disables').env('PERISCOPE_RATE_LIMIT'))
    .addOption(new Option('--log-level <level>', 'fatal, error, warn, info, debug or silent (default warn)').env('PERISCOPE_LOG_LEVEL')),
).action(async (flags) => {
  await serveCommand(config(flags), process.env, (stop) => {
    // Started through bin/periscope.js, a Ctrl-C reaches the server twice (from the terminal and
    // forwarded by its launcher): a signal during the shutdown must not cut it short.
    let stopping = false;
    const shutdown = async () => {
      if (stopping) return;
      stopping = true;
      await stop();
      process.exit(EXIT.ok);
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
  });
});

storeOptions(
  program
    .command('import')
    .description('import Censys-format documents, one JSON document per line (FILE, FILE.gz or - for stdin)')
    .requiredOption('-i, --index <index>', 'hosts or certificates')
    .argument('<file>', 'JSON lines file, or - for standard input'),
).action(async (file: string, flags) => {
  process.exitCode = await importCommand(config(flags), flags.index, file);
});

storeOptions(
  enrichOptions(program.command('ingest'))
    .description('ingest scanner output and certificates (zgrab2, masscan, nmap XML, naabu/httpx/tlsx, PEM/DER/PKCS#7, CT entries; gzip accepted)')
    .option('-f, --format <format>', 'input format, or auto to detect it from each input', 'auto')
    .option('-n, --dry-run', 'parse and merge against current data, report, write nothing')
    .option('--batch-size <n>', 'records merged together (writes are grouped by 8,000 records)', count, DEFAULT_BATCH_SIZE)
    .option('--service-expiry <duration>', 'remove services not observed for this long (e.g. 7d, 36h)', '7d')
    .argument('<files...>', 'input files, or - for standard input'),
).action(async (files: string[], flags) => {
  process.exitCode = await ingestCommand(config(flags), files, flags);
});

storeOptions(
  enrichOptions(program.command('ct-sync'))
    .description('follow a Certificate Transparency log: fetch new entries since the last run and ingest them')
    .requiredOption('-l, --log <url>', 'log base URL (the part before /ct/v1/)')
    .option('--batch-size <n>', 'entries per get-entries request', count, 256)
    .option('--max-entries <n>', 'stop after this many entries', count)
    .option('--follow', 'keep polling for new entries until interrupted')
    .option('--interval <seconds>', 'seconds between polls with --follow', count, 60),
).action(async (flags) => {
  process.exitCode = await ctSyncCommand(config(flags), {
    log: flags.log,
    batchSize: flags.batchSize,
    maxEntries: flags.maxEntries,
    follow: flags.follow,
    intervalSeconds: flags.interval,
  });
});

storeOptions(
  program
    .command('demo')
    .description('generate the deterministic demo dataset and load it (or write it as JSON lines with --out)')
    .option('--hosts <n>', 'number of hosts', count, 20_000)
    .option('--certificates <n>', 'number of certificates', count, 5_000)
    .option('--seed <n>', 'random seed', count)
    .option('-o, --out <dir>', 'write hosts.jsonl and certificates.jsonl to this folder instead of loading'),
).action(async (flags) => {
  process.exitCode = await demoCommand(config(flags), { hosts: flags.hosts, certificates: flags.certificates, seed: flags.seed, out: flags.out });
});

enrichOptions(
  program
    .command('sources')
    .description('show the enrichment sources (ASN, country, city, cloud) with their versions and build dates')
    .addOption(new Option('-c, --config <file>', 'JSON config file').env('PERISCOPE_CONFIG'))
    .option('--json', 'print JSON'),
).action(async (flags) => {
  process.exitCode = await sourcesCommand(config(flags), flags);
});

const users = program.command('users').description('manage users and their API credentials');
storeOptions(
  users
    .command('create')
    .description('create a user (with a new workspace unless --workspace is given) and print its credentials')
    .requiredOption('-e, --email <email>', 'login email')
    .option('-r, --role <role>', 'admin or user', 'user')
    .option('-q, --quota <n>', 'search queries per month', count)
    .option('-w, --workspace <id>', 'join an existing workspace')
    .option('--json', 'print JSON'),
).action(async (flags) => {
  process.exitCode = await usersCreate(config(flags), flags);
});
storeOptions(users.command('list').description('list users').option('--json', 'print JSON')).action(async (flags) => {
  process.exitCode = await usersList(config(flags), flags);
});
storeOptions(users.command('delete').description('delete a user').argument('<user>', 'email, user id or API id')).action(async (who: string, flags) => {
  process.exitCode = await usersDelete(config(flags), who);
});
storeOptions(
  users.command('rotate').description('issue a new API secret and ASM key').argument('<user>', 'email, user id or API id').option('--json', 'print JSON'),
).action(async (who: string, flags) => {
  process.exitCode = await usersRotate(config(flags), who, flags);
});

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof ConfigError || e instanceof UsageError) {
    process.stderr.write(`periscope: ${e.message}\n`);
    process.exit(EXIT.usage);
  }
  const err = e as Error;
  process.stderr.write(`periscope: ${err.message}\n`);
  if (process.env.PERISCOPE_DEBUG) process.stderr.write(`${err.stack}\n`);
  process.exit(EXIT.failure);
}
