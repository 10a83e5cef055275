/**
 * A read-only connection of its own to the store's SQLite file, for reads on every request (result
 * pages, views): its statements are prepared once and return rows as arrays, where each read through
 * Kysely compiled and prepared its statement again and built an object per row — about as much
 * CPU as running it. WAL lets it read beside the store's connection, and each statement sees what
 * was committed before it started, as on the store's own.
 */
import BetterSqlite3 from 'better-sqlite3';

/**
 * Requests read random pages of large tables: mapped, they are read straight from the OS page
 * cache instead of being copied into SQLite's own cache one 4 KB page at a time (about a third of
 * a result page's read, measured). SQLite caps the mapping at its build's limit (2 GB here);
 * pages past it are read the usual way. Mapped pages count as the process's resident memory
 * (file-backed, reclaimable) once touched.
 */
const MMAP_BYTES = 2 ** 31;

export class SqliteReadConnection {
  readonly #db: BetterSqlite3.Database;
  readonly #statements = new Map<string, BetterSqlite3.Statement<unknown[], unknown[]>>();

  constructor(file: string) {
    this.#db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    this.#db.pragma(`mmap_size = ${MMAP_BYTES}`);
  }

  /** The rows of `sql` (prepared on first use) as arrays of column values. */
  rows<T extends unknown[]>(sql: string, params: readonly unknown[]): T[] {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare<unknown[], unknown[]>(sql).raw(true);
      this.#statements.set(sql, statement);
    }
    return statement.all(...params) as T[];
  }

  close(): void {
    this.#statements.clear();
    this.#db.close();
  }
}
