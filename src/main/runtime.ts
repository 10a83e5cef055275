/**
 * The composition root: the only place that picks implementations (store dialect, engine) and
 * wires them into the use cases.
 */
import { join } from 'node:path';
import { openStore, parseDatabaseTarget } from '../store/index.ts';
import type { Store } from '../store/store.ts';
import { EmbeddedEngine } from '../engine/index.ts';
import type { SearchEngine } from '../engine/search-engine.ts';
import { catalogueFor } from '../model/field-catalogue.ts';
import type { SearchContext } from '../search/search-context.ts';
import { Indexer, journaledStore } from '../search/indexer.ts';
import { Authenticator } from '../users/accounts.ts';
import type { Config } from './config.ts';

export interface Runtime {
  readonly config: Config;
  readonly store: Store;
  readonly engine: SearchEngine;
  readonly ctx: SearchContext;
  readonly indexer: Indexer;
  readonly auth: Authenticator;
  close(): Promise<void>;
}

export function describeDatabase(config: Config): string {
  const target = parseDatabaseTarget(config.database, config.dataDir);
  return target.kind === 'sqlite' ? `SQLite ${target.file}` : `PostgreSQL ${target.url.replace(/\/\/[^@/]*@/, '//***@')}`;
}

export async function openRuntime(config: Config, options: { now?: () => Date } = {}): Promise<Runtime> {
  const opened = await openStore(parseDatabaseTarget(config.database, config.dataDir));
  const catalogues = { hosts: catalogueFor('hosts'), certificates: catalogueFor('certificates') };
  // Segments live beside the store; every document write, by any command, is journaled for them.
  const engine = new EmbeddedEngine(catalogues, { dir: join(config.dataDir, 'engine') });
  const store = journaledStore(opened, engine.persistence);
  const ctx: SearchContext = { store, engine, catalogues, now: options.now ?? (() => new Date()) };
  return {
    config,
    store,
    engine,
    ctx,
    indexer: new Indexer(ctx),
    auth: new Authenticator(store),
    async close() {
      await engine.close();
      await store.close();
    },
  };
}
