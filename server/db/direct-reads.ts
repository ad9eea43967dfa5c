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

  read<R>(query: CompiledQuery<R>): R[] {
    if (!this.#connection) {
      const connection = new Libsql(this.path, { timeout: this.busyTimeoutMs });
      connection.exec('PRAGMA query_only = ON');
      this.#connection = connection;
    }
    return this.#connection.prepare(query.sql).all(...query.parameters) as R[];
  }

  close(): void {
    this.#connection?.close();
    this.#connection = undefined;
  }
}
