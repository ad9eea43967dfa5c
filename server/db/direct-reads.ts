import type { CompiledQuery } from 'kysely';
import Libsql from 'libsql';

/**
 * Short reads of a SQLite database on a connection of their own, straight through libSQL.
 * @libsql/client converts and wraps every argument, column and row of each statement (and asks for the
 * columns twice), and Kysely's driver takes a turn on a pooled connection; for a read of a few rows,
 * on the widget's identified sync, that cost more than SQLite's running it (docs/decisions.md, "The
 * identified sync"). Reads only (the connection is query_only), in autocommit; opened on first use;
 * its statements stay prepared (statement-cache.ts). Rows are objects by column name, integers as
 * JavaScript numbers, as the pooled connections give them.
 */
export class DirectReads {
  #connection: Libsql.Database | undefined;

  constructor(
    private readonly path: string,
    private readonly busyTimeoutMs: number,
  ) {}

  /**
   * The query's rows; with `oneRow`, only its first, in one call into libSQL instead of two and an
   * iterator (libSQL resets the statement after it, so no read stays open).
   */
  read<R>(query: CompiledQuery<R>, oneRow = false): R[] {
    if (!this.#connection) {
      const connection = new Libsql(this.path, { timeout: this.busyTimeoutMs });
      connection.exec('PRAGMA query_only = ON');
      this.#connection = connection;
    }
    if (!oneRow) return this.#connection.prepare(query.sql).all(...query.parameters) as R[];
    // A kept statement read with get() after all() gives the earlier read's row (libSQL 0.5), so the
    // one-row reads have statements of their own: the comment makes their SQL, the cache's key, differ.
    const row = this.#connection.prepare(`${query.sql} -- one row`).get(...query.parameters) as
      | (R & { _metadata?: unknown })
      | undefined;
    if (row === undefined) return [];
    // libSQL adds the statement's timing to the row.
    delete row._metadata;
    return [row];
  }

  close(): void {
    this.#connection?.close();
    this.#connection = undefined;
  }
}
