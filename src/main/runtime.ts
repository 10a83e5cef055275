/**
 * The composition root: the only place that picks implementations (store dialect, engine) and
 * wires them into the use cases.
 */
import { join } from 'node:path';
import { openStore, parseDatabaseTarget } from '../store/index.ts';
import type { Store } from '../store/store.ts';
import { PartedEngine } from '../engine/index.ts';
import type { SearchEngine } from '../engine/search-engine.ts';
import { catalogueFor } from '../model/field-catalogue.ts';
import type { SearchContext } from '../search/search-context.ts';
import { Indexer, journaledStore } from '../search/indexer.ts';
import { Authenticator } from '../users/accounts.ts';
import { createAsmContext, type AsmContext } from '../asm/index.ts';
import { Discovery } from '../asm/discovery/index.ts';
import { subscribeRiskEvaluation } from '../asm/risks/index.ts';
import type { Config } from './config.ts';

export interface Runtime {
  readonly config: Config;
  readonly store: Store;
  readonly engine: SearchEngine;
  readonly ctx: SearchContext;
  readonly indexer: Indexer;
  readonly auth: Authenticator;
  /** The ASM use cases' context, with discovery following its seed changes. */
  readonly asm: AsmContext;
  readonly discovery: Discovery;
  /**
   * The server's part of discovery: follow the indexer, and (catchUp) re-evaluate every workspace
   * with seeds in the background for data the CLI ingested meanwhile. Not for CLI commands: their
   * engine is not loaded, so discovery there would read partial indexes.
   */
  startDiscovery(options?: { catchUp?: boolean; log?: (line: string) => void }): Promise<void>;
  close(): Promise<void>;
}

export function describeDatabase(config: Config): string {
  const target = parseDatabaseTarget(config.database, config.dataDir);
  return target.kind === 'sqlite' ? `SQLite ${target.file}` : `PostgreSQL ${target.url.replace(/\/\/[^@/]*@/, '//***@')}`;
}

export interface RuntimeOptions {
  now?: () => Date;
  /** A command that writes the store and never opens the engine (ingest, import, ct-sync): see EnginePersistence.storeOnly. */
  storeOnly?: boolean;
}

export async function openRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const opened = await openStore(parseDatabaseTarget(config.database, config.dataDir));
  const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
  // Segments live beside the store; every document write, by any command, is journaled for them.
  const engine = new PartedEngine(catalogues, {
    dir: join(config.dataDir, 'engine'),
    partDocuments: config.engine.partDocuments,
    queryThread: config.engine.queryThread ?? true,
  });
  if (options.storeOnly) engine.persistence?.storeOnly();
  const store = journaledStore(opened, engine.persistence);
  const ctx: SearchContext = { store, engine, catalogues, now: options.now ?? (() => new Date()) };
  const reportAsmError = (err: unknown) => {
    if (config.logLevel !== 'silent') process.stderr.write(`asm: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  };
  const asm = createAsmContext(store, () => ctx.now(), reportAsmError, ctx);
  const discovery = new Discovery(asm);
  subscribeRiskEvaluation(asm);
  const indexer = new Indexer(ctx);
  // Listener failures and a failed index recovery never fail a write, but must not go unseen.
  indexer.onListenerError = (err) => {
    if (config.logLevel !== 'silent') process.stderr.write(`index: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  };
  let following = false;
  let catchingUp: Promise<unknown> = Promise.resolve();
  return {
    config,
    store,
    engine,
    ctx,
    indexer,
    auth: new Authenticator(store),
    asm,
    discovery,
    startDiscovery({ catchUp = true, log = () => {} } = {}) {
      if (!following) {
        following = true;
        indexer.onChanged((index, ids) => discovery.documentsChanged(index, ids).catch(reportAsmError));
      }
      if (catchUp) catchingUp = discovery.catchUp(log).catch(reportAsmError);
      return catchingUp.then(() => {});
    },
    async close() {
      await catchingUp;
      await engine.close();
      await store.close();
    },
  };
}
