export { openStore } from './open-store.ts';
export { parseDatabaseTarget, type StoreOptions } from './parse-database-target.ts';
export { KyselyStore } from './kysely-store.ts';
export { canonicalJson, contentHash } from './canonical-json.ts';
export type * from './store.ts';
export type { Database } from './database.ts';
