import type { Compilable, CompiledQuery, Kysely, Transaction } from 'kysely';
import type { Dialect } from './codec.js';
import type { Database as Tables } from './schema.js';

/**
 * What every store function (Flipt's and the survey provider's) takes first: the open database or
 * one of its transactions, with the dialect for the row codecs. `db` is a `Transaction` inside one.
 */
export interface Executor {
  readonly db: Kysely<Tables>;
  readonly dialect: Dialect;
  /** Present on the open database (see `Database`), absent on a transaction. */
  transaction?<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T>;
  /**
   * Present on an open SQLite database: runs a long read on a thread of its own (ReadsAside) instead of
   * holding the event loop for its duration. Called through `readAside`.
   */
  readAside?<R>(query: CompiledQuery<R>): Promise<R[]>;
  /**
   * Present on an open SQLite database: runs a short read on a connection of its own, straight through
   * libSQL, without Kysely's and @libsql/client's handling of each statement; `oneRow` reads only the
   * first row. Called by `compiledOnce`.
   */
  readDirect?<R>(query: CompiledQuery<R>, oneRow?: boolean): Promise<R[]>;
}

/** Runs a long read aside when the executor can (an open SQLite database), else as any query. */
export async function readAside<R>(executor: Executor, query: CompiledQuery<R>): Promise<R[]> {
  if (executor.readAside) return executor.readAside(query);
  return (await executor.db.executeQuery(query)).rows;
}

/**
 * Runs `work` in one transaction: a new one on the open database, or the executor's own when it is
 * already a transaction (so a store function that writes several rows can also be part of a bigger write).
 */
export function inTransaction<T>(executor: Executor, work: (trx: Executor) => Promise<T>): Promise<T> {
  if (!executor.transaction) return work(executor);
  return executor.transaction((db) => work({ db, dialect: executor.dialect }));
}

/** Stands for argument `i` while a query is compiled once (see compiledOnce). */
const placeholder = (i: number) => `\u0000ensign-argument-${i}`;

/**
 * A statement built and compiled once per dialect, then given new arguments: for the busiest
 * statements, where Kysely's building and compiling cost more than the database's running them (the
 * identified sync's read, the history entry every change reads and writes). `build` is given
 * placeholders for the arguments and must pass each through to the statement as a value.
 */
function compiledWithArguments<A extends (string | number | null)[], R>(
  build: (db: Kysely<Tables>, ...args: A) => Compilable<R>,
): (executor: Executor, args: A) => CompiledQuery<R> {
  const compiled = new Map<Dialect, { query: CompiledQuery<R>; slots: number[] }>();
  return (executor, args) => {
    let once = compiled.get(executor.dialect);
    if (!once) {
      const placeholders = args.map((_, i) => placeholder(i)) as A;
      const query = build(executor.db, ...placeholders).compile();
      const slots = query.parameters.map((value) => placeholders.indexOf(value as string));
      if (placeholders.some((_, i) => !slots.includes(i)))
        throw new Error('compiledOnce: an argument is not a value of the query');
      once = { query, slots };
      compiled.set(executor.dialect, once);
    }
    const { query, slots } = once;
    return { ...query, parameters: query.parameters.map((value, i) => (slots[i] < 0 ? value : args[slots[i]])) };
  };
}

/**
 * A read compiled once (see compiledWithArguments); on an open SQLite database it runs straight through
 * libSQL (`readDirect`). `oneRow`: the read gives a row at most (one is read on SQLite, whatever it gives).
 */
export function compiledOnce<A extends string[], R>(
  build: (db: Kysely<Tables>, ...args: A) => Compilable<R>,
  { oneRow = false } = {},
): (executor: Executor, ...args: A) => Promise<R[]> {
  const withArguments = compiledWithArguments(build);
  return async (executor, ...args) => {
    const query = withArguments(executor, args);
    if (executor.readDirect) return executor.readDirect(query, oneRow);
    return (await executor.db.executeQuery<R>(query)).rows;
  };
}

/**
 * A write compiled once (see compiledWithArguments), run as any statement on the executor (a transaction, as a
 * rule); the rows it returns, if it says `returning`.
 */
export function writeCompiledOnce<A extends (string | number | null)[], R>(
  build: (db: Kysely<Tables>, ...args: A) => Compilable<R>,
): (executor: Executor, ...args: A) => Promise<R[]> {
  const withArguments = compiledWithArguments(build);
  return async (executor, ...args) => (await executor.db.executeQuery<R>(withArguments(executor, args))).rows;
}
