/**
 * The page reader on an in-memory SQLite database: no file a second connection could open, so
 * pages are read through the store's own connection (sqlite.test.ts runs the suite on files,
 * where pages come from the read connection).
 */
import { openStore } from '../../src/store/index.ts';
import { runPageReaderSuite } from './page-reader-suite.ts';

runPageReaderSuite('in-memory sqlite page reader', () => openStore({ kind: 'sqlite', file: ':memory:' }));
